"""`siftui mcp`: the read tools siftui previews, served to agents over MCP (stdio).

Two tools: ``read_pdf(path, pages?, grep?)`` and, for Word documents,
``read_docx(path, range?, anchor?, window?, grep?, scope?)`` (siftui.serve.docx_tool:
:func:`siftui.core.word.render.render_docx`, ../shared/DOCX.md), both with the same roots,
OutCap, worker processes and call log. read_pdf's answer is :func:`siftui.core.render.render`
of the document with the operator's OutCap: the first text block is exactly
``Rendered.content`` (the bytes ``siftui render`` prints for the same options),
a second text block holds the note when there is one, and ``structuredContent``
carries the answer's other fields (map, first, last, grep_hits, note): the text
is sent once. With ``warn_hidden`` (``--warn-hidden``), a read_pdf answer showing
hidden text (siftui.serve.hidden_warn) gets one more line after the note, in the
second block (``warning`` in structuredContent); the first block never changes.
Bad options and unreadable documents come back as tool errors (``isError``) with
the same one-line messages the CLI prints; the server keeps serving.

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
from dataclasses import dataclass, field
from typing import Any, NoReturn

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from siftui import __version__
from siftui.core.render import (
    DEFAULT_OUT_CAP,
    BadGrep,
    BadPages,
    Options,
    Rendered,
    check_options,
    render,
)
from siftui.core.word.model import DocxDoc
from siftui.core.word.render import DEFAULT_WINDOW, BadOption, check_docx_options, render_docx
from siftui.serve.access import Refused, Roots, Unopenable
from siftui.serve.docstore import DocStore, Failed, Loaded
from siftui.serve.docx_tool import (
    DOCX_DESCRIPTION,
    DOCX_INPUT_SCHEMA,
    DOCX_OUTPUT_SCHEMA,
    DOCX_TOOL,
    DocxArgumentError,
    docx_arguments,
)
from siftui.serve.hidden_warn import hidden_warning
from siftui.serve.pdf_tool import (
    DESCRIPTION,
    INPUT_SCHEMA,
    OUTPUT_SCHEMA,
    TOOL_NAME,
    ArgumentError,
    pdf_arguments,
)
from siftui.serve.transport import MAX_REQUEST_BYTES, Gate, serve_stdio
from siftui.serve.wire import clip
from siftui.sources.errors import report_unexpected
from siftui.sources.load import LoadError
from siftui.sources.log.calllog import CallLog, LogEntry, now_iso
from siftui.sources.log.fields import DocxArgs, HiddenSummary, docx_options
from siftui.sources.word.kind import DOCX_SUFFIXES

INSTRUCTIONS = (
    "siftui serves two tools that read documents as text within a fixed budget: read_pdf "
    "(PDF, EPUB, XPS, ...) and read_docx (Word). Start without options to get the text or a "
    "map, then follow the page numbers or anchors, the outline and the notes with pages= "
    "(range= or anchor= for Word) or grep=."
)
TOOLS = (TOOL_NAME, DOCX_TOOL)


@dataclass(frozen=True)
class ToolAnswer:
    """What one call returns: an answer, or the one-line error the agent sees."""

    rendered: Rendered | None
    message: str = ""
    warning: str = ""  # the --warn-hidden line, after the note


@dataclass
class _Call:
    """What one call asked and got so far: the log's fields, filled in as they are known."""

    requested: str = ""
    path: str | None = None
    pages: str = ""
    grep: str = ""
    docx: DocxArgs = field(default_factory=DocxArgs)
    sha256: str | None = None
    loaded: Loaded | None = None


def _hidden(loaded: Loaded) -> HiddenSummary | None:
    """The log's findings of a PDF served (None for a Doc JSON: nothing to inspect)."""
    if loaded.inspection is None and not loaded.inspect_error:
        return None
    return HiddenSummary.of(loaded.inspection, loaded.inspect_error)


def _clipped(args: DocxArgs) -> DocxArgs:
    return DocxArgs(
        clip(args.range, MAX_LOGGED_REQUEST),
        clip(args.anchor, MAX_LOGGED_REQUEST),
        args.window,
        clip(args.scope, MAX_LOGGED_REQUEST),
    )


