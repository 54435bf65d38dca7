"""Damaged PDFs on the command line: the exact stderr line and exit code for each damage.

Every file is built here from raw PDF objects (tests/damaged.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.damaged import NOT_A_PDF, cut_pdf, encrypted_attachment_pdf, page_tree_pdf

TIMEOUT = 60
ATTACHMENTS = (
    "only its attachments are encrypted, and MuPDF cannot open such files without the password"
)


def siftui(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", *map(str, args)],
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def refused(result: subprocess.CompletedProcess[bytes]) -> str:
    """The one error line (without "siftui: error: ") of a run that exited 1."""
    assert result.returncode == 1, result
    assert result.stdout == b""
    err = result.stderr.decode("utf-8")
    assert err.startswith("siftui: error: ") and err.count("\n") == 1 and err.endswith("\n")
    return err[len("siftui: error: ") : -1]


@pytest.fixture
def cycle(tmp_path: Path) -> Path:
    return write(tmp_path, "cycle.pdf", page_tree_pdf(2, {2}))


def test_render_prints_page_1_and_page_2s_marker_with_one_warning(cycle: Path) -> None:
    result = siftui("render", cycle)
    assert result.returncode == 0
    assert result.stdout == b"--- page 1 ---\n\nPage 1 text\n\n--- page 2 ---\n\n"
    assert result.stderr.decode() == (
        f"siftui: warning: {cycle}: page 2 is damaged; its text is left empty "
        "(cycle in page tree)\n"
    )
    again = siftui("render", cycle, "--pages", "2")  # now from the cache: the same warning
    assert (again.returncode, again.stdout) == (0, b"--- page 2 ---\n\n")
    assert again.stderr == result.stderr


def test_walk_warns_the_same_way(cycle: Path) -> None:
    result = siftui("walk", cycle, "--no-cache")
    assert result.returncode == 0
    assert result.stderr.decode() == (
        f"siftui: warning: {cycle}: page 2 is damaged; its text is left empty "
        "(cycle in page tree)\n"
    )
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 4 and "pages 1-2" in lines[0] and lines[1].startswith("total: 1 call ")
    assert lines[2] == "unreachable by pages= at OutCap 100,000: nothing"


def test_several_pages_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "holes.pdf", page_tree_pdf(6, {2, 3, 5}))
    result = siftui("render", path, "--outcap", "1000")
    assert result.returncode == 0
    assert result.stderr.decode() == (
        f"siftui: warning: {path}: pages 2-3, 5 are damaged; their text is left empty "
        "(cycle in page tree)\n"
    )
    assert result.stdout.decode().count("Page 6 text") == 1


def test_extract_records_them_and_render_of_the_json_warns(cycle: Path, tmp_path: Path) -> None:
    out = tmp_path / "doc.json"
    result = siftui("extract", cycle, "-o", out)
    assert (result.returncode, result.stderr) == (0, b"")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["pages"] == ["Page 1 text\n", ""]
    assert data["source"]["unreadable_pages"] == [{"page": 2, "reason": "cycle in page tree"}]
    rendered = siftui("render", out)
    assert rendered.stdout == siftui("render", cycle).stdout
    assert rendered.stderr.decode() == (
        f"siftui: warning: {out}: page 2 is damaged; its text is left empty (cycle in page tree)\n"
    )


def test_a_healthy_file_gets_no_warning(tmp_path: Path) -> None:
    path = write(tmp_path, "fine.pdf", page_tree_pdf(2, set()))
    result = siftui("render", path)
    assert (result.returncode, result.stderr) == (0, b"")


def test_no_readable_page_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "one-bad.pdf", page_tree_pdf(1, {1}))
    assert refused(siftui("render", path)) == f"{path}: page 1 is damaged: cycle in page tree"
    both = write(tmp_path, "two-bad.pdf", page_tree_pdf(2, {1, 2}))
    assert refused(siftui("walk", both)) == (
        f"{both}: none of its 2 pages can be read (page 1 is damaged: cycle in page tree)"
    )


def test_a_file_cut_to_half(tmp_path: Path) -> None:
    path = write(tmp_path, "cut.pdf", cut_pdf(0.5))
    expected = f"{path}: damaged or truncated: MuPDF repaired it and found no pages"
    assert refused(siftui("render", path)) == expected
    assert refused(siftui("extract", path)) == expected


def test_attachments_only_encryption(tmp_path: Path) -> None:
    path = write(tmp_path, "attached.pdf", encrypted_attachment_pdf())
    assert refused(siftui("render", path)) == f"{path}: {ATTACHMENTS}"
    assert refused(siftui("render", path, "--password", "")) == (
        f"{path}: wrong password ({ATTACHMENTS})"
    )


def test_a_file_mupdf_cannot_open(tmp_path: Path) -> None:
    path = write(tmp_path, "text.pdf", NOT_A_PDF)
    assert refused(siftui("render", path)) == (
        f"{path}: not a document siftui can read "
        "(MuPDF cannot open it as a PDF: cannot find version marker)"
    )


def test_walk_counts_real_tokens_only_when_asked(cycle: Path) -> None:
    plain = json.loads(siftui("walk", cycle, "--json").stdout)
    assert set(plain["total_tokens"]) == {"runes/4"}
    counted = json.loads(siftui("walk", cycle, "--json", "--tokens").stdout)
    assert set(counted["total_tokens"]) == {"runes/4", "o200k_base", "cl100k_base"}
    assert counted["total_tokens"]["o200k_base"] > 0
