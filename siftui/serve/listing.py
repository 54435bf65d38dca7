"""The exact ``tools/list`` result a server sends, for ``siftui tools`` to print.

Nothing is rebuilt by hand: the host's own MCP server (siftui.serve.mcp_server)
answers an ``initialize`` with the protocol version the official client asks for,
then a ``tools/list``, over in-memory streams as the stdio transport wires them,
and the answer is serialized by the transport's own writer
(:func:`siftui.serve.wire.dump_message`). The bytes returned are the ``result``
member of that JSON-RPC line, as they go over the wire.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage
from mcp_types.version import LATEST_HANDSHAKE_VERSION

from siftui import __version__
from siftui.serve.host import ToolHost
from siftui.serve.mcp_server import build_server
from siftui.serve.wire import dump_message

__all__ = ["PROTOCOL_VERSION", "listed_tools"]

PROTOCOL_VERSION = LATEST_HANDSHAKE_VERSION
"""The protocol version the official MCP client sends at initialize."""

_LIST_ID = 2
_TIMEOUT = 30.0


def listed_tools(host: ToolHost) -> bytes:
    """The ``tools/list`` result ``host`` sends, as UTF-8 JSON bytes (no newline)."""
    line = anyio.run(_exchange, host)
    head = b'{"jsonrpc":"2.0","id":%d,"result":' % _LIST_ID
    if not (line.startswith(head) and line.endswith(b"}\n")):
        raise RuntimeError(f"tools/list was not answered with a result: {line[:200]!r}")
    return line[len(head) : -2]


async def _exchange(host: ToolHost) -> bytes:
    server = build_server(host)
    to_server, from_client = anyio.create_memory_object_stream[SessionMessage | Exception](4)
    to_client, from_server = anyio.create_memory_object_stream[SessionMessage](4)

    async def send(message: dict[str, Any]) -> None:
        parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
        await to_server.send(SessionMessage(parsed))

    async def answer_to(request_id: int) -> SessionMessage:
        async for received in from_server:
            if getattr(received.message, "id", None) == request_id:
                return received
        raise RuntimeError("the server closed before it answered")

    with anyio.fail_after(_TIMEOUT):
        async with anyio.create_task_group() as group:
            group.start_soon(
                server.run, from_client, to_client, server.create_initialization_options()
            )
            await send(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": PROTOCOL_VERSION,
                        "capabilities": {},
                        "clientInfo": {"name": "siftui tools", "version": __version__},
                    },
                }
            )
            await answer_to(1)
            await send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            await send({"jsonrpc": "2.0", "id": _LIST_ID, "method": "tools/list", "params": {}})
            listed = await answer_to(_LIST_ID)
            group.cancel_scope.cancel()
    return dump_message(listed.message)
