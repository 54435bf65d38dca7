"""The command line: the contract's string on stdout, byte for byte.

Exit codes: 0 success, 1 a document error, 2 a bad option. Every failure is
one line on stderr. Textual is imported only when the TUI is started.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from siftui import __version__
from siftui.load import LoadError, load_doc, load_source
from siftui.messages import one_line, quoted
from siftui.outcap import outcap_argument
from siftui.output import check_new_file, encode_utf8, rendered_json, write_new_file
from siftui.render import DEFAULT_OUT_CAP, BadGrep, BadPages, Options, check_options, render
from siftui.walk import TokenCounter, estimate_tokens, walk, walk_report, walk_text

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
  siftui log CALLS.jsonl   replay an MCP call log in the TUI (siftui log --help)
  siftui sample-path       print the path of the bundled sample document

examples:
  siftui thesis.pdf
  siftui render thesis.pdf --outcap 20k | wc -m
  siftui render "$(siftui sample-path)"   # what `siftui`, then c, copies
"""


def _add_outcap(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--outcap",
        type=outcap_argument,
        default=DEFAULT_OUT_CAP,
        help=f"the budget in code points: 20000, 20,000, 20k, 1.5M (default {DEFAULT_OUT_CAP:,})",
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
    parser.add_argument("path", metavar="PATH", help="a PDF (or EPUB, XPS, ...) or a Doc JSON file")
    parser.add_argument("--pages", default="", help='a page range: "a-b", "a" or "a-"')
    parser.add_argument("--grep", default="", help="an RE2 pattern (smart case)")
    _add_outcap(parser)
    parser.add_argument(
        "--json", action="store_true", help="print every field of the answer as JSON"
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
    parser.add_argument("path", metavar="PATH", help="a PDF (or EPUB, XPS, ...)")
    parser.add_argument("-o", "--output", default=None, help="write to this file instead of stdout")
    parser.add_argument("--force", action="store_true", help="overwrite an existing output file")
    _add_extraction_options(parser)
    return parser


WALK_EXAMPLES = """examples:
  siftui walk thesis.pdf --outcap 20000     # every call an agent makes to read it all
  siftui walk thesis.pdf --json | jq .total_runes
"""


def _walk_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="siftui walk",
        description=(
            "List the calls an agent makes to read the whole document by following the "
            "map and every note: first no options, then the rest of the pages, until each "
            "extracted page was seen once."
        ),
        epilog=WALK_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("path", metavar="PATH", help="a PDF (or EPUB, XPS, ...) or a Doc JSON file")
    _add_outcap(parser)
    parser.add_argument("--json", action="store_true", help="print the walk as JSON")
    _add_extraction_options(parser)
    return parser


def _cmd_walk(argv: Sequence[str]) -> int:
    args = _walk_parser().parse_args(argv)
    _check_max_pages(args.max_pages)
    if args.outcap < 1:
        raise UsageError(f"--outcap must be >= 1, not {args.outcap}")
    doc = load_doc(args.path, **_extraction_options(args))
    report = walk_report(walk(doc, args.outcap), token_counter())
    text = json.dumps(report, ensure_ascii=False) if args.json else walk_text(report, args.outcap)
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
    options = Options(pages=args.pages, grep=args.grep, out_cap=args.outcap)
    if options.out_cap < 1:
        raise UsageError(f"--outcap must be >= 1, not {options.out_cap}")
    _check_options(options)
    doc = load_doc(args.path, **_extraction_options(args))
    try:
        answer = render(doc, options)
    except ValueError as error:  # BadPages, BadGrep
        raise UsageError(str(error)) from None
    payload = rendered_json(answer) if args.json else answer.content
    _write_stdout(encode_utf8(payload))
    return 0


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
        return {**estimate_tokens(text), **dict(counts.tokens)}

    return count


LOG_EXAMPLES = """examples:
  siftui log calls.jsonl       # the calls an agent made through `siftui mcp --log calls.jsonl`
"""


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
    return parser


def _cmd_log(argv: Sequence[str]) -> int:
    args = _log_parser().parse_args(argv)
    from siftui.serve.calllog import LogError, read_log

    try:
        entries = read_log(args.path)
    except LogError as error:
        raise LoadError(str(error)) from None
    if not entries:
        raise LoadError(f"{quoted(args.path)}: the log holds no calls")
    from siftui.tui.launch import run_log_tui  # Textual is only imported for the TUI

    return run_log_tui(entries)


def _cmd_tui(argv: Sequence[str]) -> int:
    args = _tui_parser().parse_args(argv)
    from siftui.tui.launch import run_tui  # Textual is only imported for the TUI

    return run_tui(args.path, password=args.password)


def _cmd_sample_path(argv: Sequence[str]) -> int:
    """Print the bundled sample's path: `siftui render "$(siftui sample-path)"` prints
    exactly what `siftui` (no FILE), then c, copies."""
    if argv:
        raise UsageError(f"siftui sample-path takes no arguments, not {' '.join(argv)!r}")
    from siftui.sample import sample_path

    print(sample_path())
    return 0


MCP_EXAMPLES = """examples:
  siftui mcp --root ~/papers                       # read_pdf over stdio, OutCap 100,000
  siftui mcp --root ~/papers --root /srv/theses --outcap 20000 --log calls.jsonl

Register it with an MCP client (Claude Desktop, Claude Code) as the command
"siftui" with these arguments; replay a log with: siftui log calls.jsonl
"""


def _mcp_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="siftui mcp",
        description=(
            "Serve the read tool siftui previews (read_pdf: path, pages, grep) to an agent "
            "over the Model Context Protocol on stdin/stdout. Only files under the roots "
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
    parser.add_argument(
        "--outcap",
        type=outcap_argument,
        default=DEFAULT_OUT_CAP,
        help=f"the budget of every answer in code points (default {DEFAULT_OUT_CAP:,})",
    )
    parser.add_argument(
        "--log", default=None, metavar="FILE", help="append every call as JSON Lines"
    )
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="seconds one extraction may take (default 120)"
    )
    parser.add_argument(
        "--max-bytes",
        type=_whole_number,
        default=200_000_000,
        help="refuse files larger than this (default 200,000,000)",
    )
    return parser


def _cmd_mcp(argv: Sequence[str]) -> int:
    args = _mcp_parser().parse_args(argv)
    if args.outcap < 1:
        raise UsageError(f"--outcap must be >= 1, not {args.outcap}")
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be > 0, not {args.timeout:g}")
    if args.max_bytes < 1:
        raise UsageError(f"--max-bytes must be >= 1, not {args.max_bytes}")
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
    store = DocStore(timeout=args.timeout, max_bytes=args.max_bytes)
    try:
        return serve(ReadTool(roots, out_cap=args.outcap, store=store, log=log))
    finally:
        if log is not None:
            log.close()


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    commands = {
        "render": _cmd_render,
        "extract": _cmd_extract,
        "mcp": _cmd_mcp,
        "walk": _cmd_walk,
        "log": _cmd_log,
        "sample-path": _cmd_sample_path,
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
        return f"{quoted(error.filename)}: {error.strerror}"
    return one_line(error)


if __name__ == "__main__":
    raise SystemExit(main())
