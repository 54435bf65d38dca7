# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""A raw JSON-RPC client for `siftui mcp` over stdio, and /proc probes, for the attack tests.

Raw, not the SDK's client: an attacker sends what it likes (50 MB lines,
arguments that are not objects, unknown tools), reads answers with its own
clock, closes stdin mid-call and kills the server; this client does the same.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pymupdf

from siftui.serve.evidence.script import image_line
from support.same_bytes import save_pdf

PROTOCOL = "2025-06-18"


class Wire:
    """`python -m siftui mcp ARGS` with pipes; :meth:`close` always reaps it."""

    def __init__(
        self, args: Sequence[str | bytes | os.PathLike[str]], stderr: Path, *, start: float = 60
    ) -> None:
        command: list[str | bytes] = [sys.executable, "-m", "siftui", "mcp"]
        command += [os.fspath(arg) for arg in args]
        self.stderr_path = stderr
        self._stderr = open(stderr, "wb")  # noqa: SIM115 (closed in close())
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr
        )
        self.pid = self.process.pid
        self._buffer = b""
        self._received: dict[str, Any] = {}
        self._next_id = 100
        self.initialize(start)

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def receive(self, request_id: Any, timeout: float) -> dict[str, Any] | None:
        """The answer to ``request_id``, or None if none came within ``timeout`` seconds."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                message = json.loads(line.decode("utf-8"))  # strict: the wire is UTF-8
                self._received[json.dumps(message.get("id"))] = message
            if json.dumps(request_id) in self._received:
                return dict(self._received.pop(json.dumps(request_id)))
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self._buffer += chunk

    def request(self, method: str, params: Any, timeout: float = 60) -> dict[str, Any] | None:
        self._next_id += 1
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return self.receive(self._next_id, timeout)

    def initialize(self, timeout: float) -> None:
        params = {
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": {"name": "attack", "version": "1"},
        }
        answer = self.request("initialize", params, timeout)
        assert answer is not None and "result" in answer, (answer, self.stderr())
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, arguments: Any, *, tool: str = "read_pdf", timeout: float = 60) -> Any:
        """The result (or JSON-RPC error) of a tools/call, None when none came in time."""
        return self.request("tools/call", {"name": tool, "arguments": arguments}, timeout)

    def start_call(self, arguments: Any) -> int:
        self._next_id += 1
        params = {"name": "read_pdf", "arguments": arguments}
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": "tools/call", "params": params})
        return self._next_id

    def alive(self) -> bool:
        return self.process.poll() is None

    def stderr(self) -> str:
        return self.stderr_path.read_text("utf-8", "replace")

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def close(self, timeout: float = 10) -> int:
        try:
            if self.process.stdin is not None and not self.process.stdin.closed:
                self.process.stdin.close()
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            self._stderr.close()

    def __enter__(self) -> Wire:
        return self

    def __exit__(self, *exc: object) -> None:
        for pid in descendants(self.pid):
            kill(pid)
        self.close()


def text_of(answer: dict[str, Any] | None) -> str:
    """Every string in an answer (result or error), joined: what the agent could read."""
    assert answer is not None
    return json.dumps(answer, ensure_ascii=False)


def message_of(answer: dict[str, Any] | None) -> str:
    """The one-line error of a failed call (a tool error or a JSON-RPC error)."""
    assert answer is not None
    if "error" in answer:
        return str(answer["error"]["message"])
    result = answer["result"]
    assert result.get("isError") is True, answer
    [block] = result["content"]
    return str(block["text"])


def content_of(answer: dict[str, Any] | None) -> str:
    assert answer is not None and "result" in answer, answer
    result = answer["result"]
    assert not result.get("isError"), result
    return str(result["content"][0]["text"])


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command may hold spaces and parentheses: fields follow the last ")".
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def descendants(pid: int) -> list[int]:
    found: list[int] = []
    pending = [pid]
    while pending:
        for child in children(pending.pop()):
            found.append(child)
            pending.append(child)
    return found


def rss(pid: int) -> int:
    """Resident bytes of ``pid`` (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def exists(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] != "Z"


def kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def wait_for(predicate: Any, timeout: float, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def slow_pdf(path: Path, repeats: int = 2_000_000) -> Path:
    """A one-page PDF of ~60 KB whose content stream holds ``repeats`` text operators:
    MuPDF takes seconds and hundreds of MB to extract it (~11 s and 540 MB at 2M)."""
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((50, 50), "x", fontname="helv")
    xref = page.get_contents()[0]
    document.update_stream(xref, b"BT /helv 1 Tf " + b"(abcdefghij) Tj " * repeats + b"ET")
    save_pdf(document, path, deflate=True)
    document.close()
    return path


def served_lines(answer: dict[str, Any] | None) -> list[str]:
    """The lines `siftui session` prints for one answer the server sent."""
    assert answer is not None
    if "error" in answer:
        return [f"error: {answer['error']['message']}"]
    result = answer["result"]
    if result.get("isError"):
        [block] = result["content"]
        return [f"error: {block['text']}"]
    lines = []
    for block in result["content"]:
        if block["type"] == "image":
            assert block["mimeType"] == "image/png"
            lines.append(image_line(base64.b64decode(block["data"])))
        else:
            lines.append(block["text"])
    return lines
