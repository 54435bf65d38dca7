"""`siftui mcp` (serve the read tool to agents) and `siftui log` (read what they did)."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from siftui.cli.common import Parser, UsageError, whole_number, write_stdout
from siftui.cli.server_options import (
    add_server_options,
    check_server_options,
    server_families,
    server_roots,
    server_store,
)
from siftui.core.evidence.store import SESSION_BOUNDS
from siftui.core.messages import encode_utf8, quoted
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.core.render import (
    DEFAULT_OUT_CAP,
)
from siftui.sources.load import LoadError

if TYPE_CHECKING:
    from siftui.sources.log.calllog import LogEntry

LOG_EXAMPLES = """examples:
  siftui log calls.jsonl            # the calls an agent made through `siftui mcp --log calls.jsonl`
  siftui log calls.jsonl --report   # how it used the tool: pages read, loops, errors, notes
  siftui log calls.jsonl --report --json
  siftui log calls.jsonl --rerun    # each evidence session re-run: the same bytes or not
"""

MAX_SKIPPED_SHOWN = 10
RERUN_DIFFERS = 5


def _log_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui log",
        description=(
            "Open an MCP call log in the TUI: every call the agent made, exactly what it "
            "received, and the same call re-run at another OutCap."
        ),
        epilog=LOG_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("path", metavar="FILE", help="a JSON Lines log written by siftui mcp --log")
    parser.add_argument(
        "--report",
        action="store_true",
        help="print how the agent used the tool (pages read and never read, re-reads, loops, "
        "errors, greps without matches, notes followed or not) instead of opening the TUI",
    )
    parser.add_argument("--json", action="store_true", help="with --report: print it as JSON")
    parser.add_argument(
        "--rerun",
        action="store_true",
        help="re-run each evidence session's calls in a fresh session (when its files are "
        "unchanged) and print one line per session: the same bytes the agent received, or "
        f"the first call that differs (exit {RERUN_DIFFERS} when any session differs or "
        "cannot be re-run)",
    )
    parser.add_argument(
        "--follow",
        action="store_true",
        help="keep reading the log as `siftui mcp --log FILE` appends calls (F in the replay)",
    )
    return parser


def cmd_log(argv: Sequence[str]) -> int:
    args = _log_parser().parse_args(argv)
    if args.json and not args.report:
        raise UsageError("--json needs --report")
    from siftui.sources.lines import NotLines, open_regular
    from siftui.sources.log.calllog import LogError
    from siftui.sources.log.follow import LogTail
    from siftui.sources.log.reading import read_log_skipping

    if args.follow and args.report:
        raise UsageError("--follow is for the replay, not --report")
    if args.rerun and (args.report or args.follow):
        raise UsageError("--rerun prints its verdicts alone: not with --report or --follow")
    tail: LogTail | None = None
    if args.follow:  # a tail: complete lines only, a torn last one waited for
        if os.path.lexists(args.path):  # else made at the server's first call: as tail -F
            try:
                open_regular(args.path).close()
            except NotLines as error:
                raise LoadError(str(error)) from None
        tail = LogTail(args.path)
        entries, skipped = tail.read()
    else:
        try:
            entries, skipped = read_log_skipping(args.path)
        except LogError as error:
            raise LoadError(str(error)) from None
    if not entries and not args.follow:
        if skipped:  # nothing but bad lines: the first one says why, in one line
            more = f" (and {len(skipped) - 1:,} more bad lines)" if len(skipped) > 1 else ""
            raise LoadError(f"{skipped[0]}{more}; the log holds no calls")
        raise LoadError(f"{quoted(args.path)}: the log holds no calls")
    # A torn line (a full disk) costs that line, not the log: say which were skipped.
    for problem in skipped[:MAX_SKIPPED_SHOWN]:
        print(f"siftui: warning: {quoted(problem)} (skipped)", file=sys.stderr)
    if len(skipped) > MAX_SKIPPED_SHOWN:
        print(
            f"siftui: warning: {len(skipped) - MAX_SKIPPED_SHOWN} more lines skipped",
            file=sys.stderr,
        )
    if args.rerun:
        return _rerun(entries)
    if args.report:
        from siftui.sources.log.report_run import print_report

        return print_report(entries, as_json=args.json, write=write_stdout)
    from siftui.cli.evidence_preview import rerun_factory
    from siftui.tui.launch import run_log_tui  # Textual is only imported for the TUI

    if tail is None:
        tail = LogTail.at_end(args.path)  # for F: from the end of what was read
    return run_log_tui(entries, tail, follow=args.follow, rerun=rerun_factory)


def _rerun(entries: list[LogEntry]) -> int:
    from siftui.cli.evidence_preview import rerun_factory
    from siftui.sources.log.rerun import rerun_session, sessions, shown_process

    found = sessions(entries)
    if not found:
        write_stdout(b"no evidence session in the log: nothing to re-run\n")
        return 0
    same = True
    for key, calls in found.items():
        verdict = rerun_session(key[1], calls, rerun_factory, shown_process(key, found))
        same = same and verdict.same
        write_stdout(encode_utf8(verdict.line() + "\n"))
    return 0 if same else RERUN_DIFFERS


MCP_EXAMPLES = f"""examples:
  siftui mcp --root ~/papers          # read_pdf, read_docx over stdio, OutCap {DEFAULT_OUT_CAP:,}
  siftui mcp --root ~/papers --root /srv/theses --outcap 20000 --log calls.jsonl
  siftui mcp --root ~/inbox --warn-hidden   # say when an answer holds invisible text
  siftui mcp --root ~/papers --tools evidence    # pdf_open, pdf_page_read, ... instead
  siftui mcp --reader                 # forward to the running siftui reader (all its tools)

