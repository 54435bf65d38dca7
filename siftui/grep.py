"""Grep blocks with page numbers (contract rule R4), on RE2: linear time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import re2

from siftui.docindex import DocIndex

MAX_PATTERN_BYTES = 200
MAX_SHOWN = 100
LINE_WINDOW = 400
ELLIPSIS = "…"
NARROW = 'narrow the pattern or add pages="a-b"'
_SURROGATE = re.compile("[\ud800-\udfff]")


class BadGrep(ValueError):
    """A grep pattern the contract rejects; the message is shown to users as is."""


@dataclass(frozen=True)
class GrepResult:
    content: str
    hits: int
    note: str


def _options(case_sensitive: bool) -> Any:
    options = re2.Options()
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
    try:
        return re2.compile(pattern, _options(case_sensitive))
    except re2.error as error:
        raise BadGrep(f"invalid grep: {_error_text(error)}") from None


def _error_text(error: Exception) -> str:
    detail = error.args[0] if error.args else ""
    if isinstance(detail, bytes):
        return detail.decode("utf-8", "replace")
    return str(detail)


def _search(regex: Any, line: str) -> Any:
    """The first match of ``regex`` in ``line``, or None.

    RE2 sees UTF-8, and a lone surrogate (possible in a Doc read from JSON) has
    none: it is searched as U+FFFD, one code point for one, so that positions
    and the shown line stay those of the original text.
    """
    try:
        return regex.search(line)
    except UnicodeEncodeError:
        return regex.search(_SURROGATE.sub("\ufffd", line))


def _window(line: str, start: int) -> str:
    if len(line) <= LINE_WINDOW:
        return line
    end = start + LINE_WINDOW
    return (ELLIPSIS if start > 0 else "") + line[start:end] + (ELLIPSIS if end < len(line) else "")


def _match_line(line: str, match_start: int) -> str:
    return _window(line, max(0, min(match_start - LINE_WINDOW // 2, len(line) - LINE_WINDOW)))


def _block(page: int, lines: tuple[str, ...], at: int, match_start: int) -> str:
    shown = []
    if at > 0 and lines[at - 1]:
        shown.append(f"p. {page}- {_window(lines[at - 1], 0)}")
    shown.append(f"p. {page}: {_match_line(lines[at], match_start)}")
    if at + 1 < len(lines) and lines[at + 1]:
        shown.append(f"p. {page}- {_window(lines[at + 1], 0)}")
    shown.append("--")
    return "\n".join(shown)


def _count(n: int) -> str:
    if n == 0:
        return "no matches"
    return "1 match" if n == 1 else f"{n} matches"


def grep(index: DocIndex, pattern: str, first: int, last: int, out_cap: int) -> GrepResult:
    """Search pages first..last (1-based, inclusive) of an indexed Doc."""
    regex = compile_pattern(pattern)
    hits = 0
    blocks: list[str] = []
    for page in range(first, last + 1):
        lines = index.lines(page)
        for at, line in enumerate(lines):
            found = _search(regex, line)
            if found is None:
                continue
            hits += 1
            if len(blocks) < MAX_SHOWN:
                blocks.append(_block(page, lines, at, found.start()))

    header = f'grep "{pattern}": {_count(hits)}'
    if hits > MAX_SHOWN:
        header += f", showing the first {MAX_SHOWN}"

    kept = len(blocks)
    size = len(header) + sum(len(b) + 1 for b in blocks)
    while kept and size > out_cap:
        kept -= 1
        size -= len(blocks[kept]) + 1
    content = "\n".join([header, *blocks[:kept]])[:out_cap]

    if kept < len(blocks):
        note = f"showing {kept} of {hits} matches to fit OutCap; {NARROW}"
    elif hits > MAX_SHOWN:
        note = f"showing the first {MAX_SHOWN} of {hits} matches; {NARROW}"
    else:
        note = ""
    return GrepResult(content=content, hits=hits, note=note)
