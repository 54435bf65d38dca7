"""The command line: the contract's string on stdout, byte for byte.

Exit codes: 0 success, 1 a document error, 2 a bad option. Every failure is
one line on stderr. Textual is imported only when the TUI is started.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

from siftui import __version__, cli_docx
from siftui.agents import AgentsError
from siftui.agents_load import agents_table, load_agents
from siftui.doc import Doc
from siftui.load import LoadError, load_doc_report, load_source
from siftui.messages import file_error, one_line, quoted
from siftui.output import check_new_file, encode_utf8, rendered_json, write_new_file
from siftui.render import (
    DEFAULT_OUT_CAP,
    BadGrep,
    BadPages,
    Options,
    Rendered,
    check_options,
    estimated_tokens,
    render,
)
from siftui.unreachable import unreachable, unreachable_json, unreachable_text
from siftui.unreadable import describe
from siftui.walk import TokenCounter, runes_estimate, walk, walk_report, walk_text

_T = TypeVar("_T")
EXIT_DOCUMENT = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """A bad option: exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


RENDER_EXAMPLES = """examples:
  siftui render thesis.pdf                      # what the agent gets with no options
  siftui render thesis.pdf --outcap 20000       # ... with a 20,000-rune budget
  siftui render thesis.pdf --pages 12-40        # a page range
  siftui render thesis.pdf --grep 'lemma \\d+'   # grep blocks with page numbers (RE2)
  siftui render doc.json --json                 # from a saved Doc, as JSON
"""

EXTRACT_EXAMPLES = """examples:
  siftui extract thesis.pdf -o thesis.json
  siftui extract locked.pdf --password secret --max-pages 50 > doc.json
"""

TUI_EXAMPLES = """commands:
  siftui [FILE]            open FILE (or the bundled sample) in the TUI
  siftui render FILE ...   print what the agent receives (siftui render --help)
  siftui extract FILE ...  write the extracted Doc as JSON (siftui extract --help)
  siftui mcp --root DIR    serve the read tool to agents over MCP (siftui mcp --help)
  siftui walk FILE ...     the calls an agent makes to read it all (siftui walk --help)
  siftui inspect FILE      text the agent reads that no person sees (siftui inspect --help)
  siftui log CALLS.jsonl   replay an MCP call log in the TUI (siftui log --help)

examples:
  siftui thesis.pdf
  siftui render thesis.pdf --outcap 20000 | wc -m
"""


def _add_outcap(parser: argparse.ArgumentParser, what: str = "the budget") -> None:
    parser.add_argument(
        "--outcap",
        type=_whole_number,
        default=DEFAULT_OUT_CAP,
        help=f"{what} in code points (default {DEFAULT_OUT_CAP:,})",
    )


def _add_extraction_options(parser: argparse.ArgumentParser) -> None:
    """What every command that opens a document accepts about opening it."""
    parser.add_argument("--password", default=None, help="the document's password")
    parser.add_argument(
        "--max-pages", type=_whole_number, default=None, help="extract at most N pages"
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the extraction cache"
    )
    parser.add_argument(
        "--ocr",
        action="store_true",
        help="read pages without text with Tesseract OCR (off by default; needs tesseract-ocr)",
    )


def _extraction_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of load_doc / load_source that _add_extraction_options set."""
    return {
        "max_pages": args.max_pages,
        "password": args.password,
        "use_cache": not args.no_cache,
        "ocr": args.ocr,
    }


def _render_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="siftui render",
        description="Print the string an agent's bounded read tool returns for a document.",
        epilog=RENDER_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "path", metavar="PATH", help="a PDF (or EPUB, XPS, ...), a .docx, or their JSON"
    )
    parser.add_argument("--pages", default="", help='a page range: "a-b", "a" or "a-"')
    cli_docx.add_docx_options(parser)
    parser.add_argument("--grep", default="", help="an RE2 pattern (smart case)")
    _add_outcap(parser)
    parser.add_argument(
        "--json", action="store_true", help="print every field of the answer as JSON"
    )
    parser.add_argument(
        "--check-agents",
        action="store_true",
        help="also print to stderr, for each agent in agents.toml, whether the answer fits "
        "its documented cap (✓ ⚠ ✗) and its size in the agent's unit",
    )
    _add_extraction_options(parser)
    return parser


def _extract_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="siftui extract",
        description="Extract a document into the contract's Doc JSON.",
        epilog=EXTRACT_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("path", metavar="PATH", help="a PDF (or EPUB, XPS, ...) or a .docx")
    parser.add_argument("-o", "--output", default=None, help="write to this file instead of stdout")
    parser.add_argument("--force", action="store_true", help="overwrite an existing output file")
    _add_extraction_options(parser)
    return parser


WALK_EXAMPLES = """examples:
  siftui walk thesis.pdf --outcap 20000     # every call an agent makes to read it all
  siftui walk thesis.pdf --tokens           # ... with o200k_base and cl100k_base counts
  siftui walk thesis.pdf --json | jq .total_runes
