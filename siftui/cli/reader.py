"""`siftui reader [FILE...] --root DIR`: the TUI as a person's PDF reader, and the host.

One process: the host serves the tool families (read, evidence and edit by default)
over MCP Streamable HTTP on 127.0.0.1 in a thread of its own (siftui.serve.http_host),
holds the working copies, and appends every call to the call log the reader
follows; the reader (siftui.tui.reader) is attached to it through a seam
(:class:`SeamLink` here: the tabs pdf_current lists, E20's jumps, E19's save
requests). The TUI never imports siftui.serve: this command joins the two.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from siftui.cli.common import Parser, UsageError, check_seconds, whole_number
from siftui.cli.server_options import (
    add_server_options,
    check_server_options,
    server_families,
    server_roots,
    server_store,
)
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE

if TYPE_CHECKING:
    from siftui.core.edit.operations import Quad
    from siftui.core.reader import Tab
    from siftui.tui.reader.copies import CopiesBackend
    from siftui.tui.reader.seam import ReaderSeam

READER_EXAMPLES = """examples:
  siftui reader --root ~/papers                      # then o opens a PDF, r shows how
                                                     # to register the reader with an agent
  siftui reader ~/papers/thesis.pdf --root ~/papers --port 8765
  claude mcp add --transport http siftui URL --header "Authorization: Bearer TOKEN"
"""

DEFAULT_TOOLS = "read,evidence,edit"
MAX_PORT = 65535


def _reader_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui reader",
        description=(
            "Read PDFs in the TUI while agents read, annotate and save them through the "
            "served tools: every change is in a draft you see, undo and approve."
        ),
        epilog=READER_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", metavar="FILE", nargs="*", help="PDFs to open in tabs")
    add_server_options(parser, log_or_hidden="add the hidden-text warning line to read_pdf answers")
    parser.add_argument(
        "--port",
        type=whole_number,
        default=0,
        help="the port on 127.0.0.1 the host listens on (default: a free one)",
    )
    parser.add_argument(
        "--approval-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="how long a save waits for your decision (default 300)",
    )
    parser.add_argument(
        "--tools",
        default=DEFAULT_TOOLS,
        help=f"the tool families served, a comma list (default {DEFAULT_TOOLS})",
    )
    parser.add_argument(
        "--log",
        metavar="FILE",
        default=None,
        help="the call log the reader shows (default: "
        "$XDG_STATE_HOME/siftui/reader-calls-PID.jsonl, kept after exit)",
    )
    return parser


def default_log_path() -> Path:
    from siftui.sources.errors import error_log_path

    return error_log_path().with_name(f"reader-calls-{os.getpid()}.jsonl")


class SeamLink:
    """The host's side of the reader (siftui.serve.edit.reader_link.ReaderLink): the
    reader's seam, its words turned into the host's."""

    def __init__(self, seam: ReaderSeam, backend: CopiesBackend) -> None:
        self.seam = seam
        self.backend = backend

    def tabs(self) -> Sequence[Tab]:
        return self.seam.tabs()

    def jump(self, tab_id: str, page: int, marks: tuple[Quad, ...] = ()) -> int:
        from siftui.serve.edit.reader_link import ReaderAway
        from siftui.tui.reader.seam import ReaderGone

        try:
            return self.seam.jump(tab_id, page, marks)
        except ReaderGone as error:
            raise ReaderAway(str(error)) from None

    def ask_save(self, path: str, revision: int, timeout: float) -> Future[bool]:
        from siftui.serve.edit.reader_link import ReaderAway
        from siftui.tui.reader.model import SaveRequest
        from siftui.tui.reader.seam import ReaderGone

        view = self.backend.view_of(path)
        changes = view.changes() if view is not None else ()
        whole = view.copy.rewrites_whole if view is not None else ""
        request = SaveRequest(Path(path), revision, changes, timeout=timeout, whole=whole)
        try:
            self.seam.ask(request)
        except ReaderGone as error:
            raise ReaderAway(str(error)) from None
        return request.decision

    def save_ended(self, path: str, outcome: str, saved: bool) -> None:
        from siftui.serve.edit.reader_link import ReaderAway
        from siftui.tui.reader.seam import ReaderGone

        try:
            self.seam.save_ended(Path(path), outcome, saved)
        except ReaderGone as error:
            raise ReaderAway(str(error)) from None


def cmd_reader(argv: Sequence[str]) -> int:
    args = _reader_parser().parse_args(argv)
    check_server_options(args)
    check_seconds("--approval-timeout", args.approval_timeout)
    if not 0 <= args.port <= MAX_PORT:  # -1 reached the socket's bind, a traceback
        raise UsageError(f"--port must be from 0 (a free one) to {MAX_PORT}, not {args.port}")
    families = server_families(args.tools, host=True)
    roots = server_roots(args)
    # The MCP SDK, the HTTP server and Textual are imported only for this command.
    from siftui.core.reader import Registration
    from siftui.serve.edit.state import EditHost
    from siftui.serve.host import ToolHost
    from siftui.serve.http_host import HostError, HttpHost
    from siftui.serve.tool_api import ServedOptions
    from siftui.sources.log.calllog import CallLog
    from siftui.tui.reader.app import ReaderApp
    from siftui.tui.reader.copies import CopiesBackend
    from siftui.tui.reader.seam import ReaderSeam

    log_path = Path(args.log) if args.log else default_log_path()
    log_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    log = CallLog(log_path)
    edit = EditHost(approval_timeout=args.approval_timeout)
    store = server_store(args, inspect_hidden=True)
    host = ToolHost(
        roots,
        ServedOptions(
            out_cap=args.outcap,
            unit=args.unit,
            warn_hidden=args.warn_hidden,
            ocr_language=args.ocr_lang or DEFAULT_OCR_LANGUAGE,
        ),
        store=store,
        log=log,
        families=families,
        edit=edit,
    )
    http = HttpHost(host, args.port, announce=True)
    try:
        http.start()
    except HostError as error:
        host.shutdown()
        log.close()
        raise OSError(str(error)) from None
    seam = ReaderSeam()
    # The passwords the person types reach the host's agents through the store's
    # worker processes, for the files and bytes they opened, while the reader runs.
    backend = CopiesBackend(
        edit.copies, Registration(http.url, http.token), log_path, store.unlocked
    )
    edit.attach(SeamLink(seam, backend))
    try:
        ReaderApp(backend, seam, [Path(path) for path in args.paths]).run()
    finally:
        edit.detach()
        store.unlocked.forget()
        http.stop()
        host.shutdown()
        log.close()
    return 0
