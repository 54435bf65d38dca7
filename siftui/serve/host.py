"""The served tools without the protocol: a call in, its answer (or one-line error) out, logged.

:class:`ToolHost` holds the families served, the settings (roots, OutCap, store,
``--warn-hidden``) and the call log; :meth:`ToolHost.call` checks the arguments
against the tool's schema, runs its handler and logs the call. Usable without the
MCP SDK (siftui.serve.mcp_server wires it to the protocol).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Any

from siftui.core.arguments import ArgumentError, check_arguments, check_schema
from siftui.core.budget import check_unit
from siftui.core.findings import Inspection
from siftui.core.messages import one_line, quoted
from siftui.core.outcap import check_outcap
from siftui.serve.access import Refused, Roots, Unopenable
from siftui.serve.docstore import DocStore, Failed
from siftui.serve.edit.state import EditHost
from siftui.serve.tool_api import (
    Facts,
    LoggedRequest,
    ServedOptions,
    ServedTool,
    Session,
    Settings,
    ToolAnswer,
    ToolCall,
    ToolError,
)
from siftui.serve.tools import DEFAULT_FAMILIES, Family, selected
from siftui.serve.wire import clip
from siftui.serve.worker import Progress
from siftui.sources.errors import report_unexpected
from siftui.sources.load import LoadError
from siftui.sources.log.calllog import CallLog, LogEntry, now_iso
from siftui.sources.log.fields import DocxArgs, HiddenSummary, LaterFindings, logged_arguments

MAX_LOGGED_REQUEST = 4200
"""The log keeps what the agent asked, up to the longest path a call may name."""

SHARED_REFUSALS: tuple[type[Exception], ...] = (ToolError, ArgumentError, Unopenable, LoadError)
"""Exceptions whose message is a tool error, whatever the tool (besides Refused and Failed)."""


def _clipped(args: DocxArgs | None) -> DocxArgs | None:
    if args is None:
        return None
    return DocxArgs(
        clip(args.range, MAX_LOGGED_REQUEST),
        clip(args.anchor, MAX_LOGGED_REQUEST),
        args.window,
        clip(args.scope, MAX_LOGGED_REQUEST),
    )


def cli_line(error: Exception) -> str:
    """The line `siftui render` prints for ``error`` after "siftui: error: " (siftui.cli's
    main): a document's error with its white space collapsed, a bad option as it is, and
    control characters escaped in both, so that an option holding a newline is one line."""
    if isinstance(error, LoadError):
        return quoted(one_line(error))
    return quoted(str(error))


def _logged_as_sent(arguments: Any) -> Any:
    """What a call sent, bounded for the log; never raising, so that no value an agent
    can send costs it its answer."""
    try:
        return logged_arguments(arguments)
    except RecursionError:  # nested too deep even for repr()
        return "(nested too deeply to log)"


def _checked(entry: ServedTool, arguments: object) -> dict[str, Any]:
    """``arguments`` checked against ``entry``'s schema (eased first for a lenient tool),
    or ArgumentError."""
    given = _leniently(entry.input_schema, arguments) if entry.lenient else arguments
    return check_arguments(entry.name, entry.input_schema, given, messages=entry.messages)


def _leniently(schema: Mapping[str, Any], arguments: object) -> object:
    """``arguments`` with each optional key given as null left out, and each whole float
    given for an integer key an int (what a lenient tool takes); anything else as is."""
    if not isinstance(arguments, Mapping):
        return arguments
    properties = schema.get("properties", {})
    required = schema.get("required", ())
    eased: dict[Any, Any] = {}
    for key, value in arguments.items():
        rules = properties.get(key) if isinstance(key, str) else None
        if rules is None:
            eased[key] = value
        elif value is None and key not in required:
            continue
        elif rules.get("type") == "integer" and isinstance(value, float) and value.is_integer():
            eased[key] = int(value)
        else:
            eased[key] = value
    return eased


class ToolHost:
    """The tools of ``families`` (default: read_pdf and read_docx), their settings and log;
    ``options``: how answers are made (OutCap, unit, ``--warn-hidden``, OCR language);
    ``edit``: what the edit tools' sessions share (the reader attached, if any)."""

    def __init__(
        self,
        roots: Roots,
        options: ServedOptions | None = None,
        *,
        store: DocStore | None = None,
        log: CallLog | None = None,
        families: Iterable[str] = DEFAULT_FAMILIES,
        edit: EditHost | None = None,
    ) -> None:
        options = options if options is not None else ServedOptions()
        check_outcap(options.out_cap)
        check_unit(options.unit)
        store = store if store is not None else DocStore()
        edit = edit if edit is not None else EditHost()
        self.families: tuple[Family, ...]
        self.families, tools = selected(families)
        served = frozenset(tool.name for tool in tools)
        self.settings = Settings(
            roots,
            options.out_cap,
            store,
            options.warn_hidden,
            options.unit,
            options.ocr_language,
            edit,
            served,
        )
        for tool in tools:  # an entry outside the checker's subset fails here, not per call
            check_schema(tool.input_schema, tool.messages)
        self.tools: dict[str, ServedTool] = {tool.name: tool for tool in tools}
        self.log = log
        self.session = Session()  # stdio serves one connection: one session
        self._busy = 0
        self._busy_lock = threading.Lock()

    @property
    def store(self) -> DocStore:
        return self.settings.store

    @property
    def names(self) -> tuple[str, ...]:
        """The tools served, the main one first."""
        return tuple(self.tools)

    @property
    def instructions(self) -> str:
        return " ".join(family.instructions for family in self.families)

    def unknown_tool(self, name: str) -> tuple[str, bool]:
        """What a call of a tool not served gets: (its one line, whether it is a tool
        error rather than a protocol error); the first family that words it decides."""
        for family in self.families:
            if family.unknown_tool:
                return family.unknown_tool.format(name=clip(name)), True
        return f"unknown tool: {clip(name)}", False

    def argument_refusal(self, name: str, arguments: Any) -> str | None:
        """For a call the SDK cannot read (a lone surrogate escape in its arguments):
        the tool error its arguments get, made and logged as :meth:`call` makes it, or
        None when they pass the checker (the transport then refuses the line itself)."""
        entry = self.tools.get(name)
        if entry is None:
            return None
        try:
            _checked(entry, arguments)
        except ArgumentError:
            return self.call(arguments, tool=name).message  # refused at once, logged
        return None

    def busy(self) -> int:
        """Calls running now."""
        with self._busy_lock:
            return self._busy

    def call(
        self,
        arguments: Mapping[str, Any] | None,
        tool: str | None = None,
        session: Session | None = None,
        progress: Progress | None = None,
    ) -> ToolAnswer:
        """One call of ``tool`` (default: the main tool): never raises for anything the
        agent or the document does, and returns within the store's timeout (plus the
        rendering of a cached document). ``progress`` is told the pages extracted when
        the call extracts a PDF."""
        with self._busy_lock:
            self._busy += 1
        try:
            return self._call(
                arguments,
                tool if tool is not None else self.names[0],
                session if session is not None else self.session,
                progress,
            )
        finally:
            with self._busy_lock:
                self._busy -= 1

    def _call(
        self, arguments: Any, name: str, session: Session, progress: Progress | None
    ) -> ToolAnswer:
        start = time.monotonic()
        raw_path = arguments.get("path") if isinstance(arguments, Mapping) else None
        requested = raw_path if isinstance(raw_path, str) else ""
        facts = Facts()
        entry = self.tools.get(name)
        request = entry.logged({}) if entry is not None else LoggedRequest()
        refusals = SHARED_REFUSALS + (entry.refusals if entry is not None else ())
        try:
            if entry is None:  # the transport answers these first
                raise ToolError(self.unknown_tool(name)[0])
            checked = _checked(entry, arguments)
            entry.rules(checked)
            request = entry.logged(checked)
            deadline = start + self.store.timeout
            given = frozenset(arguments) if isinstance(arguments, Mapping) else frozenset()
            answer = entry.handler(
                ToolCall(entry, checked, self.settings, session, deadline, facts, given, progress)
            )
        except Refused as error:
            if error.real is not None:
                facts.path = str(error.real)
            answer = ToolAnswer.error(cli_line(error))
        except Failed as error:
            facts.sha256 = error.sha256
            answer = ToolAnswer.error(cli_line(error))
        except refusals as error:
            answer = ToolAnswer.error(cli_line(error))
        except Exception as error:  # a bug of ours: the agent gets one line, the server lives
            answer = ToolAnswer.error(quoted(report_unexpected(error, name)))
        logged = LogEntry(
            time=now_iso(),
            requested=clip(requested, MAX_LOGGED_REQUEST),
            path=clip(facts.path if facts.path is not None else requested, MAX_LOGGED_REQUEST),
            sha256=facts.sha256,
            pages=clip(request.pages, MAX_LOGGED_REQUEST),
            grep=clip(request.grep, MAX_LOGGED_REQUEST),
            out_cap=self.settings.out_cap,
            unit=self.settings.unit,
            duration_ms=round((time.monotonic() - start) * 1000, 3),
            rendered=answer.rendered,
            message=answer.message,
            tool=name,
            docx=_clipped(request.docx),
            unreadable=facts.unreadable,
            hidden=facts.hidden,
            warning=answer.warning,
            reader_notes=facts.reader_notes,
            session=session.number,
            process=session.process,
            arguments=_logged_as_sent({} if arguments is None else arguments),
            result=answer.result,
        )
        self._log(logged)
        if facts.later is not None and self.log is not None:
            facts.later.when_known(lambda found, why: self._log_findings(logged, found, why))
        return answer

    def _log_findings(self, call: LogEntry, inspection: Inspection | None, error: str) -> None:
        """The later line of ``call``, answered before its document's findings were known."""
        summary = HiddenSummary.of(inspection, error)
        self._log(LaterFindings(now_iso(), call.time, call.path, call.sha256, summary))

    def record(self, tool: str, arguments: Any, message: str) -> None:
        """Log a call the transport refused before it reached :meth:`call`, with what it
        sent (its arguments, or the line that was no request), bounded as
        :meth:`call` logs them."""
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
                out_cap=self.settings.out_cap,
                unit=self.settings.unit,
                duration_ms=0.0,
                rendered=None,
                message=message,
                tool=tool,
                arguments=_logged_as_sent(arguments),
            )
        )

    def shutdown(self) -> None:
        self.store.shutdown()

    def _log(self, entry: LogEntry | LaterFindings) -> None:
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