"""


def _walk_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="siftui walk",
        description=(
            "List the calls an agent makes to read the whole document by following the "
            "map and every note: first no options, then the rest of the pages, until each "
            "extracted page was seen once. Then what no pages= call can show at this OutCap "
            "(the tails of pages longer than it), how much of that a grep can still show, "
            "and the smallest OutCap at which nothing is unreachable."
        ),
        epilog=WALK_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("path", metavar="PATH", help="a PDF (or EPUB, XPS, ...), a .docx, or JSON")
    _add_outcap(parser)
    cli_docx.add_docx_options(parser, walk=True)
    parser.add_argument("--json", action="store_true", help="print the walk as JSON")
    parser.add_argument(
        "--tokens",
        action="store_true",
        help="also count o200k_base and cl100k_base tokens (loading them takes ~1-2 s)",
    )
    _add_extraction_options(parser)
    return parser


def _cmd_walk(argv: Sequence[str]) -> int:
    args = _walk_parser().parse_args(argv)
    _check_max_pages(args.max_pages)
    if args.outcap < 1:
        raise UsageError(f"--outcap must be >= 1, not {args.outcap}")
    if _docx_command(args):
        _write_stdout(encode_utf8(_docx_usage(cli_docx.walk_output, args, token_counter())))
        return 0
    doc = _load(args)
    count = token_counter() if args.tokens else runes_estimate
    report = walk_report(walk(doc, args.outcap), count)
    left_out = unreachable(doc, args.outcap)
    report["unreachable"] = unreachable_json(left_out)
    if args.json:
        text = json.dumps(report, ensure_ascii=False)
    else:
        text = walk_text(report, args.outcap) + unreachable_text(left_out)
    _write_stdout(encode_utf8(text))
    return 0


def _tui_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="siftui",
        description="See exactly what an LLM agent receives when it reads a PDF.",
        epilog=TUI_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "path", metavar="FILE", nargs="?", help="a document (default: the bundled sample)"
    )
    parser.add_argument("--password", default=None, help="the document's password")
    parser.add_argument("--version", action="version", version=f"siftui {__version__}")
    return parser


def _check_max_pages(max_pages: int | None) -> None:
    if max_pages is not None and max_pages < 0:
        raise UsageError(f"--max-pages must be >= 0, not {max_pages}")


def _write_stdout(data: bytes) -> None:
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        # The reader (head, less) left early; that is its right, not an error of ours.
        sys.stdout = None


def _cmd_render(argv: Sequence[str]) -> int:
    args = _render_parser().parse_args(argv)
    _check_max_pages(args.max_pages)
    try:  # a bad agents file is reported before the extraction, not after
        agents = load_agents() if args.check_agents else None
    except AgentsError as error:
        raise UsageError(str(error)) from None
    docx = _docx_command(args)
    answer = _docx_usage(cli_docx.render_answer, args) if docx else _render_pdf(args)
    _write_stdout(encode_utf8(rendered_json(answer) if args.json else answer.content))
    if agents is not None:
        sys.stderr.write(agents_table(answer.content, agents))
    return 0


def _render_pdf(args: argparse.Namespace) -> Rendered:
    options = Options(pages=args.pages, grep=args.grep, out_cap=args.outcap)
    if options.out_cap < 1:
        raise UsageError(f"--outcap must be >= 1, not {options.out_cap}")
    _check_options(options)
    doc = _load(args)
    try:
        return render(doc, options)
    except ValueError as error:  # BadPages, BadGrep
        raise UsageError(str(error)) from None


def _load(args: argparse.Namespace) -> Doc:
    """The Doc of args.path; one warning line on stderr names the pages that could not be read."""
    found = load_doc_report(args.path, **_extraction_options(args))
    if found.unreadable:
        warning = f"{quoted(args.path)}: {describe(found.unreadable)}"
        print(f"siftui: warning: {quoted(warning)}", file=sys.stderr, flush=True)
    return found.doc


def _docx_command(args: argparse.Namespace) -> bool:
    """True for a Word document; a Word option given for a PDF is a usage error."""
    if cli_docx.is_docx(args.path):
        return True
    try:
        cli_docx.refuse_docx_options(args)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return False


def _docx_usage(command: Callable[..., _T], *args: Any) -> _T:
    """Run a Word command; a bad option (ValueError) exits 2, as for PDFs."""
    try:
        return command(*args)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _check_options(options: Options) -> None:
    """Reject a malformed --pages or --grep before a long extraction, not after."""
    try:
        check_options(options)
    except (BadPages, BadGrep) as error:
        raise UsageError(str(error)) from None


def _cmd_extract(argv: Sequence[str]) -> int:
    args = _extract_parser().parse_args(argv)
    _check_max_pages(args.max_pages)
    if args.output is not None:
        check_new_file(args.output, overwrite=args.force)  # before, not after, the work
    if cli_docx.is_docx(args.path):
        text = _docx_usage(cli_docx.extract_json, args)
    else:
        text = load_source(args.path, **_extraction_options(args))
    data = encode_utf8(text)
    if args.output is None:
        _write_stdout(data)
    else:
        write_new_file(args.output, data, overwrite=args.force)
    return 0


def token_counter() -> TokenCounter:
    """runes/4, plus o200k_base and cl100k_base counts when their vocabularies load."""
    from siftui.tokens import token_counts  # tiktoken only for the commands that count

    def count(text: str) -> dict[str, int]:
        counts = token_counts(text)
        return {"runes/4": estimated_tokens(len(text)), **dict(counts.tokens)}

    return count


LOG_EXAMPLES = """examples:
  siftui log calls.jsonl            # the calls an agent made through `siftui mcp --log calls.jsonl`
  siftui log calls.jsonl --report   # how it used the tool: pages read, loops, errors, notes
  siftui log calls.jsonl --report --json