Register it with an MCP client (Claude Desktop, Claude Code) as the command
"siftui" with these arguments; replay a log with: siftui log calls.jsonl

{textwrap.fill(SESSION_BOUNDS, 79)}
"""


def _mcp_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui mcp",
        description=(
            "Serve the read tools siftui previews (read_pdf: path, pages, grep; read_docx: "
            "path, range, anchor, window, grep, scope), or the evidence tools "
            "(--tools evidence), to an agent over the Model Context Protocol on stdin/stdout. "
            "Only files under the roots are readable; every answer is bounded by the OutCap, "
            "which is yours, not the agent's."
        ),
        epilog=MCP_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_server_options(
        parser,
        log_or_hidden="after the note, add one warning line when a PDF answer shows text that "
        "is invisible on the page (pdf_page_read: a hidden_text warning per page; with --log, "
        "the log records the findings either way; without either, no PDF is inspected)",
    )
    parser.add_argument(
        "--log", default=None, metavar="FILE", help="append every call as JSON Lines"
    )
    parser.add_argument(
        "--tools",
        default="read",
        metavar="FAMILIES",
        help="the tool families to serve, a comma list: read (read_pdf, read_docx), "
        "evidence (pdf_info, pdf_open, ..., the eleven evidence tools); default read",
    )
    return parser


def _bridge_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui mcp --reader",
        description=(
            "Forward MCP over stdin/stdout to the running siftui reader (the only one, or "
            "the one with PID), for agent hosts that start stdio servers only: every "
            "request, answer and progress notification passes unchanged."
        ),
    )
    parser.add_argument(
        "--reader",
        nargs="?",
        type=whole_number,
        const=-1,
        required=True,
        metavar="PID",
        help="the reader's process id (needed when several readers run)",
    )
    return parser


def cmd_bridge(argv: Sequence[str]) -> int:
    args = _bridge_parser().parse_args(argv)
    from siftui.serve.reader_file import ReaderNotFound, find_reader

    try:
        address = find_reader(None if args.reader == -1 else args.reader)
    except ReaderNotFound as error:
        print(error, file=sys.stderr)
        return 1
    from siftui.serve.bridge import serve_bridge

    return serve_bridge(address)


def cmd_mcp(argv: Sequence[str]) -> int:
    if any(arg == "--reader" or arg.startswith("--reader=") for arg in argv):
        return cmd_bridge(argv)
    args = _mcp_parser().parse_args(argv)
    check_server_options(args)
    families = server_families(args.tools, host=False)
    roots = server_roots(args)
    # The MCP SDK is imported only for this command.
    from siftui.serve.host import ToolHost
    from siftui.serve.mcp_server import serve
    from siftui.serve.tool_api import ServedOptions
    from siftui.sources.log.calllog import CallLog

    log = CallLog(args.log) if args.log else None
    store = server_store(args, inspect_hidden=args.warn_hidden or log is not None)
    try:
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
        )
        return serve(host)
    finally:
        if log is not None:
            log.close()
