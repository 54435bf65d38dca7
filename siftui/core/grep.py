"""Grep blocks with page numbers (contract rule R4), on RE2: linear time."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import re2

from siftui.core.docindex import DocIndex, without_surrogates

MAX_PATTERN_BYTES = 200
MAX_SHOWN = 100
LINE_WINDOW = 400
ELLIPSIS = "…"
NARROW = 'narrow the pattern or add pages="a-b"'


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
        return regex.search(without_surrogates(line))


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


# A pattern that names the start or end of the whole text, turns multi-line mode
# off, or matches any byte (\C, which may also match "\n" or split a character)
# means something else in a page searched at once: search it line by line.
_LINE_BY_LINE = re.compile(r"\\[AzC]|\(\?[a-zA-Z]*-[a-zA-Z]*m")
GREP_MEMO_SIZE = 32


@lru_cache(maxsize=64)
def _page_regex(pattern: str) -> Any:
    """``pattern`` for a whole page of stripped lines joined by "\\n" (UTF-8 bytes):
    multi-line, so ^ and $ are the lines' ends, and never matching "\\n", so no
    match spans two lines. None when only a line-by-line search is exact."""
    if _LINE_BY_LINE.search(pattern):
        return None
    options = _options(any(ch.isupper() for ch in pattern))
    options.never_nl = True
    try:
        return re2.compile(("(?m)" + pattern).encode("utf-8"), options)
    except re2.error:
        return None


def _page_hits(index: DocIndex, page: int, pattern: str) -> list[tuple[int, int]]:
    """(line, match start in code points) of every matching line of ``page``."""
    page_regex = _page_regex(pattern)
    if page_regex is None:
        regex = compile_pattern(pattern)
        by_line = []
        for at, text in enumerate(index.lines(page)):
            match = _search(regex, text)
            if match is not None:
                by_line.append((at, match.start()))
        return by_line
    data = index.page_bytes(page)
    hits: list[tuple[int, int]] = []
    position = line = counted = 0
    while position <= len(data):
        found = page_regex.search(data, position)
        if found is None:
            break
        start = found.start()
        line += data.count(b"\n", counted, start)
        counted = start
        line_start = data.rfind(b"\n", 0, start) + 1
        # The match's start in code points of its line (the bytes before it, decoded).
        hits.append((line, len(data[line_start:start].decode("utf-8"))))
        line_end = data.find(b"\n", start)
        if line_end < 0:
            break
        position = line_end + 1
    return hits


def _matches(index: DocIndex, pattern: str, first: int, last: int) -> tuple[int, list[str]]:
    """The number of matching lines in pages first..last and the first 100 blocks."""
    key = ("grep", pattern, first, last)
    with index.memo_lock:
        cached = index.memo.get(key)
    if cached is not None:
        return cached  # type: ignore[return-value]
    compile_pattern(pattern)  # the contract's checks and error messages come first
    hits = 0
    blocks: list[str] = []
    for page in range(first, last + 1):
        found = _page_hits(index, page, pattern)
        hits += len(found)
        if len(blocks) < MAX_SHOWN:
            lines = index.lines(page)
            for at, start in found[: MAX_SHOWN - len(blocks)]:
                blocks.append(_block(page, lines, at, start))
    result = (hits, blocks)
    with index.memo_lock:  # threads grepping one Doc: evict and store as one step
        while len(index.memo) >= GREP_MEMO_SIZE:
            index.memo.pop(next(iter(index.memo)))
        index.memo[key] = result
    return result


def fit_blocks(
    pattern: str, hits: int, blocks: Sequence[str], out_cap: int, narrow: str = NARROW
) -> tuple[str, str]:
    """R4's answer from its blocks: the header, the whole blocks that fit ``out_cap``,
    and the note saying how it was cut (content, note). Word's grep (D5) shares it,
    with its own advice for narrowing the search (``narrow``)."""
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
        note = f"showing {kept} of {hits} matches to fit OutCap; {narrow}"
    elif hits > MAX_SHOWN:
        note = f"showing the first {MAX_SHOWN} of {hits} matches; {narrow}"
    else:
        note = ""
    return content, note


def grep(index: DocIndex, pattern: str, first: int, last: int, out_cap: int) -> GrepResult:
    """Search pages first..last (1-based, inclusive) of an indexed Doc."""
    hits, blocks = _matches(index, pattern, first, last)

    content, note = fit_blocks(pattern, hits, blocks, out_cap)
    return GrepResult(content=content, hits=hits, note=note)
