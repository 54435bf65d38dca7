"""`siftui log FILE --rerun`: each logged evidence session re-run in a fresh session."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.evidence_log import log_session, tamper
from support.pdfs import make_pdf

from siftui.serve.tool_api import ServedOptions
from siftui.sources.sample import sample_path

REPO = Path(__file__).resolve().parents[2]


def rerun(log: Path) -> tuple[int, list[str], str]:
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "log", str(log), "--rerun"],
        capture_output=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    return done.returncode, done.stdout.decode().splitlines(), done.stderr.decode()


@pytest.fixture
def logged(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "papers"
    folder.mkdir()
    pdf = folder / "field notes.pdf"
    shutil.copyfile(sample_path(), pdf)
    log = tmp_path / "calls.jsonl"
    log_session(pdf, log)
    return pdf, log


def test_an_unchanged_session_reruns_to_the_same_bytes_and_a_changed_line_is_named(
    logged: tuple[Path, Path],
) -> None:
    _, log = logged
    code, lines, err = rerun(log)
    assert (code, err) == (0, "")
    assert lines == [
        "session 1: 7 calls on field notes.pdf: the re-run gives the same bytes the agent received"
    ]
    tamper(log, 3)  # the first search's result, as if the agent had got other bytes
    code, lines, err = rerun(log)
    assert (code, err) == (5, "")
    assert lines == [
        "session 1: 7 calls on field notes.pdf: differs from what the agent received, "
        "first at call 3 (1 of 7 calls differ)"
    ]


def test_a_session_served_in_bytes_reruns_in_bytes(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    pdf = make_pdf(folder / "café.pdf", ["Déjà vu, the café beside the été\n" * 8] * 2)
    log = tmp_path / "calls.jsonl"
    log_session(pdf, log, ServedOptions(out_cap=400, unit="bytes"))
    code, lines, err = rerun(log)
    assert (code, err) == (0, "")
    assert lines == [
        "session 1: 7 calls on café.pdf: the re-run gives the same bytes the agent received"
    ]


def test_a_changed_file_is_not_rerun(logged: tuple[Path, Path]) -> None:
    pdf, log = logged
    with pdf.open("ab") as handle:
        handle.write(b"\n% changed\n")
    code, lines, _ = rerun(log)
    assert code == 5
    assert lines == [
        "session 1: 7 calls on field notes.pdf: not re-run: field notes.pdf changed since the calls"
    ]


def test_rerun_refuses_report_and_follow_and_says_when_there_is_nothing(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "log", "x.jsonl", "--rerun", "--report"],
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 2 and done.stderr.decode().count("\n") == 1
    assert "--rerun" in done.stderr.decode()


@pytest.mark.parametrize("swap", ["fifo", "zero"])
def test_a_log_naming_a_device_or_a_fifo_is_not_hashed(
    logged: tuple[Path, Path], swap: str
) -> None:
    """A log names any path: put a FIFO or a link to /dev/zero where the PDF was, and
    the re-run says so at once (it hashed the path: a FIFO hung it, /dev/zero forever)."""
    pdf, log = logged
    pdf.unlink()
    if swap == "fifo":
        os.mkfifo(pdf)
    else:
        pdf.symlink_to("/dev/zero")
    code, lines, _ = rerun(log)
    assert code == 5
    assert lines == [
        f"session 1: 7 calls on field notes.pdf: not re-run: {pdf} is not a document siftui served"
    ]
