"""`siftui mcp`: the tools of siftui.serve.tools, served to agents over MCP (stdio).

The families served (``--tools``; default "read": ``read_pdf(path, pages?, grep?)``
and, for Word documents, ``read_docx(path, range?, anchor?, window?, grep?,
scope?)``) share the roots, OutCap, worker processes and call log
(siftui.serve.host). A read answer's first text block is exactly the content
``siftui render`` prints for the same options, a second text block holds the
note (and the ``--warn-hidden`` line) when there is one, and
``structuredContent`` carries the answer's other fields: the text is sent once.
Bad arguments and unreadable documents come back as tool errors (``isError``)
with one-line messages; the server keeps serving.

:func:`serve` wires a :class:`siftui.serve.host.ToolHost` to the official
``mcp`` Python SDK's low-level server through siftui.serve.transport (bounded
requests, wire-safe strings, exit at EOF).
"""

from __future__ import annotations

import base64
import contextlib
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from siftui import __version__
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import ServedTool, Session, TextBlock, ToolAnswer
from siftui.serve.transport import MAX_REQUEST_BYTES, Gate, serve_stdio
from siftui.serve.wire import clip
from siftui.serve.worker import Progress
from siftui.sources.errors import report_unexpected

CALL_SLACK = 1.0
"""Seconds past the store's timeout after which a call is answered as stopped."""


def definition(host: ToolHost, tool: ServedTool) -> types.Tool:
    """The tool as tools/list publishes it."""
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.describe(host.settings),
        input_schema=dict(tool.input_schema),
        output_schema=dict(tool.output_schema) if tool.output_schema is not None else None,
        annotations=types.ToolAnnotations(
            title=tool.title,
            read_only_hint=tool.read_only,
            idempotent_hint=tool.idempotent,
            open_world_hint=False,
        ),
    )


def to_result(answer: ToolAnswer) -> types.CallToolResult:
    if answer.is_error:
        return types.CallToolResult(
            content=[types.TextContent(text=answer.message)],
            is_error=True,
        )
    content: list[types.TextContent | types.ImageContent] = [
        types.TextContent(text=block.text)
        if isinstance(block, TextBlock)
        else types.ImageContent(
            data=base64.b64encode(block.data).decode("ascii"), mime_type=block.mime_type
        )
        for block in answer.blocks
    ]
    structured = dict(answer.structured) if answer.structured is not None else None
    return types.CallToolResult(content=list(content), structured_content=structured)


def progress_of(ctx: Any) -> Progress | None:
    """What tells the client the pages extracted, as MCP progress notifications, when its
    request carries a progress token (None when it does not). Called from the call's
    thread; a notification that cannot be sent costs nothing but itself."""
    meta = getattr(ctx, "meta", None)
    if (
        not isinstance(meta, Mapping)
        or meta.get("progress_token", meta.get("progressToken")) is None
    ):
        return None
    session = ctx.session

    def told(done: int, total: int, message: str = "") -> None:
        message = message or f"extracting: {done:,} of {total:,} pages"
        with contextlib.suppress(Exception):  # the client went away: the call goes on
            anyio.from_thread.run(session.report_progress, float(done), float(total), message)

    return told


def _no_session(ctx: Any) -> Session | None:
    return None


def build_server(
    host: ToolHost, session_of: Callable[[Any], Session | None] = _no_session
) -> Server[Any]:
    """The MCP server of ``host``'s tools; ``session_of`` tells a request's session from
    its context (None: the host's one session, as over stdio)."""

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[definition(host, tool) for tool in host.tools.values()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in host.tools:  # over stdio, the transport answers these first
            message, as_tool_error = host.unknown_tool(params.name)
            host.record(clip(params.name), params.arguments, message)
            if as_tool_error:
                return to_result(ToolAnswer.error(message))
            raise MCPError(types.INVALID_PARAMS, message)
        # Extraction and grep are blocking work; the event loop keeps serving meanwhile.
        # The call bounds itself by the timeout; this is the backstop.
        answer = None
        limit = host.tools[params.name].limit(host.settings)
        with anyio.move_on_after(limit + CALL_SLACK):
            answer = await anyio.to_thread.run_sync(
                host.call,
                params.arguments,
                params.name,
                session_of(ctx),
                progress_of(ctx),
                abandon_on_cancel=True,
            )
        if answer is None:
            answer = ToolAnswer.error(f"the call took longer than {limit:g} s; stopped")
        return to_result(answer)

    return Server(
        "siftui",
        version=__version__,
        title="siftui: read PDFs and Word documents within a budget",
        instructions=host.instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def serve(host: ToolHost, *, max_request: int = MAX_REQUEST_BYTES) -> NoReturn:
    """Serve ``host``'s tools over stdin/stdout until the client closes stdin, then exit.

    The end is ``os._exit``: a thread still blocked (a call abandoned at EOF, a
    client that stopped reading our stdout) must not keep the server alive, and
    interpreter shutdown alone costs ~0.5 s here. Nothing is lost: the call log
    is written unbuffered, line by line, and stderr is flushed first.
    """
    server = build_server(host)
    gate = Gate(
        host.names,
        host.record,
        host.shutdown,
        host.busy,
        host.unknown_tool,
        host.argument_refusal,
    )

    async def run() -> None:
        await serve_stdio(server, gate, max_request=max_request)

    code = 0
    try:
        anyio.run(run)
    except KeyboardInterrupt:
        code = 130
    except BaseException as error:  # a bug of ours: one line, and still no orphan
        print(f"siftui mcp: {report_unexpected(error, 'serving')}", file=sys.stderr)
        code = 1
    finally:
        host.shutdown()
        if host.log is not None:
            host.log.close()
        sys.stderr.flush()
    os._exit(code)
