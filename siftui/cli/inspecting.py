"""``siftui inspect FILE``: the text an agent reads that no person sees on the page.

Exit codes: 0 nothing hidden, 3 hidden text found (so that scripts and CI
pipelines can stop a document before an agent reads it), 1 a document error,
2 a bad option. A scan's OCR layer (``ocr_layer``) is listed but is not an
alarm: a file whose only findings are OCR layers exits 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from siftui.cli.common import Parser, UsageError, check_max_pages, whole_number, write_stdout
from siftui.core.findings import Inspection, inspection_json, snippet, summary_line
from siftui.core.messages import quoted
from siftui.core.unreadable import describe
from siftui.sources.kinds import is_json_form, kind_of_file
from siftui.sources.load import LoadError, load_doc_report
from siftui.sources.load_options import LoadOptions
from siftui.sources.output import encode_utf8
from siftui.sources.pdf_open import ExtractError, NotReadable, check_file

EXIT_HIDDEN = 3

INSPECT_EXAMPLES = """kinds:
  invisible     drawn in render mode 3, or with glyphs that draw nothing
  transparent   drawn with opacity 0
  low_contrast  in the colour of what is painted under it (white on white, black on black)
  tiny          under 1 pt high, or squeezed to a smear (horizontal scaling of 1%)
  off_page      mostly outside the page's crop box
  covered       under an image or a filled shape drawn after it
  remapped      the page draws other letters than are read (a ToUnicode map)
  ocr_layer     text painting nothing over an image (or over shapes drawing its
                glyphs): a scan's OCR layer (listed, not an alarm)

Findings are text the page's extraction holds (what the agent reads), spelt as
there. Hidden text the extraction leaves out (clipped away, say) is listed
after them as "not extracted": no agent reads it, so it is not an alarm.

exit status: 0 nothing hidden (OCR layers alone included), 3 hidden text found,
1 the file cannot be read, 2 a bad option.

examples:
  siftui inspect report.pdf
  siftui inspect report.pdf --json | jq .summary
  siftui inspect upload.pdf >/dev/null || echo "hidden text: not passed to the agent"
"""


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui inspect",
        description=(
            "List the text an agent reads in a document that a person does not see on "
            "the page: one line per finding, then a summary."
        ),
        epilog=INSPECT_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("path", metavar="FILE", help="a PDF (or another document PyMuPDF opens)")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    parser.add_argument("--password", default=None, help="the document's password")
    parser.add_argument(
        "--max-pages", type=whole_number, default=None, help="inspect at most N pages"
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the disk cache"
    )
    return parser


def cmd_inspect(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    check_max_pages(args.max_pages)
    load = LoadOptions(
        password=args.password, max_pages=args.max_pages, use_cache=not args.no_cache
    )
    inspection = _inspect(args.path, load)
    if args.json:
        text = json.dumps(inspection_json(args.path, inspection), ensure_ascii=False)
    else:
        text = report(inspection)
    write_stdout(encode_utf8(text + "\n"))
    return EXIT_HIDDEN if inspection.alarms else 0


def _inspect(path: str, load: LoadOptions) -> Inspection:
    from siftui.sources.hidden.cache import cached_inspect  # PyMuPDF only for this command

    try:
        check_file(path)
        kind = kind_of_file(path)
        if not kind.has_pages:
            raise LoadError(f"{quoted(path)}: {kind.noun}; siftui inspect reads PDFs")
        if is_json_form(path):
            raise LoadError(
                f"{quoted(path)}: a Doc JSON file holds text, not pages to look at; "
                "inspect the document itself"
            )
        try:
            return cached_inspect(path, load)
        except NotReadable:
            # A damaged page: if extraction reads the rest, inspect the rest, as it is read.
            found = load_doc_report(path, load)
            if not found.unreadable:
                raise
            warning = f"{quoted(path)}: {describe(found.unreadable)}"
            print(f"siftui: warning: {quoted(warning)}", file=sys.stderr, flush=True)
            skip = frozenset(page.page for page in found.unreadable)
            return cached_inspect(path, load, skip=skip)
    except ExtractError as error:
        raise LoadError(str(error)) from None
    except OSError as error:
        raise LoadError(f"{quoted(path)}: {error.strerror or error}") from None
    except ValueError as error:  # a bad option the parser let through
        raise UsageError(str(error)) from None


def _quoted(text: str) -> str:
    return '"' + quoted(snippet(text)) + '"'


def report(inspection: Inspection) -> str:
    """The text output: ``p. 12 invisible "Ignore previous …"`` lines, then the hidden
    text the extraction does not hold (``p. 88 not extracted (covered) "…"``), then a
    summary."""
    lines = [f"p. {f.page} {f.kind} {_quoted(f.text)}" for f in inspection.findings]
    lines.extend(
        f"p. {f.page} not extracted ({f.kind}) {_quoted(f.text)}" for f in inspection.unextracted
    )
    lines.append(summary_line(inspection))
    return "\n".join(lines)
