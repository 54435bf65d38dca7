"""`siftui mcp --reader [PID]`: a stdio server that forwards everything to a running reader.

For hosts that only start stdio servers (EDITING.md): the running reader is
found through its file (siftui.serve.reader_file), and every JSON-RPC message
read on stdin goes to it over Streamable HTTP through the MCP SDK's own client
transport, with the reader's token; every message it sends back (answers,
progress notifications) is written to stdout as the server's stdio transport
writes its own (siftui.serve.wire.dump_message). The reader's MCP session is
the bridge's connection: its identities are this connection's.

When the reader goes away, each call still waiting and each later call gets
the tool error ``the reader has closed`` (any other request the same line as
a JSON-RPC error); stdin's end ends the bridge.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from typing import Any, NoReturn
from urllib.parse import urlsplit

import anyio
import anyio.to_thread
import httpx2
import mcp_types as types
from anyio.streams.memory import MemoryObjectSendStream
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import SessionMessage

from siftui.serve.reader_file import ReaderAddress, alive
from siftui.serve.transport import (
    MAX_REQUEST_BYTES,
    Oversized,
    claim_stdio,
    id_in,
    read_lines,
    write_all,
)
from siftui.serve.wire import dump_message
from siftui.sources.errors import report_unexpected

CLOSED = "the reader has closed"
WATCH_SECONDS = 1.0
CONNECT_SECONDS = 1.0


def reachable(address: ReaderAddress) -> bool:
    """Whether the reader's process runs and its port takes connections."""
    if not alive(address.pid):
        return False
    parts = urlsplit(address.url)
    try:
        with socket.create_connection((parts.hostname or "", parts.port or 80), CONNECT_SECONDS):
            return True
    except OSError:
        return False


def closed_answer(request_id: Any, method: str) -> types.JSONRPCMessage:
    """What a request gets once the reader has gone: a tool error for a call, else the
    same line as a JSON-RPC error."""
    if method == "tools/call":
        result = {"content": [{"type": "text", "text": CLOSED}], "isError": True}
        return types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result)
    error = types.ErrorData(code=types.INTERNAL_ERROR, message=CLOSED)
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error)


def _refused(line: bytes | Oversized) -> types.JSONRPCMessage:
    if isinstance(line, Oversized):
        limit = MAX_REQUEST_BYTES
        message = f"request of {line.size:,} bytes, over this server's limit of {limit:,} bytes"
        request_id = id_in(line.head)
    else:
        message, request_id = "invalid request: not a JSON-RPC message", id_in(line)
    error = types.ErrorData(code=types.INVALID_REQUEST, message=message)
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error)


class _Bridge:
    def __init__(self, address: ReaderAddress, out: MemoryObjectSendStream[bytes]) -> None:
        self.address = address
        self.out = out
        self.pending: dict[Any, str] = {}  # request id: method, forwarded and not answered
        self.closed = False

    async def gone(self) -> bool:
        """Whether the reader has gone (once gone, gone for good)."""
        if not self.closed and not await anyio.to_thread.run_sync(reachable, self.address):
            self.closed = True
        return self.closed

    async def close_pending(self) -> None:
        for request_id, method in list(self.pending.items()):
            del self.pending[request_id]
            await self.out.send(dump_message(closed_answer(request_id, method)))

    async def forward(self, line: bytes | Oversized, to_reader: Any) -> None:
        try:
            if isinstance(line, Oversized):
                raise ValueError("oversized")
            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except Exception:
            await self.out.send(dump_message(_refused(line)))
            return
        if isinstance(message, types.JSONRPCRequest):
            if await self.gone():
                await self.out.send(dump_message(closed_answer(message.id, message.method)))
                return
            self.pending[message.id] = message.method
        elif self.closed:
            return
        await to_reader.send(SessionMessage(message))

    async def back(self, received: SessionMessage | Exception) -> None:
        if isinstance(received, Exception):
            return
        message = received.message
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            method = self.pending.pop(message.id, None)
            if isinstance(message, types.JSONRPCError) and method is not None and await self.gone():
                message = closed_answer(message.id, method)
        await self.out.send(dump_message(message))

    async def watch(self) -> None:
        """Answers the calls still waiting once the reader's process or port has gone."""
        while True:
            await anyio.sleep(WATCH_SECONDS)
            if not alive(self.address.pid) or (self.pending and await self.gone()):
                self.closed = True
                await self.close_pending()


async def run_bridge(address: ReaderAddress, wire_in: int, wire_out: int) -> None:
    """Forwards between the descriptors and the reader until ``wire_in`` ends."""
    out_send, out_receive = anyio.create_memory_object_stream[bytes](64)
    bridge = _Bridge(address, out_send)
    headers = {"Authorization": f"Bearer {address.token}"}
    # A save waits for a person (minutes): no read timeout on the reader's answers.
    timeout = httpx2.Timeout(30.0, read=None)

    async def write() -> None:
        limiter = anyio.CapacityLimiter(1)
        async with out_receive:
            async for data in out_receive:
                await anyio.to_thread.run_sync(write_all, wire_out, data, limiter=limiter)

    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout) as client,
        streamable_http_client(address.url, http_client=client) as (from_reader, to_reader),
        anyio.create_task_group() as group,
    ):

        async def read() -> None:
            async for line in read_lines(wire_in, MAX_REQUEST_BYTES):
                await bridge.forward(line, to_reader)
            # stdin ended: answers still on their way are not waited for.
            group.cancel_scope.cancel()

        async def receive() -> None:
            async for received in from_reader:
                await bridge.back(received)

        group.start_soon(write)
        group.start_soon(receive)
        group.start_soon(bridge.watch)
        group.start_soon(read)


def serve_bridge(address: ReaderAddress) -> NoReturn:
    """Bridges stdin/stdout to the reader at ``address`` until stdin ends, then exits."""
    wire_in, wire_out = claim_stdio()
    code = 0
    try:
        anyio.run(run_bridge, address, wire_in, wire_out)
    except KeyboardInterrupt:
        code = 130
    except BaseException as error:  # a bug of ours: one line
        print(f"siftui mcp: {report_unexpected(error, 'bridging')}", file=sys.stderr)
        code = 1
    finally:
        with contextlib.suppress(OSError):
            sys.stderr.flush()
    os._exit(code)
