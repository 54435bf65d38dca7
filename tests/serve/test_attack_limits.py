"""`siftui mcp` under attack: bounded memory and processes, no orphans, bounded errors,
a trustworthy log, threads sharing a Doc, the small ones. Each test runs the attack
against the real server process over stdio (raw JSON-RPC, see mcp_wire.py) and checks
it with /proc where it is about processes."""

from __future__ import annotations

import json
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from support.mcp_wire import (
    Wire,
    content_of,
    descendants,
    exists,
    message_of,
    rss,
    slow_pdf,
    wait_for,
)
from support.pdfs import make_encrypted_pdf, make_pdf

from siftui.sources.log.reading import read_log

SLACK = 2.0  # seconds an answer may come after --timeout


def _peak_rss(pids: Any, stop: threading.Event, peaks: dict[int, int]) -> None:
    while not stop.is_set():
        for pid in pids():
            peaks[pid] = max(peaks.get(pid, 0), rss(pid))
        time.sleep(0.02)


@pytest.mark.slow
def test_a_memory_bomb_stays_within_the_worker_limit(tmp_path: Path) -> None:
    """A 60 KB PDF that makes MuPDF allocate ~540 MB (a 0.67 MB one can grow a worker
    to 6.9 GB): the worker is capped by --worker-memory, the call gets one line."""
    root = tmp_path / "root"
    root.mkdir()
    slow_pdf(root / "bomb.pdf")
    make_pdf(root / "small.pdf", ["small"])
    limit = 250_000_000
    args: list[str | Path] = ["--root", root, "--worker-memory", str(limit), "--timeout", "60"]
    peaks: dict[int, int] = {}
    stop = threading.Event()
    with Wire(args, tmp_path / "stderr") as wire:
        watcher = threading.Thread(
            target=_peak_rss, args=(lambda: [wire.pid, *descendants(wire.pid)], stop, peaks)
        )
        watcher.start()
        try:
            message = message_of(wire.call({"path": "bomb.pdf"}, timeout=60 + SLACK))
        finally:
            stop.set()
            watcher.join()
        assert "\n" not in message and len(message) < 300
        assert f"more than this server's {limit:,} bytes of memory" in message
        assert content_of(wire.call({"path": "small.pdf"})) == "--- page 1 ---\n\nsmall"
    assert max(peaks.values()) < limit, peaks
    assert peaks[wire.pid] < 200_000_000


def test_workers_are_a_small_pool_and_text_is_bounded(tmp_path: Path) -> None:
    """Many calls on many files: at most --workers workers run at once, the rest wait
    their turn (within --timeout); a text over --max-runes is refused."""
    root = tmp_path / "root"
    root.mkdir()
    for number in range(6):
        make_pdf(root / f"f{number}.pdf", [f"file {number}"])
    (root / "long.json").write_text(
        json.dumps({"title": "", "page_count": 2, "pages": ["x" * 500, "y" * 500]})
    )
    args: list[str | Path] = [
        "--root",
        root,
        "--workers",
        "2",
        "--max-runes",
        "600",
        "--timeout",
        "60",
    ]
    most = 0
    stop = threading.Event()
    with Wire(args, tmp_path / "stderr") as wire:

        def count() -> None:
            nonlocal most
            while not stop.is_set():
                most = max(most, len(descendants(wire.pid)))
                time.sleep(0.01)

        watcher = threading.Thread(target=count)
        watcher.start()
        try:
            requests = [wire.start_call({"path": f"f{n}.pdf"}) for n in range(6)]
            answers = [wire.receive(request, 60 + SLACK) for request in requests]
        finally:
            stop.set()
            watcher.join()
        for number, answer in enumerate(answers):
            assert content_of(answer) == f"--- page 1 ---\n\nfile {number}"
        message = message_of(wire.call({"path": "long.json"}))
        assert message == f"{root / 'long.json'}: 1,000 characters of text, over this " + (
            "server's limit of 600"
        )
    assert 1 <= most <= 2


@pytest.mark.parametrize(
    "how",
    [signal.SIGKILL, pytest.param(signal.SIGTERM, marks=pytest.mark.slow), None],
    ids=["SIGKILL", "SIGTERM", "EOF"],
)
def test_workers_die_with_the_server(tmp_path: Path, how: signal.Signals | None) -> None:
    """After SIGKILL or SIGTERM of the server no worker keeps running (orphaned to
    PID 1), and EOF on stdin does not wait for an extraction to finish."""
    root = tmp_path / "root"
    root.mkdir()
    slow_pdf(root / "slow.pdf")
    with Wire(["--root", root, "--timeout", "60"], tmp_path / "stderr") as wire:
        wire.start_call({"path": "slow.pdf"})
        assert wait_for(lambda: descendants(wire.pid), 30)
        time.sleep(0.3)  # the worker is extracting
        workers = descendants(wire.pid)
        assert workers
        started = time.monotonic()
        if how is None:
            wire.close_stdin()
            wire.process.wait(10)
            assert time.monotonic() - started < 1.0, "EOF must end the server within 1 s"
            assert wire.process.returncode == 0
        else:
            wire.process.send_signal(how)
            wire.process.wait(10)
        assert wait_for(lambda: not any(exists(pid) for pid in workers), 2.0), (
            how,
            workers,
        )


