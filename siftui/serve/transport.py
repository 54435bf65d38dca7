"""MCP over stdin/stdout, with the bounds the SDK's own stdio transport lacks.

- A request line over ``max_request`` bytes is refused (a JSON-RPC error)
  before anything parses it; the rest of the line is read and dropped
  without being kept.
- A line that is not a JSON object (a parse error, an array, bytes that are not
  UTF-8) is answered here, with the id it seems to carry or null: the SDK drops
  such lines, and a client waiting for its id would wait forever.
- ``tools/call`` requests the SDK would reject before our handler runs (an
  unknown tool, arguments that are not an object) are answered here, so that
  the call log has their line too, with what they sent.
- Every outgoing message is serialized by :func:`siftui.serve.wire.dump_message`:
  valid UTF-8 whatever its strings hold.
- EOF on stdin ends the server: calls still running get a short grace, then
  their workers are killed and the server returns, within a second.

While serving, fd 0 reads /dev/null and fd 1 writes to stderr, so that nothing
else in the process can read from or write to the wire.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.lowlevel import Server
from mcp.shared.message import SessionMessage

from siftui.core.json_text import json_or_none
from siftui.serve.wire import clip, dump_message
from siftui.sources.output import encode_utf8

MAX_REQUEST_BYTES = 1_000_000
"""A read_pdf call needs a few kilobytes (a path of at most 4096 bytes, a pattern of
200); a line longer than this is refused unread."""

EOF_GRACE = 0.3
"""Seconds calls still running may finish after stdin closes, before their workers are killed."""

READ_CHUNK = 1 << 16
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,100}")')


@dataclass(frozen=True)
class Oversized:
    size: int
    head: bytes
    tail: bytes


class Gate:
    """What the transport asks of the tools: their names (the first is the main one),
    logging the calls it answers itself, and stopping all work at EOF."""

    def __init__(
        self,
        tool_names: str | tuple[str, ...],
        record: Callable[[str, Any, str], None],
        shutdown: Callable[[], None],
        busy: Callable[[], int],
        unknown: Callable[[str], tuple[str, bool]] | None = None,
        refuse: Callable[[str, Any], str | None] | None = None,
    ) -> None:
        names = (tool_names,) if isinstance(tool_names, str) else tool_names
        self.tool_names = names
        self.tool_name = names[0]
        self.record = record  # (tool name, what was sent, message) of a call refused here
        self.shutdown = shutdown
        self.busy = busy  # calls running now
        # (its message, whether a tool error) for a call of a tool not served (its
        # name whole: the message clips it)
        self.unknown = unknown or (lambda name: (f"unknown tool: {clip(name)}", False))
        # The tool error (made and logged by the tool) of a call the SDK cannot read
        # whose arguments the tool's checker refuses; None when the checker passes them.
        self.refuse = refuse or (lambda name, arguments: None)


async def read_lines(fd: int, limit: int) -> AsyncIterator[bytes | Oversized]:
    """The lines of ``fd`` (without their newline); a line over ``limit`` bytes comes as
    :class:`Oversized`, its middle never kept.

    Reading has a thread of its own (its own limiter): calls filling anyio's
    default thread pool must not keep the server from seeing EOF."""
    limiter = anyio.CapacityLimiter(1)
    buffer = bytearray()
    over: Oversized | None = None
    while True:
        chunk = await anyio.to_thread.run_sync(
            os.read, fd, READ_CHUNK, abandon_on_cancel=True, limiter=limiter
        )
        if not chunk:
            break
        start = 0
        while True:
            newline = chunk.find(b"\n", start)
            piece = chunk[start:] if newline < 0 else chunk[start:newline]
            if over is not None:
                over = Oversized(over.size + len(piece), over.head, (over.tail + piece)[-256:])
            else:
                buffer += piece
                if len(buffer) > limit:
                    over = Oversized(len(buffer), bytes(buffer[:256]), bytes(buffer[-256:]))
                    buffer.clear()
            if newline < 0:
                break
            if over is not None:
                yield over
                over = None
            elif buffer.strip():
                yield bytes(buffer)
            buffer.clear()
            start = newline + 1
    if over is not None:
        yield over
    elif buffer.strip():
        yield bytes(buffer)


def _line(data: dict[str, Any]) -> bytes:
    # Compact, as the SDK writes its own messages: one wire, one way of writing JSON.
    return encode_utf8(json.dumps(data, ensure_ascii=False, separators=(",", ":"))) + b"\n"


def _error(request_id: Any, code: int, message: str) -> bytes:
    return _line({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})


def _tool_error(request_id: Any, message: str) -> bytes:
    result = {"content": [{"type": "text", "text": message}], "isError": True}
    return _line({"jsonrpc": "2.0", "id": request_id, "result": result})


def _id_of(over: Oversized) -> Any:
    for part in (over.head, over.tail):
        found = _ID.search(part)
        if found is not None:
            try:
                return json.loads(found.group(1))
            except ValueError:
                return None
    return None


def id_in(line: bytes) -> Any:
    """The id a line that cannot be read seems to carry, or None: a client waits for it."""
    return _id_of(Oversized(len(line), line[:4096], b""))


def _line_text(line: bytes) -> str:
    return line.decode("utf-8", "replace")


_NOT_AN_OBJECT = {
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "a number",
    float: "a number",
    type(None): "null",
}


def _object_of(line: bytes, gate: Gate) -> dict[str, Any] | bytes:
    """The JSON object on ``line``, or the answer refusing the line (logged): the SDK
    drops a line that is not a JSON object unanswered, and its client would wait."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        message = f"parse error: not valid JSON: {error.msg} (column {error.colno:,})"
        return _refused_line(line, gate, id_in(line), types.PARSE_ERROR, message)
    except UnicodeDecodeError:  # a ValueError too, but not about numbers or nesting
        message = "invalid request: not valid UTF-8"
        return _refused_line(line, gate, id_in(line), types.INVALID_REQUEST, message)
    except (ValueError, RecursionError):
        # Valid JSON Python will not read (a number of thousands of digits, nesting
        # thousands deep).
        message = "invalid request: a number too long or nesting too deep to read"
        return _refused_line(line, gate, id_in(line), types.INVALID_REQUEST, message)
    if isinstance(data, dict):
        return data
    # Valid JSON holding no request has no id to answer: JSON-RPC's null.
    message = f"invalid request: a JSON-RPC message is an object, not {_NOT_AN_OBJECT[type(data)]}"
    return _refused_line(line, gate, None, types.INVALID_REQUEST, message)


