"""Grep blocks with page numbers (contract rule R4), on RE2: linear time.

The pattern and line rules are shared with Word's D5 (siftui.core.matching);
this module makes a PDF's match blocks, ``p. N:`` lines, page by page.
"""

from __future__ import annotations

from siftui.core.budget import CHARS, Unit
from siftui.core.docindex import DocIndex
from siftui.core.matching import (
    ELLIPSIS,
    LINE_WINDOW,
    MAX_PATTERN_BYTES,
    MAX_SHOWN,
    BadGrep,
    GrepResult,
    compile_pattern,
    fit_blocks,
    joined_regex,
    match_line,
    search_line,
    window,
)

__all__ = [
    "ELLIPSIS",
    "LINE_WINDOW",
    "MAX_PATTERN_BYTES",
    "MAX_SHOWN",
    "NARROW",
    "BadGrep",
    "GrepResult",
    "compile_pattern",
    "grep",
    "match_block",
    "page_hits",
]

NARROW = 'narrow the pattern or add pages="a-b"'


def match_block(page: int, lines: tuple[str, ...], at: int, match_start: int) -> str:
    """The match block of line ``at`` of page ``page``: its neighbours on the page
    (when not empty) as ``p. N-`` lines, the match as a ``p. N:`` line, then ``--``."""
    shown = []
    if at > 0 and lines[at - 1]:
        shown.append(f"p. {page}- {window(lines[at - 1], 0)}")
    shown.append(f"p. {page}: {match_line(lines[at], match_start)}")
    if at + 1 < len(lines) and lines[at + 1]:
        shown.append(f"p. {page}- {window(lines[at + 1], 0)}")
    shown.append("--")
    return "\n".join(shown)


GREP_MEMO_SIZE = 32


def page_hits(index: DocIndex, page: int, pattern: str) -> list[tuple[int, int]]:
    """(line, match start in code points) of every matching line of ``page``."""
    page_regex = joined_regex(pattern)
    if page_regex is None:
        regex = compile_pattern(pattern)
        by_line = []
        for at, text in enumerate(index.lines(page)):
            match = search_line(regex, text)
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
        found = page_hits(index, page, pattern)
        hits += len(found)
        if len(blocks) < MAX_SHOWN:
            lines = index.lines(page)
            for at, start in found[: MAX_SHOWN - len(blocks)]:
                blocks.append(match_block(page, lines, at, start))
    result = (hits, blocks)
    with index.memo_lock:  # threads grepping one Doc: evict and store as one step
        while len(index.memo) >= GREP_MEMO_SIZE:
            index.memo.pop(next(iter(index.memo)))
        index.memo[key] = result
    return result


def grep(
    index: DocIndex, pattern: str, first: int, last: int, out_cap: int, unit: Unit = CHARS
) -> GrepResult:
    """Search pages first..last (1-based, inclusive) of an indexed Doc."""
    hits, blocks = _matches(index, pattern, first, last)

    content, note = fit_blocks(pattern, hits, blocks, out_cap, NARROW, unit)
    return GrepResult(content=content, hits=hits, note=note)
