"""The grep rules the PDF answers (SPEC.md R4) and the Word answers (WORD.md D5) share.

Pure: no I/O. The pattern (at most 200 bytes of UTF-8, smart case, RE2, the
error texts), searching one line or many lines joined by "\\n" at once, the
400-character window around a long line's match, the answer's header, and
fitting whole match blocks to OutCap. siftui.core.grep makes a PDF's match
blocks with them, siftui.core.word.grep a Word story's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from siftui.core.budget import CHARS, Unit
from siftui.core.text import without_surrogates

__all__ = [
    "ELLIPSIS",
    "LINE_WINDOW",
    "MAX_PATTERN_BYTES",
    "MAX_SHOWN",
    "BadGrep",
    "GrepResult",
    "compile_pattern",
    "count_phrase",
    "fit_blocks",
    "grep_header",
    "joined_regex",
    "match_line",
    "re2_module",
    "search_line",
    "window",
]

MAX_PATTERN_BYTES = 200
MAX_SHOWN = 100
LINE_WINDOW = 400
ELLIPSIS = "…"


class BadGrep(ValueError):
    """A grep pattern the contract rejects; the message is shown to users as is."""


@dataclass(frozen=True)
class GrepResult:
    """A grep answer's content, its number of matching lines and its note."""

    content: str
    hits: int
    note: str


def re2_module() -> Any:
    """google-re2, imported at the first grep, not when a TUI or server starts (about 4 ms)."""
    import re2

    return re2


def _options(case_sensitive: bool) -> Any:
    options = re2_module().Options()
    options.log_errors = False
    options.case_sensitive = case_sensitive
    return options


@lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> Any:
    """Check and compile ``pattern`` (smart case) or raise :class:`BadGrep`."""
    if len(pattern.encode("utf-8", "surrogatepass")) > MAX_PATTERN_BYTES:
        raise BadGrep(f"pattern longer than {MAX_PATTERN_BYTES} bytes")
    try:
        pattern.encode("utf-8")
    except UnicodeEncodeError:
        raise BadGrep("invalid grep: pattern is not valid UTF-8") from None
    case_sensitive = any(ch.isupper() for ch in pattern)
    re2 = re2_module()
    try:
        return re2.compile(pattern, _options(case_sensitive))
    except re2.error as error:
        raise BadGrep(f"invalid grep: {_error_text(error)}") from None


def _error_text(error: Exception) -> str:
    detail = error.args[0] if error.args else ""
    if isinstance(detail, bytes):
        return detail.decode("utf-8", "replace")
    return str(detail)


def search_line(regex: Any, line: str) -> Any:
    """The first match of ``regex`` in ``line``, or None.

    RE2 sees UTF-8, and a lone surrogate (possible in a Doc read from JSON) has
    none: it is searched as U+FFFD, one code point for one, so that positions
    and the shown line stay those of the original text.
    """
    try:
        return regex.search(line)
    except UnicodeEncodeError:
        return regex.search(without_surrogates(line))


# A pattern that names the start or end of the whole text, turns multi-line mode
# off, or matches any byte (\C, which may also match "\n" or split a character)
# means something else in many lines searched at once: search it line by line.
@functools.cache
def _line_by_line() -> re.Pattern[str]:
    """Compiled when a grep first asks, not when a start imports this module."""
    return re.compile(r"\\[AzC]|\(\?[a-zA-Z]*-[a-zA-Z]*m")


@lru_cache(maxsize=64)
def joined_regex(pattern: str) -> Any:
    """``pattern`` for many lines joined by "\\n" (UTF-8 bytes) searched at once:
    multi-line, so ^ and $ are the lines' ends, and never matching "\\n", so no
    match spans two lines. None when only a line-by-line search is exact."""
    if _line_by_line().search(pattern):
        return None
    options = _options(any(ch.isupper() for ch in pattern))
    options.never_nl = True
    re2 = re2_module()
    try:
        return re2.compile(("(?m)" + pattern).encode("utf-8"), options)
    except re2.error:
        return None


def window(line: str, start: int) -> str:
    """``line`` as a match block shows it: whole up to 400 characters, else the 400
    from ``start``, with "…" where it was cut."""
    if len(line) <= LINE_WINDOW:
        return line
    end = start + LINE_WINDOW
    return (ELLIPSIS if start > 0 else "") + line[start:end] + (ELLIPSIS if end < len(line) else "")


def match_line(line: str, match_start: int) -> str:
    """A matching line as shown: the window that centres the match where it can."""
    return window(line, max(0, min(match_start - LINE_WINDOW // 2, len(line) - LINE_WINDOW)))


def count_phrase(hits: int) -> str:
    """ "no matches", "1 match", "7 matches"."""
    if hits == 0:
        return "no matches"
    return "1 match" if hits == 1 else f"{hits} matches"


def grep_header(pattern: str, hits: int) -> str:
    """A grep answer's first line: the pattern, the count, and the cut at 100."""
    header = f'grep "{pattern}": {count_phrase(hits)}'
    if hits > MAX_SHOWN:
        header += f", showing the first {MAX_SHOWN}"
    return header


def fit_blocks(
    pattern: str,
    hits: int,
    blocks: Sequence[str],
    out_cap: int,
    narrow: str,
    unit: Unit = CHARS,
) -> tuple[str, str]:
    """A grep answer from its match blocks: the header, the whole blocks that fit
    ``out_cap`` (measured in ``unit``), and the note saying how it was cut
    (content, note). ``narrow`` is the advice for narrowing the search (PDF:
    pages=, Word: range=)."""
    measure = unit.size
    header = grep_header(pattern, hits)
    kept = len(blocks)
    size = measure(header) + sum(measure(b) + 1 for b in blocks)
    while kept and size > out_cap:
        kept -= 1
        size -= measure(blocks[kept]) + 1
    content = unit.cut("\n".join([header, *blocks[:kept]]), out_cap)

    if kept < len(blocks):
        note = f"showing {kept} of {hits} matches to fit OutCap; {narrow}"
    elif hits > MAX_SHOWN:
        note = f"showing the first {MAX_SHOWN} of {hits} matches; {narrow}"
    else:
        note = ""
    return content, note
