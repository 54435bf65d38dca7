"""`siftui mcp`: the read tool siftui previews, served to agents over MCP (stdio).

One tool, ``read_pdf(path, pages?, grep?)``. Its answer is :func:`siftui.render.render`
of the document with the operator's OutCap: the first text block is exactly
``Rendered.content`` (the bytes ``siftui render`` prints for the same options),
a second text block holds the note when there is one, and ``structuredContent``
carries every field of the answer. Bad options and unreadable documents come
back as tool errors (``isError``) with the same one-line messages the CLI
prints; the server keeps serving.

:class:`ReadTool` holds everything but the protocol (access, limits, cache, call
log) and is usable without the SDK; :func:`serve` wires it to the official
``mcp`` Python SDK's low-level server.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from siftui import __version__
from siftui.load import LoadError
from siftui.messages import quoted
from siftui.output import encode_utf8
from siftui.render import (
    DEFAULT_OUT_CAP,
    BadGrep,
    BadPages,
    Options,
    Rendered,
    check_options,
    render,
)
from siftui.serve.access import Refused, Roots
from siftui.serve.calllog import CallLog, LogEntry, now_iso
from siftui.serve.docstore import DocStore

TOOL_NAME = "read_pdf"
ARGUMENTS = ("path", "pages", "grep")

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": "The file to read: absolute, or relative to the first allowed root.",
        },
        "pages": {
            "type": "string",
            "description": 'A page range: "a-b", "a" (one page) or "a-" (to the end). '
            "Omit for the whole document or its map.",
        },
        "grep": {
            "type": "string",
            "description": "An RE2 regular expression searched line by line; case-insensitive "
            "unless it holds an upper-case letter. Combine with pages to search a range.",
        },
    },
    "required": ["path"],
    "additionalProperties": False,
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "content": {"type": "string", "description": "The answer's text (the first block)."},
        "map": {"type": "boolean", "description": "True when the answer is a map of the document."},
        "first": {"type": "integer", "description": "First page shown (0 for grep answers)."},
        "last": {"type": "integer", "description": "Last page shown (0 for grep answers)."},
        "grep_hits": {"type": "integer", "description": "Matching lines in the range."},
        "note": {"type": "string", "description": "How the answer was cut and what to ask next."},
    },
    "required": ["content", "map", "first", "last", "grep_hits", "note"],
    "additionalProperties": False,
}

DESCRIPTION = """\
Read a PDF (or EPUB, XPS, ... or a siftui Doc JSON) as plain text with "--- page N ---" markers.

Every answer is bounded: at most {out_cap:,} characters, a limit set by the server, not by you.
- No pages, no grep: the whole text if it fits; otherwise a map (title, page count, outline \
with page numbers, the first pages) and you ask for more.
- pages="a-b" (or "a", or "a-" to the end): whole pages from page a, as many as fit.
- grep="pattern": matching lines as "p. N: line" with one line of context ("p. N- ..."); RE2 \
syntax, case-insensitive unless the pattern has an upper-case letter; add pages to search \
only a range.
When an answer is cut, a second text block says how and names the exact next call \
(for example: cut at page 15; ask for pages="16-40").
Readable files lie under: {roots}. Relative paths are taken from {first_root}."""

INSTRUCTIONS = (
    "siftui serves one tool, read_pdf, that reads documents as text within a fixed budget. "
    "Start without options to get the text or a map, then follow the page numbers, the "
    "outline and the notes with pages= or grep=."
)


@dataclass(frozen=True)
class ToolAnswer:
    """What one call returns: an answer, or the one-line error the agent sees."""

    rendered: Rendered | None
    message: str = ""


class ArgumentError(ValueError):
    pass


def _arguments(arguments: Mapping[str, Any] | None) -> tuple[str, str, str]:
    given = dict(arguments or {})
    unknown = sorted(key for key in given if key not in ARGUMENTS)
    if unknown:
        raise ArgumentError(
            f'unknown argument "{quoted(unknown[0])}": read_pdf takes path, pages and grep '
            "(the budget is set by the server)"
        )
    if "path" not in given:
        raise ArgumentError('argument "path" is required')
    values = []
    for name in ARGUMENTS:
        value = given.get(name)
        if value is None and name != "path":
            value = ""
        if not isinstance(value, str):
            raise ArgumentError(f'argument "{name}" must be a string')
        values.append(value)
    return values[0], values[1], values[2]


def _wire_safe(answer: Rendered) -> Rendered:
    """The answer as the CLI prints it: a lone surrogate (from a broken PDF) becomes
    U+FFFD, one code point for one, so the bytes are the CLI's and valid UTF-8."""

    def fix(text: str) -> str:
        return encode_utf8(text).decode("utf-8")

    return Rendered(
        content=fix(answer.content),
        map=answer.map,
        first=answer.first,
        last=answer.last,
        grep_hits=answer.grep_hits,
        note=fix(answer.note),
    )


