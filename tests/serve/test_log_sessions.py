"""Sessions of servers that share one call log are told apart by their process:
each process numbers its first connection 1, and `siftui log --rerun` must not merge
them into one session that "differed"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.mcp_wire import Wire
from support.pdfs import make_pdf

from siftui.sources.log.reading import read_log

TIMEOUT = 60


def test_two_servers_sharing_a_log_keep_their_sessions_apart(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    make_pdf(root / "a.pdf", ["The first page of text", "The second page of text"])
    make_pdf(root / "b.pdf", ["Another file entirely"])
    log = tmp_path / "calls.jsonl"
    for name in ("a.pdf", "b.pdf"):
        with Wire(["--root", root, "--tools", "evidence", "--log", log], tmp_path / "e") as wire:
            wire.call({"path": name}, tool="pdf_open", timeout=TIMEOUT)
            wire.call({"documentId": "doc-1", "page": 1}, tool="pdf_page_read", timeout=TIMEOUT)
    entries = read_log(log)
    keys = [entry.session_key for entry in entries]
    assert len(set(keys)) == 2 and {key[1] for key in keys if key is not None} == {1}
    processes = list(dict.fromkeys(key[0] for key in keys if key is not None))
    rerun = subprocess.run(
        [sys.executable, "-m", "siftui", "log", str(log), "--rerun"],
        capture_output=True,
        timeout=TIMEOUT * 2,
        check=False,
    )
    assert rerun.returncode == 0, rerun.stdout
    assert rerun.stdout.decode().splitlines() == [
        f"session 1 (process {processes[0]}): 2 calls on a.pdf: the re-run gives the same "
        "bytes the agent received",
        f"session 1 (process {processes[1]}): 2 calls on b.pdf: the re-run gives the same "
        "bytes the agent received",
    ]
    report = subprocess.run(
        [sys.executable, "-m", "siftui", "log", str(log), "--report"],
        capture_output=True,
        timeout=TIMEOUT,
        check=True,
    ).stdout.decode()
    for process in processes:
        assert f"evidence tools, session 1 (process {process}): 2 calls" in report
