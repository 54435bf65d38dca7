"""--outcap takes what the TUI's entry takes; `siftui sample-path` names the bundled sample."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from siftui.core.outcap import INVALID_MESSAGE
from siftui.core.render import Options, render
from siftui.sources.load import load_doc_report
from siftui.sources.sample import sample_path

BAD_OUTCAP = f"argument --outcap: {INVALID_MESSAGE}, not "


def siftui(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", *args], capture_output=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("typed", "value"), [("20k", 20_000), ("1.5k", 1_500), ("2,000", 2_000), ("1_200", 1_200)]
)
def test_outcap_as_the_tui_entry_takes_it(typed: str, value: int) -> None:
    done = siftui("render", str(sample_path()), "--outcap", typed)
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.decode("utf-8")
        == render(load_doc_report(sample_path()).doc, Options(out_cap=value)).content
    )


def test_a_bad_outcap_is_one_line_and_exit_2() -> None:
    done = siftui("render", str(sample_path()), "--outcap", "1.2.3")
    assert done.returncode == 2
    assert done.stderr.decode() == f"siftui: error: {BAD_OUTCAP}'1.2.3'\n"


def test_sample_path_names_the_bundled_sample() -> None:
    done = siftui("sample-path")
    assert done.returncode == 0
    assert Path(done.stdout.decode().strip()) == sample_path()
    assert siftui("sample-path", "extra").returncode == 2


def test_a_page_past_max_pages_names_max_pages() -> None:
    done = siftui("render", str(sample_path()), "--max-pages", "3", "--pages", "5")
    assert done.returncode == 2 and done.stdout == b""
    message = done.stderr.decode()
    assert message.startswith("siftui: error: pages out of range (1-3): --max-pages 3 extracted ")
    assert message.endswith("; raise --max-pages to read further\n") and message.count("\n") == 1


def test_sample_path_help_is_help() -> None:
    done = siftui("sample-path", "--help")
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode().startswith("usage: siftui sample-path [-h]\n")
    assert "bundled sample" in done.stdout.decode()


@pytest.mark.parametrize("typed", ["0", "1000000001", "99999999999999999999", "2G", "-1"])
def test_one_rule_and_one_message_for_every_surface(typed: str, tmp_path: Path) -> None:
    from siftui.core.outcap import ENTRY_MAX, check_outcap, parse_outcap
    from siftui.serve.access import Roots
    from siftui.serve.host import ToolHost
    from siftui.serve.tool_api import ServedOptions

    expected = f"siftui: error: argument --outcap: {INVALID_MESSAGE}, not {typed!r}\n"
    assert parse_outcap(typed) is None  # the TUI's entry refuses it with INVALID_MESSAGE
    for command in (["render", str(sample_path())], ["mcp", "--root", str(tmp_path)]):
        done = siftui(*command, f"--outcap={typed}")
        assert (done.returncode, done.stderr.decode()) == (2, expected)
    with pytest.raises(ValueError, match=f"^{INVALID_MESSAGE}"):
        ToolHost(Roots([str(tmp_path)]), ServedOptions(out_cap=ENTRY_MAX + 1))
    assert check_outcap(ENTRY_MAX) == ENTRY_MAX and parse_outcap(f"{ENTRY_MAX:,}") == ENTRY_MAX
