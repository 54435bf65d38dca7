"""The command line for Word documents: render, extract and walk a .docx (or its JSON).

siftui.cli parses the arguments and hands a Word document here; exit codes and
one-line errors are the PDF commands': a document error is a LoadError (exit 1),
a bad option a ValueError turned into a usage error (exit 2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from siftui import __version__
from siftui.core.budget import check_unit
from siftui.core.kinds import WORD
from siftui.core.messages import quoted
from siftui.sources.kinds import load_any
from siftui.sources.load import LoadError
from siftui.sources.word.kind import is_docx_json

if TYPE_CHECKING:  # the Word modules are imported when a Word document is met
    from siftui.core.walk import TokenCounter
    from siftui.core.word.model import DocxDoc
    from siftui.core.word.render import DocxOptions, Rendered

# Options of the PDF commands that mean nothing for a Word document.
PDF_ONLY = {
    "pages": "--pages",
    "password": "--password",
    "max_pages": "--max-pages",
    "ocr": "--ocr",
    "ocr_lang": "--ocr-lang",
}


def add_docx_options(parser: argparse.ArgumentParser, *, walk: bool = False) -> None:
    """The options of a Word document's answers (their defaults None: "not given")."""
    if not walk:
        parser.add_argument("--range", default=None, help='Word: paragraphs "Pa..Pb", "Pa", "Pa.."')
        parser.add_argument("--anchor", default=None, help='Word: a paragraph "P<n>#<hash>"')
        parser.add_argument(
            "--window",
            type=int,
            default=None,
            help="Word: paragraphs around --anchor (0-50, default 6)",
        )
    parser.add_argument(
        "--scope",
        default=None,
        help="Word: body (default), footnotes, endnotes, comments, headers or footers",
    )


class WrongKind(ValueError):
    """An option of the other kind of document: a usage error."""


def refuse_pdf_options(args: argparse.Namespace) -> None:
    """A PDF option given for a Word document is a clear usage error."""
    for name, flag in PDF_ONLY.items():
        value = getattr(args, name, None)
        if value not in (None, False, ""):
            advice = '; use --range "Pa..Pb"' if name == "pages" else ""
            raise WrongKind(f"{flag} is for PDFs, not Word documents{advice}")


def refuse_docx_options(args: argparse.Namespace) -> None:
    """A Word option given for a PDF is a clear usage error."""
    for name in ("range", "anchor", "window", "scope"):
        if getattr(args, name, None) is not None:
            advice = '; use --pages "a-b"' if name == "range" else ""
            raise WrongKind(f"--{name} is for Word documents, not PDFs{advice}")


def options_of(args: argparse.Namespace) -> DocxOptions:
    from siftui.core.word.render import DEFAULT_WINDOW, DocxOptions

    window = DEFAULT_WINDOW if args.window is None else args.window
    return DocxOptions(
        range=args.range or "",
        anchor=args.anchor or "",
        window=window,
        grep=args.grep,
        scope=args.scope or "body",
        out_cap=args.outcap,
        unit=args.unit,
    )


def check_options(options: DocxOptions) -> None:
    """What can be checked without the document, before reading it (docs/WORD.md's order)."""
    from siftui.core.word.render import BadOption, check_docx_options

    if options.out_cap < 1:
        raise BadOption(f"--outcap must be >= 1, not {options.out_cap}")
    check_docx_options(options)


def load_docx(path: str) -> DocxDoc:
    """The Word document at ``path`` (or its JSON), through the one loader."""
    return WORD.expect(load_any(path, kind=WORD).doc)


def print_notes(doc: DocxDoc) -> None:
    for note in doc.notes:
        print(f"siftui: note: {quoted(note)}", file=sys.stderr)


def render_answer(args: argparse.Namespace) -> Rendered:
    """`siftui render FILE.docx ...`: the answer (ValueError for a bad option)."""
    from siftui.core.word.render import BadOption, render_docx, reversed_range_hint

    refuse_pdf_options(args)
    options = options_of(args)
    check_options(options)
    if args.window is not None and not (args.anchor or "").strip():
        print("siftui: warning: --window is ignored without --anchor", file=sys.stderr)
    doc = load_docx(args.path)
    print_notes(doc)
    try:
        rendered = render_docx(doc, options)
    except BadOption as error:
        hint = reversed_range_hint(options.range)
        if hint is None or "out of range" not in str(error):
            raise
        raise BadOption(f"{error}: {hint}") from None
    if not rendered.content and rendered.note:
        # stdout stays the agent's bytes (here none): say why on stderr.
        print(f"siftui: note: {rendered.note}", file=sys.stderr)
    return rendered


def extract_json(args: argparse.Namespace) -> str:
    """`siftui extract FILE.docx`: the model as JSON, with a "source" key."""
    from siftui.core.word.docjson import docx_to_json
    from siftui.sources.filehash import file_sha256

    refuse_pdf_options(args)
    doc = load_docx(args.path)
    with open(args.path, "rb") as handle:
        if is_docx_json(handle.read(256)):
            raise LoadError(
                f"{quoted(args.path)}: already a JSON file; use siftui render to read it"
            )
    print_notes(doc)
    from siftui.sources.word.read import lxml_version

    version = lxml_version()
    source = {
        "path": str(args.path),
        "size": os.path.getsize(args.path),
        "sha256": file_sha256(args.path),
        "extractor": f"siftui {__version__}, lxml {version}",
    }
    return docx_to_json(doc, source)


def walk_output(args: argparse.Namespace, counter: TokenCounter) -> str:
    """`siftui walk FILE.docx`: every call of the walk, as text or JSON."""
    from siftui.core.kinds import WORD
    from siftui.core.unreachable import unreachable_json, unreachable_text
    from siftui.core.word.render import DocxOptions
    from siftui.core.word.walk import walk_docx_report, walk_docx_text

    refuse_pdf_options(args)
    scope = args.scope or "body"
    check_options(DocxOptions(scope=scope, out_cap=args.outcap, unit=args.unit))
    doc = load_docx(args.path)
    print_notes(doc)
    unit = check_unit(args.unit)
    calls = WORD.walk(doc, DocxOptions(scope=scope, out_cap=args.outcap, unit=unit.name))
    report = walk_docx_report(calls, counter, unit)
    left_out = WORD.unreachable(doc, args.outcap, scope, unit)
    report["unreachable"] = unreachable_json(left_out)
    tail = unreachable_text(left_out)
    if args.json:
        return json.dumps(report, ensure_ascii=False)
    return walk_docx_text(report, args.outcap, unit) + tail