class ReadTool:
    """read_pdf without the protocol: arguments in, answer (or error) out, logged."""

    def __init__(
        self,
        roots: Roots,
        *,
        out_cap: int = DEFAULT_OUT_CAP,
        store: DocStore | None = None,
        log: CallLog | None = None,
    ) -> None:
        if out_cap < 1:
            raise ValueError(f"out_cap must be >= 1, not {out_cap}")
        self.roots = roots
        self.out_cap = out_cap
        self.store = store if store is not None else DocStore()
        self.log = log

    def description(self) -> str:
        return DESCRIPTION.format(
            out_cap=self.out_cap,
            roots=self.roots.describe(),
            first_root=self.roots.dirs[0],
        )

    def definition(self) -> types.Tool:
        return types.Tool(
            name=TOOL_NAME,
            title="Read a PDF",
            description=self.description(),
            input_schema=INPUT_SCHEMA,
            output_schema=OUTPUT_SCHEMA,
            annotations=types.ToolAnnotations(
                title="Read a PDF",
                read_only_hint=True,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        )

    def call(self, arguments: Mapping[str, Any] | None) -> ToolAnswer:
        """One call: never raises for anything the agent or the document does."""
        start = time.monotonic()
        requested, pages, grep = "", "", ""
        path: str | None = None
        sha256: str | None = None
        try:
            raw_path = (arguments or {}).get("path")
            requested = raw_path if isinstance(raw_path, str) else ""
            requested, pages, grep = _arguments(arguments)
            options = Options(pages=pages, grep=grep, out_cap=self.out_cap)
            real = self.roots.resolve(requested)
            path = str(real)
            check_options(options)
            loaded = self.store.get(real)
            sha256 = loaded.sha256
            answer = ToolAnswer(_wire_safe(render(loaded.doc, options)))
        except Refused as error:
            if error.real is not None:
                path = str(error.real)
            answer = ToolAnswer(None, str(error))
        except (ArgumentError, LoadError, BadPages, BadGrep) as error:
            answer = ToolAnswer(None, str(error))
        except Exception as error:  # a bug of ours: the agent gets one line, the server lives
            reason = " ".join(str(error).split()) or type(error).__name__
            answer = ToolAnswer(None, f"internal error: {type(error).__name__}: {reason}")
        if self.log is not None:
            self._log(
                LogEntry(
                    time=now_iso(),
                    requested=requested,
                    path=path if path is not None else requested,
                    sha256=sha256,
                    pages=pages,
                    grep=grep,
                    out_cap=self.out_cap,
                    duration_ms=round((time.monotonic() - start) * 1000, 3),
                    rendered=answer.rendered,
                    message=answer.message,
                )
            )
        return answer

    def _log(self, entry: LogEntry) -> None:
        assert self.log is not None
        try:
            self.log.append(entry)
        except (OSError, ValueError) as error:  # a full disk must not cost the agent its answer
            print(f"siftui mcp: cannot write the call log: {error}", file=sys.stderr, flush=True)


def to_result(answer: ToolAnswer) -> types.CallToolResult:
    if answer.rendered is None:
        return types.CallToolResult(
            content=[types.TextContent(text=answer.message)],
            is_error=True,
        )
    rendered = answer.rendered
    blocks = [types.TextContent(text=rendered.content)]
    if rendered.note:
        blocks.append(types.TextContent(text=rendered.note))
    return types.CallToolResult(
        content=list(blocks),
        structured_content={
            "content": rendered.content,
            "map": rendered.map,
            "first": rendered.first,
            "last": rendered.last,
            "grep_hits": rendered.grep_hits,
            "note": rendered.note,
        },
    )


def build_server(tool: ReadTool) -> Server[Any]:
    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.definition()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name != TOOL_NAME:
            raise MCPError(types.INVALID_PARAMS, f"unknown tool: {quoted(params.name)}")
        # Extraction and grep are blocking work; the event loop keeps serving meanwhile.
        answer = await anyio.to_thread.run_sync(tool.call, params.arguments)
        return to_result(answer)

    return Server(
        "siftui",
        version=__version__,
        title="siftui: read PDFs within a budget",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def serve(tool: ReadTool) -> int:
    """Serve ``tool`` over stdin/stdout until the client closes the connection."""
    server = build_server(tool)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)
    return 0
