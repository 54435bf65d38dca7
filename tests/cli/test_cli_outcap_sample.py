"""--outcap takes what the TUI's entry takes; `siftui sample-path` names the bundled sample."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from siftui.core.render import Options, render
from siftui.sources.load import load_doc_report
from siftui.sources.sample import sample_path


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
    assert done.stderr.decode() == "siftui: error: argument --outcap: not a whole number: '1.2.3'\n"


def test_sample_path_names_the_bundled_sample() -> None:
    done = siftui("sample-path")
    assert done.returncode == 0
    assert Path(done.stdout.decode().strip()) == sample_path()
    assert siftui("sample-path", "extra").returncode == 2