def _refused_line(line: bytes, gate: Gate, request_id: Any, code: int, message: str) -> bytes:
    """The error answering ``line`` as a whole, logged with what was sent."""
    gate.record("", _line_text(line), message)
    return _error(request_id, code, message)


def _refusal(line: bytes | Oversized, gate: Gate, limit: int) -> bytes | None:
    """The answer to give ``line`` here (and log), or None to hand it to the SDK."""
    if isinstance(line, Oversized):
        message = f"request of {line.size:,} bytes, over this server's limit of {limit:,} bytes"
        gate.record("", None, message)
        return _error(_id_of(line), types.INVALID_REQUEST, message)
    data = _object_of(line, gate)
    if isinstance(data, bytes):
        return data
    if data.get("method") != "tools/call" or "id" not in data:
        return None
    request_id = data["id"]
    if not _usable_id(request_id):
        return None
    params = data.get("params")
    if not isinstance(params, dict):
        message = "tools/call params must be an object"
        gate.record("", params, message)
        return _error(request_id, types.INVALID_PARAMS, message)
    name = params.get("name")
    arguments = params.get("arguments")
    if name not in gate.tool_names:
        # Quoted whole: the message clips it once, stating its real length.
        shown = name if isinstance(name, str) else json.dumps(name, ensure_ascii=False)
        message, as_tool_error = gate.unknown(shown)
        gate.record(clip(shown), arguments, message)
        if as_tool_error:
            return _tool_error(request_id, message)
        return _error(request_id, types.INVALID_PARAMS, message)
    if arguments is not None and not isinstance(arguments, dict):
        message = "arguments must be an object"  # the argument checker's words
        gate.record(str(name), arguments, message)
        return _tool_error(request_id, message)
    return None


