"""`siftui render`, `extract` and `walk`: a document's answers on stdout, byte for byte."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from siftui.cli import word
from siftui.cli.common import (
    Parser,
    UsageError,
    add_extraction_options,
    add_outcap,
    add_unit,
    check_max_pages,
    check_pdf_options,
    extraction_options,
    load_pdf,
    load_pdf_damaged,
    token_counter,
    warn_textless,
    write_stdout,
)
from siftui.core.agents import AgentsError, fit, fit_text
from siftui.core.budget import check_unit
from siftui.core.kinds import DEFAULT_KIND
from siftui.core.render import Options, Rendered, render, reversed_pages_hint
from siftui.core.unreachable import unreachable_json, unreachable_text
from siftui.core.walk import runes_estimate, walk_report, walk_text
from siftui.sources.agents_load import count_tokens, load_agents
from siftui.sources.kinds import kind_of_file
from siftui.sources.load import load_source
from siftui.sources.output import check_new_file, encode_utf8, rendered_json, write_new_file

EXIT_AGENTS = 4
"""`siftui render --check-agents=strict`: an agent's limit is below the answer (a ✗)."""

_T = TypeVar("_T")

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


def _render_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui render",
        description="Print the string an agent's bounded read tool returns for a document.",
        epilog=RENDER_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "path", metavar="PATH", help="a PDF (or EPUB, XPS, ...), a .docx, or their JSON"
    )
    parser.add_argument("--pages", default="", help='a page range: "a-b", "a" or "a-"')
    word.add_docx_options(parser)
    parser.add_argument("--grep", default="", help="an RE2 pattern (smart case)")
    add_outcap(parser)
    add_unit(parser)
    parser.add_argument(
        "--json", action="store_true", help="print every field of the answer as JSON"
    )
    parser.add_argument(
        "--check-agents",
        action="store_true",
        help="also print to stderr, for each agent in agents.toml, whether the answer fits "
        "its documented cap (✓ ⚠ ✗) and its size in the agent's unit; "
        f"--check-agents=strict also exits {EXIT_AGENTS} when an agent is over its limit (✗)",
    )
    # argparse matches a whole option string before splitting it at "=": this is
    # "--check-agents=strict", documented in --check-agents's help.
    parser.add_argument(
        "--check-agents=strict", dest="strict_agents", action="store_true", help=argparse.SUPPRESS
    )
    add_extraction_options(parser)
    return parser


def _extract_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui extract",
        description="Extract a document into the contract's Doc JSON.",
        epilog=EXTRACT_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("path", metavar="PATH", help="a PDF (or EPUB, XPS, ...) or a .docx")
    parser.add_argument("-o", "--output", default=None, help="write to this file instead of stdout")
    parser.add_argument("--force", action="store_true", help="overwrite an existing output file")
    add_extraction_options(parser)
    return parser


WALK_EXAMPLES = """examples:
  siftui walk thesis.pdf --outcap 20000     # every call an agent makes to read it all
  siftui walk thesis.pdf --tokens           # ... with o200k_base and cl100k_base counts
  siftui walk thesis.pdf --json | jq .total_runes
"""


