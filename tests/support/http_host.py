"""A host served over Streamable HTTP in the test's own process, and the official MCP
client talking to it (mcp.client.streamable_http), for the host's and the bridge's tests."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, ImageContent, TextContent

from siftui.serve.access import Roots
from siftui.serve.edit.state import EditHost
from siftui.serve.evidence.script import image_line
from siftui.serve.host import ToolHost
from siftui.serve.http_host import HttpHost
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.log.calllog import CallLog


@contextmanager
def serving(
    root: Path,
    families: set[str],
    *,
    announce: bool = False,
    log: Path | None = None,
    edit: EditHost | None = None,
) -> Iterator[HttpHost]:
    """A started host of ``families`` reading under ``root`` (logging its calls to
    ``log``; ``edit``: its edit tools' shared state, drafts kept beside ``root``
    by default); stopped at the end."""
    calls = CallLog(str(log)) if log is not None else None
    if edit is None:
        edit = EditHost(drafts=DraftStore(root.parent / f"{root.name}-drafts"))
    tools = ToolHost(Roots([str(root)]), families=families, log=calls, edit=edit)
    served = HttpHost(tools, announce=announce)
    served.start()
    try:
        yield served
    finally:
        served.stop()
        tools.shutdown()
        if calls is not None:
            calls.close()


@asynccontextmanager
async def client(served: HttpHost) -> AsyncIterator[ClientSession]:
    """An initialized MCP session of the official client with the host's token."""
    headers = {"Authorization": f"Bearer {served.token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=300.0)) as http,
        streamable_http_client(served.url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def result_lines(result: CallToolResult) -> list[str]:
    """The lines `siftui session` prints for one result the client received."""
    if result.is_error:
        [block] = result.content
        assert isinstance(block, TextContent)
        return [f"error: {block.text}"]
    lines = []
    for block in result.content:
        if isinstance(block, ImageContent):
            lines.append(image_line(base64.b64decode(block.data)))
        else:
            assert isinstance(block, TextContent)
            lines.append(block.text)
    return lines