def test_errors_are_bounded(tmp_path: Path) -> None:
    """Huge paths, arguments, argument names and tool names come back as short
    one-line errors (never echoed whole) and are logged within a bound."""
    root = tmp_path / "root"
    root.mkdir()
    make_pdf(root / "a.pdf", ["a"])
    log = tmp_path / "calls.jsonl"
    huge = "p" * 3_000_000
    big = "q" * 300_000
    with Wire(["--root", root, "--outcap", "1000", "--log", log], tmp_path / "stderr") as wire:
        answers = [
            wire.call({"path": huge}),  # over the request limit: refused unparsed
            wire.call({"path": big}),
            wire.call({"path": "a.pdf", "pages": big}),
            wire.call({"path": "a.pdf", "grep": big}),
            wire.call({"path": "a.pdf", big: 1}),
            wire.call({"path": "a.pdf"}, tool=big),
            wire.call({"path": str(root / "a.pdf" / big)}),
        ]
        assert content_of(wire.call({"path": "a.pdf"})) == "--- page 1 ---\n\na"
    for answer in answers:
        message = message_of(answer)
        assert len(message) < 600, message[:300]
        assert big[:250] not in message and "\n" not in message
    assert "over this server's limit" in message_of(answers[0])
    assert log.stat().st_size < 60_000
    assert len(read_log(log)) == len(answers) + 1


def test_the_log_is_private_complete_and_survives_a_full_disk(tmp_path: Path) -> None:
    """The log is created 0600 (it holds document text), has a line for unknown tools
    and non-object arguments too, a torn line costs `siftui log` that line only, and
    --log /dev/full does not stop the server."""
    root = tmp_path / "root"
    root.mkdir()
    make_pdf(root / "a.pdf", ["a"])
    log = tmp_path / "calls.jsonl"
    with Wire(["--root", root, "--log", log], tmp_path / "stderr") as wire:
        wire.call({"path": "a.pdf"})
        wire.call({"path": "a.pdf"}, tool="write_pdf")
        wire.request("tools/call", {"name": "read_pdf", "arguments": ["a.pdf"]})
        wire.request("tools/call", {"name": "read_pdf", "arguments": "a.pdf"})
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    entries = read_log(log)
    assert len(entries) == 4
    assert entries[1].tool == "write_pdf" and entries[1].message == "unknown tool: write_pdf"
    assert all(entry.error for entry in entries[1:])

    from siftui.sources.log.reading import read_log_skipping

    torn = tmp_path / "torn.jsonl"
    good = [line for line in log.read_bytes().splitlines() if b'"findings_of"' not in line]
    torn.write_bytes(good[0] + b"\n" + good[1][:40] + b"\n" + good[2] + b"\n")
    entries, skipped = read_log_skipping(torn)
    assert len(entries) == 2 and len(skipped) == 1 and "line 2: not valid JSON" in skipped[0]
    # `siftui log` (its TUI replaced by a count of what it was given) skips and names it.
    probe = (
        "import sys, siftui.tui.launch as launch\n"
        "launch.run_log_tui = lambda entries, *rest, **options: print(len(entries)) or 0\n"
        "from siftui.cli import main\n"
        "raise SystemExit(main(['log', sys.argv[1]]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(torn)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0 and done.stdout == "2\n", done.stderr
    [warning] = done.stderr.splitlines()
    assert warning.startswith(f"siftui: warning: {torn}: line 2: not valid JSON")
    assert warning.endswith("(skipped)")

    with Wire(["--root", root, "--log", "/dev/full"], tmp_path / "stderr-full") as wire:
        for _ in range(3):
            assert content_of(wire.call({"path": "a.pdf"})) == "--- page 1 ---\n\na"
        code = wire.close()
    assert code == 0
    warnings = [line for line in wire.stderr().splitlines() if "call log" in line]
    assert len(warnings) == 1 and "No space left on device" in warnings[0]


def test_many_threads_grep_one_document(tmp_path: Path) -> None:
    """Through the server: concurrent greps on one cached file (each call a
    thread, all sharing its Doc's tables) all get their answer, none an internal error."""
    root = tmp_path / "root"
    root.mkdir()
    make_pdf(root / "a.pdf", [f"alpha {n}\nbeta {n}" for n in range(60)])
    with Wire(["--root", root], tmp_path / "stderr") as wire:
        content_of(wire.call({"path": "a.pdf"}))
        requests = [wire.start_call({"path": "a.pdf", "grep": f"alpha {n}$"}) for n in range(60)]
        for n, request in enumerate(requests):
            assert content_of(wire.receive(request, 60)).startswith(f'grep "alpha {n}$": 1 match')


def test_encrypted_pdf_names_the_operator(tmp_path: Path) -> None:
    """An encrypted PDF's error does not tell the agent to "use --password", which it
    cannot do."""
    root = tmp_path / "root"
    root.mkdir()
    make_encrypted_pdf(root / "locked.pdf")
    with Wire(["--root", root], tmp_path / "stderr") as wire:
        message = message_of(wire.call({"path": "locked.pdf"}))
    assert "encrypted" in message and "operator" in message
    assert "(use --password)" not in message
