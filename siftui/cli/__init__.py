"""The command line: the contract's string on stdout, byte for byte.

Exit codes: 0 success, 1 a document error, 2 a bad option. Every failure is
one line on stderr. Textual is imported only when the TUI is started.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Callable, Sequence

from siftui import __version__
from siftui.cli.common import (
    EXIT_DOCUMENT,
    EXIT_USAGE,
    Parser,
    UsageError,
    ocr_language_argument,
)
from siftui.core.messages import file_error, one_line, quoted
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.sources.load import LoadError

TUI_EXAMPLES = """commands:
  siftui [FILE]            open FILE (or the bundled sample) in the TUI
  siftui render FILE ...   print what the agent receives (siftui render --help)
  siftui extract FILE ...  write the extracted Doc as JSON (siftui extract --help)
  siftui mcp --root DIR    serve the read tool to agents over MCP (siftui mcp --help)
  siftui walk FILE ...     the calls an agent makes to read it all (siftui walk --help)
  siftui inspect FILE      text the agent reads that no person sees (siftui inspect --help)
  siftui audit DIR|FILE... what agents will see of a document store (siftui audit --help)
  siftui log CALLS.jsonl   replay an MCP call log in the TUI (siftui log --help)
  siftui reader [FILE...] --root DIR
                           read PDFs while agents annotate them; saves need your y
  siftui session --root DIR [SCRIPT]
                           run evidence-tool calls as an agent's session gets them
  siftui tools [--tools F] print the tools/list an agent gets, with its size in tokens
  siftui sample-path       print the path of the bundled sample document

examples:
  siftui thesis.pdf
  siftui render thesis.pdf --outcap 20k | wc -m
  siftui render "$(siftui sample-path)"   # what `siftui`, then c, copies
"""


def _tui_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui",
        description="See exactly what an LLM agent receives when it reads a PDF.",
        epilog=TUI_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "path", metavar="FILE", nargs="?", help="a document (default: the bundled sample)"
    )
    parser.add_argument("--password", default=None, help="the document's password")
    parser.add_argument(
        "--ocr-lang",
        type=ocr_language_argument,
        default=DEFAULT_OCR_LANGUAGE,
        metavar="LANG",
        help="the languages t (OCR of pages without text) reads, as Tesseract's codes: "
        "eng (default), deu, deu+eng",
    )
    parser.add_argument("--version", action="version", version=f"siftui {__version__}")
    return parser


def _cmd_tui(argv: Sequence[str]) -> int:
    args = _tui_parser().parse_args(argv)
    if args.path is not None:
        # A file that is not there (a directory, an empty file...) is the one line and
        # exit 1 of `siftui render`, before Textual is imported or a screen drawn.
        from siftui.sources.pdf_open import ExtractError, check_file

        try:
            check_file(args.path)
        except ExtractError as error:
            raise LoadError(str(error)) from None
    # The start allocates hundreds of thousands of objects (modules, classes, widgets,
    # the document) and frees almost none: the cycle collector's passes over them were
    # a twentieth of the first frame's work. The app turns it back on once its first
    # frame is painted (SiftApp.on_mount); here on any way out (main() is a function too).
    gc.disable()
    try:
        from siftui.cli.evidence_preview import preview_factory  # `e`: the server's tools
        from siftui.tui.launch import run_tui  # Textual is only imported for the TUI

        return run_tui(
            args.path,
            password=args.password,
            evidence=preview_factory,
            ocr_language=args.ocr_lang,
        )
    finally:
        gc.enable()


def _cmd_sample_path(argv: Sequence[str]) -> int:
    """Print the bundled sample's path: `siftui render "$(siftui sample-path)"` prints
    exactly what `siftui` (no FILE), then c, copies."""
    parser = Parser(
        prog="siftui sample-path",
        description="Print the path of the bundled sample document, the one `siftui` opens "
        'without FILE: `siftui render "$(siftui sample-path)"` prints what its c copies.',
    )
    extra = parser.parse_known_args(argv)[1]  # --help prints the help and exits 0
    if extra:
        raise UsageError(f"siftui sample-path takes no arguments, not {' '.join(extra)!r}")
    from siftui.sources.sample import sample_path

    print(sample_path())
    return 0


COMMANDS = {
    "render": "siftui.cli.documents:cmd_render",
    "extract": "siftui.cli.documents:cmd_extract",
    "mcp": "siftui.cli.serving:cmd_mcp",
    "walk": "siftui.cli.documents:cmd_walk",
    "log": "siftui.cli.serving:cmd_log",
    "inspect": "siftui.cli.inspecting:cmd_inspect",
    "audit": "siftui.cli.audit:cmd_audit",
    "session": "siftui.cli.session:cmd_session",
    "tools": "siftui.cli.tools:cmd_tools",
    "reader": "siftui.cli.reader:cmd_reader",
    "sample-path": "siftui.cli:_cmd_sample_path",
}
"""Each command and the function that runs it ("module:function"), imported when the
command is run: each command, the TUI first, imports only its own modules."""


def _command(name: str) -> Callable[[Sequence[str]], int]:
    module, function = COMMANDS[name].split(":")
    found: Callable[[Sequence[str]], int] = getattr(importlib.import_module(module), function)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        from siftui.sources.cache import max_bytes_problem  # refused before any command runs

        if (problem := max_bytes_problem()) is not None:
            raise UsageError(problem)
        if arguments and arguments[0] in COMMANDS:
            return _command(arguments[0])(arguments[1:])
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