"""


MAX_SKIPPED_SHOWN = 10


def _log_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
    return parser


def _cmd_log(argv: Sequence[str]) -> int:
    args = _log_parser().parse_args(argv)
    if args.json and not args.report:
        raise UsageError("--json needs --report")
    from siftui.serve.calllog import LogError, read_log_skipping

    try:
        entries, skipped = read_log_skipping(args.path)
    except LogError as error:
        raise LoadError(str(error)) from None
    if not entries:
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
    if args.report:
        from siftui.serve.logreport_run import print_report

        return print_report(entries, as_json=args.json, write=_write_stdout)
    from siftui.tui.launch import run_log_tui  # Textual is only imported for the TUI

    return run_log_tui(entries)


def _cmd_tui(argv: Sequence[str]) -> int:
    args = _tui_parser().parse_args(argv)
    from siftui.tui.launch import run_tui  # Textual is only imported for the TUI

    return run_tui(args.path, password=args.password)


MCP_EXAMPLES = f"""examples:
  siftui mcp --root ~/papers          # read_pdf, read_docx over stdio, OutCap {DEFAULT_OUT_CAP:,}
  siftui mcp --root ~/papers --root /srv/theses --outcap 20000 --log calls.jsonl
  siftui mcp --root ~/inbox --warn-hidden   # say when an answer holds invisible text

