"""`siftui mcp` under attack: roots that hold against a racing writer, names that are
not UTF-8, calls that never hang. Each test runs the attack against the real server
process over stdio (raw JSON-RPC, see mcp_wire.py)."""

from __future__ import annotations

import json
import os
import shutil
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
    message_of,
    slow_pdf,
    text_of,
    wait_for,
)
from support.pdfs import make_pdf

from siftui.sources.log.reading import read_log

SECRET = "SECRETOUTSIDE"
SLACK = 2.0  # seconds an answer may come after --timeout


def _regular(master: Path, path: Path) -> None:
    """``path`` becomes a copy of the regular file ``master``, atomically (not a hard
    link to it: the server refuses a file with several)."""
    temporary = path.with_name(path.name + ".new")
    shutil.copyfile(master, temporary)
    os.replace(temporary, path)


def _symlink(target: Path, path: Path) -> None:
    """``path`` becomes a symlink to ``target``, atomically."""
    temporary = path.with_name(path.name + ".new")
    os.symlink(target, temporary)
    os.replace(temporary, path)


def _race_tree(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    make_pdf(outside / "secret.pdf", [f"{SECRET} pdf"])
    (outside / "secret.txt").write_text(f"{SECRET} txt\n")
    make_pdf(tmp_path / "inside.pdf", ["inside text"])
    (tmp_path / "inside.txt").write_text("inside words\n")
    (outside / "deep").mkdir()
    make_pdf(outside / "deep" / "race.pdf", [f"{SECRET} dir"])
    (tmp_path / "subdir").mkdir()
    make_pdf(tmp_path / "subdir" / "race.pdf", ["inside dir"])
    return root, outside


def _swap_after(wire: Wire, arguments: dict[str, Any], delay: float, swap: Any) -> Any:
    """Send the call, swap ``delay`` seconds later (as an agent that also writes files
    would), and return the answer."""
    request = wire.start_call(arguments)
    time.sleep(delay)
    swap()
    return wire.receive(request, 60)


def _check_race(tmp_path: Path, delays: list[float]) -> None:
    root, outside = _race_tree(tmp_path)
    log = tmp_path / "calls.jsonl"
    answers: list[Any] = []
    with Wire(["--root", root, "--log", log, "--timeout", "30"], tmp_path / "stderr") as wire:
        for delay in delays:
            for name, master, secret in [
                ("race.pdf", tmp_path / "inside.pdf", outside / "secret.pdf"),
                ("race.txt", tmp_path / "inside.txt", outside / "secret.txt"),
            ]:
                _regular(master, root / name)
                answers.append(
                    _swap_after(
                        wire, {"path": name}, delay, lambda n=name, s=secret: _symlink(s, root / n)
                    )
                )
        assert wire.alive(), wire.stderr()
        # After the swaps the names lead out: refused outright.
        assert "outside the allowed roots" in message_of(wire.call({"path": "race.pdf"}))
    for answer in answers:
        assert answer is not None
        assert SECRET not in text_of(answer), answer
    assert SECRET not in log.read_text("utf-8")
    for entry in read_log(log):  # the log names what was read: the inside file or nothing
        if not entry.error:
            assert entry.sha256 is not None and entry.rendered is not None
            assert "inside" in entry.rendered.content


def test_a_symlink_swapped_in_after_the_check_is_not_followed(tmp_path: Path) -> None:
    """The name is checked, then swapped for a symlink out of the root while the call
    runs: the worker reads the file that was checked, never the outside one (a PDF,
    or a .txt such as /etc/passwd)."""
    _check_race(tmp_path, [0.03, 0.2])


@pytest.mark.slow
def test_racing_symlink_swaps_many_times(tmp_path: Path) -> None:
    """The same race, hammered: a writer swaps the file and a directory of its path between an
    inside version and a symlink out, continuously, while calls run; the outside text
    never appears in an answer or the log."""
    root, outside = _race_tree(tmp_path)
    log = tmp_path / "calls.jsonl"
    stop = threading.Event()
    swaps = 0

    def writer() -> None:
        nonlocal swaps
        while not stop.is_set():
            # A fresh copy each time (a new inode and mtime): no cache answers for it.
            for name in ("race.pdf", "race.txt"):
                fresh = tmp_path / f"fresh-{name}"
                shutil.copyfile(tmp_path / f"inside{Path(name).suffix}", fresh)
                os.replace(fresh, root / name)
            _symlink(tmp_path / "subdir", root / "sub")
            time.sleep(0.002)
            _symlink(outside / "secret.pdf", root / "race.pdf")
            _symlink(outside / "secret.txt", root / "race.txt")
            _symlink(outside / "deep", root / "sub")
            time.sleep(0.002)
            swaps += 1

    answers: list[Any] = []
    thread = threading.Thread(target=writer)
    with Wire(["--root", root, "--log", log, "--timeout", "30"], tmp_path / "stderr") as wire:
        thread.start()
        try:
            for _ in range(12):
                for name in ("race.pdf", "race.txt", "sub/race.pdf"):
                    answers.append(wire.call({"path": name}))
        finally:
            stop.set()
            thread.join()
        assert wire.alive()
    assert swaps > 20
    assert all(answer is not None for answer in answers)
    leaked = [answer for answer in answers if SECRET in text_of(answer)]
    assert not leaked, leaked[:3]
    assert SECRET not in log.read_text("utf-8")
    read = [a for a in answers if not a["result"].get("isError")]
    print(f"race: {swaps} swaps, {len(answers)} calls, {len(read)} read the inside file")
    assert read, "no call got the inside file at all: the test proves nothing"


def test_names_that_are_not_utf8_never_kill_the_server(tmp_path: Path) -> None:
    """A root, a file name and a symlink target that are not UTF-8 (and a path holding
    a lone surrogate escape): every call is answered in valid UTF-8 and the server
    keeps serving."""
    root = Path(os.fsdecode(os.fsencode(tmp_path) + b"/r\xe9"))
    root.mkdir()
    make_pdf(tmp_path / "good.pdf", ["good text"])  # PyMuPDF cannot write to that name
    os.rename(tmp_path / "good.pdf", root / "good.pdf")
    (root / os.fsdecode(b"junk\xe9.pdf")).write_bytes(b"not a pdf")
    (root / "link.pdf").symlink_to(os.fsdecode(b"gone\xe9.pdf"))
    (root / "junklink.pdf").symlink_to(os.fsdecode(b"junk\xe9.pdf"))
    log = tmp_path / "calls.jsonl"
    with Wire(["--root", root, "--log", log], tmp_path / "stderr") as wire:
        listed = wire.request("tools/list", {})
        assert listed is not None and "\ufffd" in listed["result"]["tools"][0]["description"]
        assert "no such file" in message_of(wire.call({"path": "link.pdf"}))
        assert "\ufffd" in message_of(wire.call({"path": "link.pdf"}))
        # A lone surrogate escape in the request: answered (pydantic refuses such JSON,
        # and the SDK's reader drops it, which would leave the call unanswered), with
        # the tool's own error for such an argument, as `siftui session` gives it.
        wire.send(
            b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_pdf",'
            b'"arguments":{"path":"junk\\udce9.pdf"}}}'
        )
        answer = wire.receive(7, 60)
        assert answer is not None, wire.stderr()
        assert answer["result"]["isError"] is True
        assert message_of(answer) == 'argument "path" is not valid text'
        # Where the tool's checker has nothing to refuse, the line itself is refused.
        wire.send(
            b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_pdf",'
            b'"arguments":{"path":"good.pdf"},"_meta":{"x":"\\ud800"}}}'
        )
        answer = wire.receive(8, 60)
        assert answer is not None, wire.stderr()
        assert answer["error"]["code"] == -32600
        assert message_of(answer).startswith("invalid request: ")
        # The same file by a name the agent can send: its error names it with U+FFFD.
        message = message_of(wire.call({"path": "junklink.pdf"}))
        assert "junk\ufffd.pdf: not a document" in message
        assert content_of(wire.call({"path": "good.pdf"})) == "--- page 1 ---\n\ngood text"
        assert wire.alive(), wire.stderr()
    assert wire.process.returncode == 0
    for line in log.read_bytes().splitlines():
        json.loads(line.decode("utf-8"))  # every line valid UTF-8 JSON
    assert len(read_log(log)) == 6


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_no_call_hangs_on_a_swapped_in_fifo_and_failures_are_remembered(tmp_path: Path) -> None:
    """A FIFO swapped in while the worker extracts hangs neither the call nor later
    calls for that file, and a file that timed out is not extracted again each time."""
    root = tmp_path / "root"
    root.mkdir()
    slow_pdf(root / "medium.pdf", repeats=150_000)
    slow_pdf(root / "slow.pdf", repeats=4_000_000)
    (root / "zero.pdf").symlink_to("/dev/zero")
    os.mkfifo(root / "fifo.pdf")
    timeout = 6.0
    log = tmp_path / "calls.jsonl"
    args: list[str | Path] = ["--root", root, "--timeout", str(timeout), "--log", log]
    with Wire(args, tmp_path / "stderr") as wire:
        started = time.monotonic()
        request = wire.start_call({"path": "medium.pdf"})

        def worker_has_it_open() -> bool:
            # The server holds the descriptor it hands the worker for the whole call:
            # seen there too, the swap below still lands while the call reads the file
            # (under load the worker's own few moments with it were missed: CI flake).
            for pid in (wire.pid, *descendants(wire.pid)):
                try:
                    fds = os.listdir(f"/proc/{pid}/fd")
                    targets = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in fds}
                except OSError:
                    continue
                if str(root / "medium.pdf") in targets:
                    return True
            return False

        assert wait_for(worker_has_it_open, timeout)
        os.rename(root / "fifo.pdf", root / "medium.pdf")  # the FIFO takes the name
        answer = wire.receive(request, timeout + SLACK - (time.monotonic() - started))
        assert answer is not None, "the call hung"
        # The worker read the file it was handed: the answer is that file's (or its
        # timeout), never a hang on the FIFO.
        for name, expected in [("medium.pdf", "not a regular file"), ("zero.pdf", "outside")]:
            started = time.monotonic()
            assert expected in message_of(wire.call({"path": name}, timeout=timeout + SLACK))
            assert time.monotonic() - started < SLACK
        assert wire.alive()
    timeout = 2.0
    args = ["--root", root, "--timeout", str(timeout)]
    with Wire(args, tmp_path / "stderr-slow") as wire:
        started = time.monotonic()
        first = message_of(wire.call({"path": "slow.pdf"}, timeout=timeout + SLACK))
        assert time.monotonic() - started < timeout + SLACK
        assert first.endswith(f"took longer than {timeout:g} s; stopped")
        started = time.monotonic()
        again = message_of(wire.call({"path": "slow.pdf"}, timeout=timeout + SLACK))
        assert again == first and time.monotonic() - started < 1.0  # remembered: no worker
        assert not descendants(wire.pid)
        assert wire.alive()
