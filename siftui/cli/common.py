"""What the CLI's commands share: errors, options, output, loading a PDF."""

from __future__ import annotations

import argparse
import math
import re
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from siftui.core.doc import Doc
from siftui.core.kinds import DEFAULT_KIND, paged_doc
from siftui.core.messages import quoted
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE, check_ocr_language
from siftui.core.outcap import outcap_argument
from siftui.core.render import (
    DEFAULT_OUT_CAP,
    BadGrep,
    BadPages,
    Options,
    Rendered,
    check_options,
    estimated_tokens,
)
from siftui.core.terminal import terminal_text
from siftui.core.textless import answer_textless, textless_warning
from siftui.core.unreadable import describe
from siftui.sources.kinds import load_any
from siftui.sources.load_options import LoadOptions

if TYPE_CHECKING:
    from siftui.core.walk import TokenCounter

EXIT_DOCUMENT = 1

EXIT_USAGE = 2


class UsageError(Exception):
    """A bad option: exit 2."""


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # No prefix of an option stands for it: `render FILE --out 5000` set the OutCap
        # to 5000 (`--out` read as `--outcap`), and `--out x.txt` was refused as an
        # OutCap. An option is named whole, or refused with exit 2.
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # argparse before Python 3.12.7/3.13 drops an option's value that is exactly "--"
        # (`--grep=--` became no pattern, and the map was printed): "--" is a pattern too.
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            return self._get_value(action, "--")
        return super()._get_values(action, arg_strings)


_WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]+\s*")


def whole_number(text: str) -> int:
    """A whole number in ASCII digits, as --outcap's: int() would also take "３" and "1_0"."""
    if _WHOLE_NUMBER.fullmatch(text) is None:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(text)


MAX_SECONDS = 1_000_000
"""The longest time limit an option takes (11.6 days): the waits it is given to take at
most about 24.8 days (2**31 ms), past which Python raises OverflowError."""


def check_seconds(option: str, seconds: float) -> None:
    """Refuses, as a usage error, a time limit no wait can be given."""
    given = f"{seconds:,.0f}" if seconds.is_integer() and abs(seconds) < 1e15 else f"{seconds:g}"
    if not seconds > 0:
        raise UsageError(f"{option} must be > 0, not {given}")
    if not math.isfinite(seconds):
        raise UsageError(f"{option} must be a finite number of seconds, not {given}")
    if seconds > MAX_SECONDS:
        raise UsageError(f"{option} must be at most {MAX_SECONDS:,} seconds, not {given}")


def add_outcap(parser: argparse.ArgumentParser, what: str = "the budget") -> None:
    parser.add_argument(
        "--outcap",
        type=outcap_argument,
        default=DEFAULT_OUT_CAP,
        help=f"{what} in code points: 20000, 20,000, 20k, 1.5M (default {DEFAULT_OUT_CAP:,})",
    )


UNIT_HELP = (
    "what --outcap counts: chars (code points, the default) or bytes (UTF-8; "
    "a budget in bytes bounds the tokens of any byte-level tokenizer)"
)


def add_unit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--unit", choices=("chars", "bytes"), default="chars", help=UNIT_HELP)


def add_extraction_options(parser: argparse.ArgumentParser) -> None:
    """What every command that opens a document accepts about opening it."""
    parser.add_argument("--password", default=None, help="the document's password")
    parser.add_argument(
        "--max-pages", type=whole_number, default=None, help="extract at most N pages"
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the extraction cache"
    )
    parser.add_argument(
        "--ocr",
        action="store_true",
        help="read pages without text with Tesseract OCR (off by default; needs tesseract-ocr)",
    )
    parser.add_argument(
        "--ocr-lang",
        type=ocr_language_argument,
        default=None,
        metavar="LANG",
        help="the languages --ocr reads, as Tesseract's codes: eng (default), deu, deu+eng",
    )


def extraction_options(args: argparse.Namespace) -> LoadOptions:
    """How load_any / load_source read the file, as add_extraction_options set it."""
    return LoadOptions(
        max_pages=args.max_pages,
        password=args.password,
        use_cache=not args.no_cache,
        ocr=args.ocr,
        ocr_language=ocr_language(args),
    )


def ocr_language_argument(text: str) -> str:
    """``--ocr-lang``'s value, checked as argparse checks a type."""
    try:
        return check_ocr_language(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def ocr_language(args: argparse.Namespace) -> str:
    """The language of ``--ocr``; ``--ocr-lang`` alone is a usage error (it reads nothing)."""
    language = getattr(args, "ocr_lang", None)
    if language is None:
        return DEFAULT_OCR_LANGUAGE
    if not args.ocr:
        raise UsageError("--ocr-lang needs --ocr")
    return str(language)


def check_max_pages(max_pages: int | None) -> None:
    if max_pages is not None and max_pages < 0:
        raise UsageError(f"--max-pages must be >= 0, not {max_pages}")


def write_stdout(data: bytes) -> None:
    """``data`` to stdout: the exact bytes to a pipe or a file; on a terminal, with the
    controls that a terminal would obey made visible (a document's or a log's text
    can hold escape sequences), as `ls` shows a name."""
    try:
        if sys.stdout.isatty():
            data = terminal_text(data.decode("utf-8", "surrogateescape")).encode("utf-8")
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        # The reader (head, less) left early; that is its right, not an error of ours.
        sys.stdout = None


def load_pdf(args: argparse.Namespace) -> Doc:
    """The Doc of args.path; one warning line on stderr names the pages that could not be read."""
    return load_pdf_damaged(args)[0]


def load_pdf_damaged(
    args: argparse.Namespace, answering: Options | None = None
) -> tuple[Doc, frozenset[int]]:
    """:func:`load_pdf`, with the pages that could not be read (already warned of).

    ``answering``: the one request the Doc is for; a page range on a file not in
    the cache reads only the pages its answer needs (the Doc is partial, and the
    warning names the damaged pages among those read)."""
    found = load_any(args.path, extraction_options(args), kind=DEFAULT_KIND, answering=answering)
    if found.unreadable:
        warning = f"{quoted(args.path)}: {describe(found.unreadable)}"
        print(f"siftui: warning: {quoted(warning)}", file=sys.stderr, flush=True)
    return paged_doc(found.doc), frozenset(page.page for page in found.unreadable)


def warn_textless(
    args: argparse.Namespace, doc: Doc, answer: Rendered, damaged: frozenset[int]
) -> None:
    """One warning line on stderr when pages the answer shows have no text: the agent
    gets their markers alone (`--- page 1 ---`) and no word of why."""
    empty = [page for page in answer_textless(doc, answer) if page not in damaged]
    if not empty:
        return
    advice = "OCR found no text on it either" if args.ocr else "OCR with --ocr"
    if args.ocr and len(empty) > 1:
        advice = "OCR found no text on them either"
    warning = f"{quoted(args.path)}: {textless_warning(empty, advice)}"
    print(f"siftui: warning: {quoted(warning)}", file=sys.stderr, flush=True)


def check_pdf_options(options: Options) -> None:
    """Reject a malformed --pages or --grep before a long extraction, not after."""
    try:
        check_options(options)
    except (BadPages, BadGrep) as error:
        raise UsageError(str(error)) from None


def token_counter() -> TokenCounter:
    """runes/4, plus o200k_base and cl100k_base counts when their vocabularies load."""
    from siftui.sources.tokens import token_counts  # tiktoken only for the commands that count

    def count(text: str) -> dict[str, int]:
        counts = token_counts(text)
        return {"runes/4": estimated_tokens(len(text)), **dict(counts.tokens)}

    return count