def _usable_id(request_id: Any) -> bool:
    return isinstance(request_id, int | str) and not isinstance(request_id, bool)


def _unparsed(line: bytes, error: Exception, gate: Gate) -> bytes | None:
    """The error answer to a JSON object the SDK cannot parse (its own reader drops those
    without an answer: a lone surrogate escape, say), or None for a notification, which
    gets no answer even when wrong."""
    data = json_or_none(line)
    if not isinstance(data, dict):
        return None
    request_id = data.get("id")
    if not _usable_id(request_id):
        if "id" not in data and isinstance(data.get("method"), str):
            return None
        message = "invalid request: not a JSON-RPC request or notification"
        return _refused_line(line, gate, None, types.INVALID_REQUEST, message)
    details = getattr(error, "errors", None)
    reason = "not a valid JSON-RPC message"
    if callable(details):
        with contextlib.suppress(Exception):  # pydantic's shape changed: the generic reason
            reason = str(details()[0]["msg"])
    message = f"invalid request: {clip(reason)}"
    if data.get("method") == "tools/call":
        params = data.get("params")
        name = params.get("name") if isinstance(params, dict) else None
        arguments = params.get("arguments") if isinstance(params, dict) else None
        if name in gate.tool_names and isinstance(arguments, dict):
            # A lone surrogate the SDK will not read, in arguments the tool refuses for
            # it: the tool's own error, as `siftui session` prints it, not the wire's.
            refused = gate.refuse(name, arguments)
            if refused is not None:
                return _tool_error(request_id, refused)
        gate.record(name if name in gate.tool_names else gate.tool_name, arguments, message)
    return _error(request_id, types.INVALID_REQUEST, message)


def claim_stdio() -> tuple[int, int]:
    """Private descriptors for the wire; fd 0 becomes /dev/null and fd 1 stderr."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    os.dup2(2, 1)
    return wire_in, wire_out


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


async def serve_stdio(
    server: Server[Any], gate: Gate, *, max_request: int = MAX_REQUEST_BYTES
) -> None:
    """Serve ``server`` on stdin/stdout until stdin ends."""
    wire_in, wire_out = claim_stdio()
    # Plain anyio streams: what Server.run reads and writes (the SDK's stream protocols).
    to_server, from_client = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_client, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    out_send, out_receive = anyio.create_memory_object_stream[bytes](64)

    async def read(out: MemoryObjectSendStream[bytes]) -> None:
        async with to_server, out:
            async for line in read_lines(wire_in, max_request):
                answer = _refusal(line, gate, max_request)
                if answer is not None:
                    await out.send(answer)
                    continue
                assert isinstance(line, bytes)
                try:
                    message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                except Exception as error:
                    answer = _unparsed(line, error, gate)
                    if answer is not None:  # a request: its id is answered, not left waiting
                        await out.send(answer)
                    else:  # the SDK deals with the rest
                        await to_server.send(error)
                    continue
                await to_server.send(SessionMessage(message))
        with anyio.move_on_after(EOF_GRACE):
            while gate.busy():
                await anyio.sleep(0.02)
        gate.shutdown()
        group.cancel_scope.cancel()

    async def forward(out: MemoryObjectSendStream[bytes]) -> None:
        async with from_server, out:
            async for session_message in from_server:
                await out.send(dump_message(session_message.message))

    async def write() -> None:
        limiter = anyio.CapacityLimiter(1)  # answers go out even when every call is busy
        async with out_receive:
            async for data in out_receive:
                await anyio.to_thread.run_sync(
                    write_all, wire_out, data, abandon_on_cancel=True, limiter=limiter
                )

    async with anyio.create_task_group() as group:
        group.start_soon(read, out_send.clone())
        group.start_soon(forward, out_send.clone())
        out_send.close()
        group.start_soon(write)
        await server.run(from_client, to_client, server.create_initialization_options())
    # server.run returned: the streams are closed; nothing else runs.