def _walk_parser() -> argparse.ArgumentParser:
    parser = Parser(
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
    add_outcap(parser)
    add_unit(parser)
    word.add_docx_options(parser, walk=True)
    parser.add_argument("--json", action="store_true", help="print the walk as JSON")
    parser.add_argument(
        "--tokens",
        action="store_true",
        help="also count o200k_base and cl100k_base tokens (loading them takes ~1-2 s)",
    )
    add_extraction_options(parser)
    return parser


def cmd_walk(argv: Sequence[str]) -> int:
    args = _walk_parser().parse_args(argv)
    check_max_pages(args.max_pages)
    count = token_counter() if args.tokens else runes_estimate
    if docx_command(args):
        write_stdout(encode_utf8(_docx_usage(word.walk_output, args, count)))
        return 0
    doc = load_pdf(args)
    count = token_counter() if args.tokens else runes_estimate
    unit = check_unit(args.unit)
    kind = DEFAULT_KIND  # the default kind's walk (a Word document's: siftui.cli.word)
    report = walk_report(kind.walk(doc, Options(out_cap=args.outcap, unit=unit.name)), count, unit)
    left_out = kind.unreachable(doc, args.outcap, unit=unit)
    report["unreachable"] = unreachable_json(left_out)
    if args.json:
        text = json.dumps(report, ensure_ascii=False)
    else:
        text = walk_text(report, args.outcap, unit) + unreachable_text(left_out)
    write_stdout(encode_utf8(text))
    return 0


def cmd_render(argv: Sequence[str]) -> int:
    args = _render_parser().parse_args(argv)
    check_max_pages(args.max_pages)
    try:  # a bad agents file is reported before the extraction, not after
        agents = load_agents() if args.check_agents or args.strict_agents else None
    except AgentsError as error:
        raise UsageError(str(error)) from None
    docx = docx_command(args)
    answer = _docx_usage(word.render_answer, args) if docx else _render_pdf(args)
    write_stdout(encode_utf8(rendered_json(answer) if args.json else answer.content))
    if agents is not None:
        fits = fit(answer.content, agents, count_tokens)
        byte_cap = args.outcap if args.unit == "bytes" else None
        sys.stderr.write(fit_text(fits, len(answer.content), byte_cap))
        if args.strict_agents and any(each.verdict == "✗" for each in fits):
            return EXIT_AGENTS
    return 0


def _render_pdf(args: argparse.Namespace) -> Rendered:
    options = Options(pages=args.pages, grep=args.grep, out_cap=args.outcap, unit=args.unit)
    check_pdf_options(options)
    doc, damaged = load_pdf_damaged(args, options)
    try:
        answer = render(doc, options)
    except ValueError as error:  # BadPages, BadGrep
        message = str(error)
        # The message is read_pdf's own; only a limit the user set is named beside it.
        limited = args.max_pages is not None and doc.extracted < doc.page_count
        hint = reversed_pages_hint(options.pages)
        if message.startswith("pages out of range") and hint is not None:
            message += f": {hint}"
        elif message.startswith("pages out of range") and limited:
            message += (
                f": --max-pages {args.max_pages} extracted pages 1-{doc.extracted} "
                f"of {doc.page_count}; raise --max-pages to read further"
            )
        raise UsageError(message) from None
    warn_textless(args, doc, answer, damaged)
    return answer


def docx_command(args: argparse.Namespace) -> bool:
    """True for a Word document; a Word option given for a PDF is a usage error."""
    if _answered_apart(args.path):
        return True
    try:
        word.refuse_docx_options(args)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return False


def _answered_apart(path: str) -> bool:
    """Whether the file is of a kind whose commands have their own module (a Word
    document's: siftui.cli.word), not the default kind's here."""
    return kind_of_file(path) is not DEFAULT_KIND


def _docx_usage(command: Callable[..., _T], *args: Any) -> _T:
    """Run a Word command; a bad option (ValueError) exits 2, as for PDFs."""
    try:
        return command(*args)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _check_not_the_document(path: str, output: str) -> None:
    """The output is never the document read (a name, a link or a hard link to it), even
    with --force: `extract thesis.pdf -o thesis.pdf --force` put the JSON in the PDF's place."""
    try:
        same = os.path.samefile(path, output)
    except OSError:  # either is missing: another file
        return
    if same:
        raise FileExistsError(errno.EEXIST, "is the document read: never written over", output)


def cmd_extract(argv: Sequence[str]) -> int:
    args = _extract_parser().parse_args(argv)
    check_max_pages(args.max_pages)
    if args.output is not None:
        _check_not_the_document(args.path, args.output)
        check_new_file(args.output, overwrite=args.force)  # before, not after, the work
    if _answered_apart(args.path):
        text = _docx_usage(word.extract_json, args)
    else:
        text = load_source(args.path, extraction_options(args))
    data = encode_utf8(text)
    if args.output is None:
        write_stdout(data)
    else:
        write_new_file(args.output, data, overwrite=args.force)
    return 0