Register it with an MCP client (Claude Desktop, Claude Code) as the command
"siftui" with these arguments; replay a log with: siftui log calls.jsonl
"""


def _mcp_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="siftui mcp",
        description=(
            "Serve the read tools siftui previews (read_pdf: path, pages, grep; read_docx: "
            "path, range, anchor, window, grep, scope) to an agent over the Model Context "
            "Protocol on stdin/stdout. Only files under the roots "
            "are readable; every answer is bounded by the OutCap, which is yours, not the agent's."
        ),
        epilog=MCP_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--root",
        action="append",
        required=True,
        metavar="DIR",
        help="a directory the agent may read from (repeatable; relative paths use the first)",
    )
    _add_outcap(parser, "the budget of every answer")
    parser.add_argument(
        "--log", default=None, metavar="FILE", help="append every call as JSON Lines"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="seconds one call may take, extraction included (default 120)",
    )
    parser.add_argument(
        "--max-bytes",
        type=_whole_number,
        default=200_000_000,
        help="refuse files larger than this (default 200,000,000)",
    )
    parser.add_argument(
        "--max-runes",
        type=_whole_number,
        default=50_000_000,
        help="refuse documents whose text is longer, in code points (default 50,000,000)",
    )
    parser.add_argument(
        "--workers",
        type=_whole_number,
        default=None,
        help="extraction processes at once (default: the number of cores)",
    )
    parser.add_argument(
        "--worker-memory",
        type=_whole_number,
        default=2 * 1024**3,
        metavar="BYTES",
        help="address space of one extraction process; 0 for no limit (default 2 GiB)",
    )
    parser.add_argument(
        "--cache-bytes",
        type=_whole_number,
        default=1024**3,
        metavar="BYTES",
        help="memory kept for extracted documents between calls (default 1 GiB)",
    )
    parser.add_argument(
        "--warn-hidden",
        action="store_true",
        help="after the note, add one warning line when a PDF answer shows text that is "
        "invisible on the page (the log records the findings either way)",
    )
    return parser


MIN_WORKER_MEMORY = 128 * 1024**2


def _cmd_mcp(argv: Sequence[str]) -> int:
    args = _mcp_parser().parse_args(argv)
    if args.outcap < 1:
        raise UsageError(f"--outcap must be >= 1, not {args.outcap}")
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be > 0, not {args.timeout:g}")
    if not math.isfinite(args.timeout):
        raise UsageError(f"--timeout must be a finite number of seconds, not {args.timeout:g}")
    for option, value in (("--max-bytes", args.max_bytes), ("--max-runes", args.max_runes)):
        if value < 1:
            raise UsageError(f"{option} must be >= 1, not {value}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be >= 1, not {args.workers}")
    if args.worker_memory != 0 and args.worker_memory < MIN_WORKER_MEMORY:
        raise UsageError(
            f"--worker-memory must be 0 (no limit) or >= {MIN_WORKER_MEMORY:,} bytes "
            f"(an extraction process needs ~100 MB to start), not {args.worker_memory:,}"
        )
    from siftui.serve.access import RootError, Roots

    try:
        roots = Roots(args.root)
    except RootError as error:
        raise UsageError(str(error)) from None
    # The MCP SDK is imported only for this command.
    from siftui.serve.calllog import CallLog
    from siftui.serve.docstore import DocStore
    from siftui.serve.mcp_server import ReadTool, serve

    log = CallLog(args.log) if args.log else None
    store = DocStore(
        timeout=args.timeout,
        max_bytes=args.max_bytes,
        max_runes=args.max_runes,
        workers=args.workers,
        memory=args.worker_memory,
        cache_bytes=args.cache_bytes,
    )
    try:
        tool = ReadTool(
            roots, out_cap=args.outcap, store=store, log=log, warn_hidden=args.warn_hidden
        )
        return serve(tool)
    finally:
        if log is not None:
            log.close()


def _cmd_inspect(argv: Sequence[str]) -> int:
    from siftui.cli_inspect import cmd_inspect

    return cmd_inspect(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    commands = {
        "render": _cmd_render,
        "extract": _cmd_extract,
        "mcp": _cmd_mcp,
        "walk": _cmd_walk,
        "log": _cmd_log,
        "inspect": _cmd_inspect,
    }
    try:
        if arguments and arguments[0] in commands:
            return commands[arguments[0]](arguments[1:])
        return _cmd_tui(arguments)
    except UsageError as error:
        print(f"siftui: error: {quoted(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except (LoadError, OSError) as error:
        print(f"siftui: error: {quoted(_one_line(error))}", file=sys.stderr)
        return EXIT_DOCUMENT
    except KeyboardInterrupt:
        return 130


def _one_line(error: BaseException) -> str:
    if isinstance(error, OSError) and error.filename and error.strerror:
        return file_error(error.filename, error)
    return one_line(error)


if __name__ == "__main__":
    raise SystemExit(main())