class ReadTool:
    """read_pdf and read_docx without the protocol: arguments in, answer (or error) out, logged."""

    def __init__(
        self,
        roots: Roots,
        *,
        out_cap: int = DEFAULT_OUT_CAP,
        store: DocStore | None = None,
        log: CallLog | None = None,
        warn_hidden: bool = False,
    ) -> None:
        if out_cap < 1:
            raise ValueError(f"out_cap must be >= 1, not {out_cap}")
        self.roots = roots
        self.out_cap = out_cap
        self.store = store if store is not None else DocStore()
        self.log = log
        self.warn_hidden = warn_hidden
        self._busy = 0
        self._busy_lock = threading.Lock()

    def _format(self, template: str) -> str:
        return template.format(
            out_cap=self.out_cap,
            roots=self.roots.describe(),
            first_root=self.roots.dirs[0],
            window=DEFAULT_WINDOW,
        )

    def description(self, tool: str = TOOL_NAME) -> str:
        return self._format(DOCX_DESCRIPTION if tool == DOCX_TOOL else DESCRIPTION)

    def definition(self, tool: str = TOOL_NAME) -> types.Tool:
        title = "Read a Word document" if tool == DOCX_TOOL else "Read a PDF"
        return types.Tool(
            name=tool,
            title=title,
            description=self.description(tool),
            input_schema=DOCX_INPUT_SCHEMA if tool == DOCX_TOOL else INPUT_SCHEMA,
            output_schema=DOCX_OUTPUT_SCHEMA if tool == DOCX_TOOL else OUTPUT_SCHEMA,
            annotations=types.ToolAnnotations(
                title=title,
                read_only_hint=True,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        )

    def definitions(self) -> list[types.Tool]:
        return [self.definition(tool) for tool in TOOLS]

    def busy(self) -> int:
        """Calls running now."""
        with self._busy_lock:
            return self._busy

    def call(self, arguments: Mapping[str, Any] | None, tool: str = TOOL_NAME) -> ToolAnswer:
        """One call: never raises for anything the agent or the document does, and
        returns within the store's timeout (plus the rendering of a cached document)."""
        with self._busy_lock:
            self._busy += 1
        try:
            return self._call(arguments, tool)
        finally:
            with self._busy_lock:
                self._busy -= 1

    def _answer(
        self, tool: str, arguments: Mapping[str, Any] | None, deadline: float, call: _Call
    ) -> ToolAnswer:
        """The answer to one call; records in ``call`` what the log needs as it goes."""
        raw_path = (arguments or {}).get("path")
        call.requested = raw_path if isinstance(raw_path, str) else ""
        if tool == DOCX_TOOL:
            call.requested, call.grep, call.docx = docx_arguments(arguments)
            wanted = docx_options(call.docx, call.grep, self.out_cap)
            call.path = str(self.roots.resolve(call.requested))
            check_docx_options(wanted)
        else:
            call.requested, call.pages, call.grep = pdf_arguments(arguments)
            options = Options(pages=call.pages, grep=call.grep, out_cap=self.out_cap)
            real = self.roots.resolve(call.requested)
            call.path = str(real)
            if real.suffix.lower() in DOCX_SUFFIXES:
                raise ArgumentError(f"{clip(call.path)}: a Word document; read it with read_docx")
            check_options(options)
        opened = self.roots.open(call.requested)
        try:
            call.path = str(opened.real)
            loaded = self.store.get(opened, deadline, "docx" if tool == DOCX_TOOL else "pdf")
        finally:
            opened.close()
        call.loaded = loaded
        if isinstance(loaded.doc, DocxDoc):
            return ToolAnswer(render_docx(loaded.doc, wanted))
        rendered = render(loaded.doc, options)
        warning = ""
        if self.warn_hidden:
            warning = hidden_warning(rendered, bool(call.grep), loaded.inspection)
        return ToolAnswer(rendered, warning=warning)

    def _call(self, arguments: Mapping[str, Any] | None, tool: str) -> ToolAnswer:
        start = time.monotonic()
        deadline = start + self.store.timeout
        call = _Call()
        try:
            answer = self._answer(tool, arguments, deadline, call)
        except Refused as error:
            if error.real is not None:
                call.path = str(error.real)
            answer = ToolAnswer(None, str(error))
        except Failed as error:
            call.sha256 = error.sha256
            answer = ToolAnswer(None, str(error))
        except (
            ArgumentError,
            DocxArgumentError,
            LoadError,
            Unopenable,
            BadPages,
            BadGrep,
            BadOption,
        ) as error:
            answer = ToolAnswer(None, str(error))
        except Exception as error:  # a bug of ours: the agent gets one line, the server lives
            answer = ToolAnswer(None, report_unexpected(error, tool))
        loaded = call.loaded
        pdf = loaded is not None and not isinstance(loaded.doc, DocxDoc)
        self._log(
            LogEntry(
                time=now_iso(),
                requested=clip(call.requested, MAX_LOGGED_REQUEST),
                path=clip(
                    call.path if call.path is not None else call.requested, MAX_LOGGED_REQUEST
                ),
                sha256=loaded.sha256 if loaded is not None else call.sha256,
                pages=clip(call.pages, MAX_LOGGED_REQUEST),
                grep=clip(call.grep, MAX_LOGGED_REQUEST),
                out_cap=self.out_cap,
                duration_ms=round((time.monotonic() - start) * 1000, 3),
                rendered=answer.rendered,
                message=answer.message,
                tool=tool,
                docx=_clipped(call.docx) if tool == DOCX_TOOL else None,
                unreadable=loaded.unreadable if pdf and loaded is not None else None,
                hidden=_hidden(loaded) if pdf and loaded is not None else None,
                warning=answer.warning,
                reader_notes=(
                    loaded.doc.notes
                    if loaded is not None and isinstance(loaded.doc, DocxDoc)
                    else ()
                ),
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
    after = "\n".join(part for part in (rendered.note, answer.warning) if part)
    if after:
        blocks.append(types.TextContent(text=after))
    structured: dict[str, Any] = {
        "map": rendered.map,
        "first": rendered.first,
        "last": rendered.last,
        "grep_hits": rendered.grep_hits,
        "note": rendered.note,
    }
    if answer.warning:
        structured["warning"] = answer.warning
    return types.CallToolResult(content=list(blocks), structured_content=structured)


def build_server(tool: ReadTool) -> Server[Any]:
    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool.definitions())

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in TOOLS:  # the transport answers these first
            raise MCPError(types.INVALID_PARAMS, f"unknown tool: {clip(params.name)}")
        # Extraction and grep are blocking work; the event loop keeps serving meanwhile.
        # The call bounds itself by the timeout; this is the backstop.
        answer = None
        with anyio.move_on_after(tool.store.timeout + CALL_SLACK):
            answer = await anyio.to_thread.run_sync(
                tool.call, params.arguments, params.name, abandon_on_cancel=True
            )
        if answer is None:
            answer = ToolAnswer(
                None, f"the call took longer than {tool.store.timeout:g} s; stopped"
            )
        return to_result(answer)

    return Server(
        "siftui",
        version=__version__,
        title="siftui: read PDFs and Word documents within a budget",
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
    gate = Gate(TOOLS, tool.record, tool.shutdown, tool.busy)

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
