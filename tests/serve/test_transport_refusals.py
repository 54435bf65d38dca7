"""What the transport answers itself, over stdio (raw JSON-RPC, see mcp_wire.py): lines
that are not JSON, JSON that is not a request, bytes that are not UTF-8, unknown tools;
each gets one answer (a client waiting for its id must not wait forever) and its line in
the call log, naming the call by what it sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from support.mcp_wire import Wire, message_of
from support.pdfs import make_pdf

from siftui.sources.log.reading import read_log

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def _error_of(answer: dict[str, Any] | None) -> tuple[int, str]:
    assert answer is not None and "error" in answer, answer
    return answer["error"]["code"], answer["error"]["message"]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    make_pdf(folder / "a.pdf", ["a"])
    return folder


def test_lines_that_are_no_request_are_answered(root: Path, tmp_path: Path) -> None:
    """Invalid JSON is a parse error, valid JSON that is no request object an invalid
    request: each answered with its id when one can be read, else null; a valid
    notification is still not answered. Each is logged with what was sent."""
    log = tmp_path / "calls.jsonl"
    truncated = b'{"jsonrpc":"2.0","id":7,"method":"tools/call"'
    with Wire(["--root", root, "--log", log], tmp_path / "stderr") as wire:
        wire.send({"jsonrpc": "2.0", "method": "notifications/whatever"})
        assert wire.request("ping", {}) is not None
        assert wire.receive(None, 0.3) is None  # the notification got no answer

        wire.send(truncated)
        code, message = _error_of(wire.receive(7, 10))
        assert code == PARSE_ERROR and message.startswith("parse error: not valid JSON")
        assert "\n" not in message

        refusals: dict[bytes, int] = {
            b"{not json": PARSE_ERROR,
            b"[]": INVALID_REQUEST,
            b"5": INVALID_REQUEST,
            b'"tools/call"': INVALID_REQUEST,
            b"{}": INVALID_REQUEST,
        }
        for line, expected in refusals.items():
            wire.send(line)
            code, message = _error_of(wire.receive(None, 10))
            assert code == expected, (line, message)
        assert message == "invalid request: not a JSON-RPC request or notification"
        assert wire.request("ping", {}) is not None  # still serving
    entries = read_log(log)
    assert len(entries) == 1 + len(refusals)
    sent = [entry.arguments for entry in entries]
    assert sent == [truncated.decode(), *(line.decode() for line in refusals)]
    assert all(entry.error and entry.tool == "" for entry in entries)
    assert entries[0].described == json.dumps(truncated.decode())


def test_a_line_that_is_not_utf8_says_so(root: Path, tmp_path: Path) -> None:
    line = (
        b'{"jsonrpc":"2.0","id":9,"method":"tools/call",'
        b'"params":{"name":"read_pdf","arguments":{"path":"a\xff.pdf"}}}'
    )
    log = tmp_path / "calls.jsonl"
    with Wire(["--root", root, "--log", log], tmp_path / "stderr") as wire:
        wire.send(line)
        code, message = _error_of(wire.receive(9, 10))
    assert code == INVALID_REQUEST
    assert message == "invalid request: not valid UTF-8"
    [entry] = read_log(log)
    assert entry.message == message and "a\ufffd.pdf" in str(entry.arguments)


def test_an_unknown_tool_states_its_real_length(root: Path, tmp_path: Path) -> None:
    with Wire(["--root", root], tmp_path / "stderr") as wire:
        long_name = message_of(wire.call({"path": "a.pdf"}, tool="t" * 1000))
        not_text = message_of(wire.request("tools/call", {"name": [1] * 600, "arguments": {}}))
    assert long_name == f"unknown tool: {'t' * 200}… (1,000 characters)"
    shown = json.dumps([1] * 600)
    assert not_text == f"unknown tool: {shown[:200]}… ({len(shown):,} characters)"


def test_calls_refused_by_the_transport_log_what_they_sent(root: Path, tmp_path: Path) -> None:
    """Arguments that are not an object, an unknown tool and params that are not an
    object: the log keeps what was sent, and the report names the call by it."""
    log = tmp_path / "calls.jsonl"
    with Wire(["--root", root, "--log", log], tmp_path / "stderr") as wire:
        wire.request("tools/call", {"name": "read_pdf", "arguments": ["x"]})
        wire.call({"path": "a.pdf", "pages": "2"}, tool="write_pdf")
        wire.request("tools/call", 5)
        wire.call({"path": "a.pdf", "pages": "x" * 10_000}, tool="nope")
    arguments_list, unknown, params, big = read_log(log)
    assert arguments_list.arguments == ["x"] and arguments_list.described == '["x"]'
    assert unknown.tool == "write_pdf" and unknown.requested == "a.pdf"
    assert unknown.arguments == {"path": "a.pdf", "pages": "2"}
    assert unknown.described == '{"pages": "2"}'
    assert params.arguments == 5 and params.message == "tools/call params must be an object"
    assert big.arguments["chars"] > 10_000 and len(big.arguments["cut"]) <= 4096


def test_its_own_answers_are_written_as_the_sdk_writes_its_own(root: Path) -> None:
    """Compact JSON, one line: the transport's refusals and the SDK's answers on one wire
    are written one way (its own were ``{"jsonrpc": "2.0", ...}``, the SDK's without
    spaces)."""
    import subprocess
    import sys

    server = subprocess.Popen(
        [sys.executable, "-m", "siftui", "mcp", "--root", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(b'{"jsonrpc":"2.0","id":3,"method":"ping"}\n{not json\n')
        server.stdin.flush()
        answers = sorted([server.stdout.readline(), server.stdout.readline()])
    finally:
        server.kill()
        server.wait(30)
    refusal = b'"error":{"code":-32700,"message":"parse error: not valid JSON: '
    assert answers[0].startswith(b'{"jsonrpc":"2.0","id":3,"result":{'), answers  # the SDK's
    assert answers[1].startswith(b'{"jsonrpc":"2.0","id":null,' + refusal), answers
