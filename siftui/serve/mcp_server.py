"""`siftui mcp`: the read tool siftui previews, served to agents over MCP (stdio).

One tool, ``read_pdf(path, pages?, grep?)``. Its answer is :func:`siftui.render.render`
of the document with the operator's OutCap: the first text block is exactly
``Rendered.content`` (the bytes ``siftui render`` prints for the same options),
a second text block holds the note when there is one, and ``structuredContent``
carries the answer's other fields (map, first, last, grep_hits, note): the text
is sent once. Bad options and unreadable documents come
back as tool errors (``isError``) with the same one-line messages the CLI
prints; the server keeps serving.

:class:`ReadTool` holds everything but the protocol (access, limits, cache, call
log) and is usable without the SDK; :func:`serve` wires it to the official
``mcp`` Python SDK's low-level server through siftui.serve.transport (bounded
requests, wire-safe strings, exit at EOF).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from siftui import __version__
from siftui.errors import report_unexpected
from siftui.load import LoadError
from siftui.render import (
    DEFAULT_OUT_CAP,
    BadGrep,
    BadPages,
    Options,
    Rendered,
    check_options,
    render,
)
from siftui.serve.access import Refused, Roots, Unopenable
from siftui.serve.calllog import CallLog, LogEntry, now_iso
from siftui.serve.docstore import DocStore, Failed
from siftui.serve.transport import MAX_REQUEST_BYTES, Gate, serve_stdio
from siftui.serve.wire import clip

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
        "map": {"type": "boolean", "description": "True when the answer is a map of the document."},
        "first": {"type": "integer", "description": "First page shown (0 for grep answers)."},
        "last": {"type": "integer", "description": "Last page shown (0 for grep answers)."},
        "grep_hits": {"type": "integer", "description": "Matching lines in the range."},
        "note": {"type": "string", "description": "How the answer was cut and what to ask next."},
    },
    "required": ["map", "first", "last", "grep_hits", "note"],
    "additionalProperties": False,
}
"""structuredContent: the answer's fields but its text, which is sent once, as the
first text block. A client that forwards both to the model gives it the text
plus these few dozen characters, never the budget twice."""

MAX_PAGES_CHARS = 100
"""A page range is a few digits; a longer ``pages`` is refused without being echoed whole."""

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
    unknown = sorted(str(key) for key in given if key not in ARGUMENTS)
    if unknown:
        raise ArgumentError(
            f'unknown argument "{clip(unknown[0])}": read_pdf takes path, pages and grep '
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
    if len(values[1]) > MAX_PAGES_CHARS:
        raise ArgumentError(
            f'invalid pages "{clip(values[1], 40)}": use "a-b", "a" or "a-" '
            f"(at most {MAX_PAGES_CHARS} characters)"
        )
    return values[0], values[1], values[2]


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
        self._busy = 0
        self._busy_lock = threading.Lock()

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

    def busy(self) -> int:
        """Calls running now."""
        with self._busy_lock:
            return self._busy

    def call(self, arguments: Mapping[str, Any] | None) -> ToolAnswer:
        """One call: never raises for anything the agent or the document does, and
        returns within the store's timeout (plus the rendering of a cached Doc)."""
        with self._busy_lock:
            self._busy += 1
        try:
            return self._call(arguments)
        finally:
            with self._busy_lock:
                self._busy -= 1

    def _call(self, arguments: Mapping[str, Any] | None) -> ToolAnswer:
        start = time.monotonic()
        deadline = start + self.store.timeout
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
            opened = self.roots.open(requested)
            try:
                path = str(opened.real)
                loaded = self.store.get(opened, deadline)
            finally:
                opened.close()
            sha256 = loaded.sha256
            answer = ToolAnswer(render(loaded.doc, options))
        except Refused as error:
            if error.real is not None:
                path = str(error.real)
            answer = ToolAnswer(None, str(error))
        except Failed as error:
            sha256 = error.sha256
            answer = ToolAnswer(None, str(error))
        except (ArgumentError, LoadError, Unopenable, BadPages, BadGrep) as error:
            answer = ToolAnswer(None, str(error))
        except Exception as error:  # a bug of ours: the agent gets one line, the server lives
            answer = ToolAnswer(None, report_unexpected(error, "read_pdf"))
        self._log(
            LogEntry(
                time=now_iso(),
                requested=clip(requested, MAX_LOGGED_REQUEST),
                path=path if path is not None else clip(requested, MAX_LOGGED_REQUEST),
                sha256=sha256,
                pages=clip(pages, MAX_LOGGED_REQUEST),
                grep=clip(grep, MAX_LOGGED_REQUEST),
                out_cap=self.out_cap,
                duration_ms=round((time.monotonic() - start) * 1000, 3),
                rendered=answer.rendered,
                message=answer.message,
            )
        )
        return answer

    def record(self, tool: str, arguments: Any, message: str) -> None:
        """Log a call the transport refused before it reached :meth:`call`."""
        requested = ""
        if isinstance(arguments, dict) and isinstance(arguments.get("path"), str):
            requested = arguments["path"]
        self._log(
            LogEntry(
                time=now_iso(),
                requested=clip(requested, MAX_LOGGED_REQUEST),
                path=clip(requested, MAX_LOGGED_REQUEST),
                sha256=None,
                pages="",
                grep="",
                out_cap=self.out_cap,
                duration_ms=0.0,
                rendered=None,
                message=message,
                tool=tool,
            )
        )

    def shutdown(self) -> None:
        self.store.shutdown()

    def _log(self, entry: LogEntry) -> None:
        if self.log is None:
            return
        try:
            self.log.append(entry)
        except Exception as error:  # a full disk must not cost the agent its answer
            print(
                f"siftui mcp: {report_unexpected(error, 'writing the call log')}",
                file=sys.stderr,
                flush=True,
            )


MAX_LOGGED_REQUEST = 4200
"""The log keeps what the agent asked, up to the longest path a call may name."""


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
        if params.name != TOOL_NAME:  # the transport answers these first
            raise MCPError(types.INVALID_PARAMS, f"unknown tool: {clip(params.name)}")
        # Extraction and grep are blocking work; the event loop keeps serving meanwhile.
        # The call bounds itself by the timeout; this is the backstop.
        answer = None
        with anyio.move_on_after(tool.store.timeout + CALL_SLACK):
            answer = await anyio.to_thread.run_sync(
                tool.call, params.arguments, abandon_on_cancel=True
            )
        if answer is None:
            answer = ToolAnswer(
                None, f"the call took longer than {tool.store.timeout:g} s; stopped"
            )
        return to_result(answer)

    return Server(
        "siftui",
        version=__version__,
        title="siftui: read PDFs within a budget",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


CALL_SLACK = 1.0


def serve(tool: ReadTool, *, max_request: int = MAX_REQUEST_BYTES) -> NoReturn:
    """Serve ``tool`` over stdin/stdout until the client closes stdin, then end the process.

    The end is ``os._exit``: a thread still blocked (a call abandoned at EOF, a
    client that stopped reading our stdout) must not keep the server alive, and
    interpreter shutdown alone costs ~0.5 s here. Nothing is lost: the call log
    is written unbuffered, line by line, and stderr is flushed first.
    """
    server = build_server(tool)
    gate = Gate(TOOL_NAME, tool.record, tool.shutdown, tool.busy)

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
        tool.shutdown()
        if tool.log is not None:
            tool.log.close()
        sys.stderr.flush()
    os._exit(code)
