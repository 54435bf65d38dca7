"""Grep over a story's lines, with the projection's lines as context (docs/WORD.md D5).

The pattern rules (200 bytes, smart case, RE2, error texts), the windowing of
long lines and the fitting to OutCap are the PDF grep's (docs/SPEC.md R4), so
they come from siftui.core.matching. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from siftui.core import matching
from siftui.core.budget import CHARS, Unit
from siftui.core.matching import GrepResult
from siftui.core.text import without_surrogates
from siftui.core.word.index import StoryIndex

__all__ = ["MEMO_SIZE", "NARROW", "docx_grep", "matching_lines", "remember"]

NARROW = 'narrow the pattern or add range="Pa..Pb"'
MEMO_SIZE = 32


def _encoded(index: StoryIndex, first: int, last: int, memo: dict[object, object]) -> bytes:
    key = ("bytes", first, last)
    found = memo.get(key)
    if isinstance(found, bytes):
        return found
    joined = "\n".join(text or "" for text in index.texts[first:last])
    try:
        data = joined.encode("utf-8")
    except UnicodeEncodeError:
        data = without_surrogates(joined).encode("utf-8")
    remember(memo, key, data)
    return data


def remember(memo: dict[object, object], key: object, value: object) -> None:
    """Keep ``value`` under ``key`` in a story's memo, the oldest entry out past MEMO_SIZE."""
    if len(memo) >= MEMO_SIZE:
        memo.pop(next(iter(memo)))
    memo[key] = value


def _one_line_each(index: StoryIndex, first: int, last: int) -> bool:
    """True when no searched text holds a "\\n" (a model read from JSON may)."""
    return not any(text is not None and "\n" in text for text in index.texts[first:last])


def _spans(regex: Any) -> Callable[[bytes, int], int | None]:
    """The start of ``regex``'s first match in data[position:], or None.

    google-re2's public search() builds a Match object in Python per call; a grep
    with thousands of matching lines spends most of its time there. Its RE2
    object's Match() gives the spans directly; the public API is the fallback.
    """
    compiled = getattr(regex, "_regexp", None)
    anchor = getattr(getattr(matching.re2_module(), "_Anchor", None), "UNANCHORED", None)
    if compiled is not None and anchor is not None and hasattr(compiled, "Match"):

        def fast(data: bytes, position: int) -> int | None:
            start = compiled.Match(anchor, data, position, len(data))[0][0]
            return None if start < 0 else int(start)

        return fast

    def public(data: bytes, position: int) -> int | None:
        found = regex.search(data, position)
        return None if found is None else int(found.start())

    return public


def matching_lines(
    index: StoryIndex, pattern: str, first: int, last: int, memo: dict[object, object]
) -> tuple[int, list[tuple[int, int]]]:
    """How many lines in first..last-1 match, and (line index, match start in the
    line's text) of the first MAX_SHOWN (100) of them."""
    if first >= last:
        return 0, []
    regex = matching.joined_regex(pattern)
    if regex is None or not _one_line_each(index, first, last):
        plain = matching.compile_pattern(pattern)
        found = []
        for at in range(first, last):
            text = index.texts[at]
            if text is not None:
                match = matching.search_line(plain, text)
                if match is not None:
                    found.append((at, match.start()))
        return len(found), found[: matching.MAX_SHOWN]
    data = _encoded(index, first, last, memo)
    search = _spans(regex)
    shown: list[tuple[int, int]] = []
    count = position = counted = 0
    at = first
    while position <= len(data):
        start = search(data, position)
        if start is None:
            break
        line_end = data.find(b"\n", start)
        at += data.count(b"\n", counted, start)
        counted = start
        if index.texts[at] is not None:  # not the prefix-only line of a table without rows
            count += 1
            if len(shown) < matching.MAX_SHOWN:
                line_start = data.rfind(b"\n", 0, start) + 1
                shown.append((at, len(data[line_start:start].decode("utf-8"))))
        if line_end < 0:
            break
        position = line_end + 1
    return count, shown


def _block(index: StoryIndex, at: int, match_start: int) -> str:
    lines = index.lines
    text = index.texts[at] or ""
    # The match start measured in the line as it stands (its prefix or indent first).
    start = len(lines[at]) - len(text) + match_start
    shown = []
    if at > 0:
        shown.append("  " + matching.window(lines[at - 1], 0))
    shown.append("> " + matching.match_line(lines[at], start))
    if at + 1 < len(lines):
        shown.append("  " + matching.window(lines[at + 1], 0))
    shown.append("--")
    return "\n".join(shown)


def docx_grep(
    index: StoryIndex,
    memo: dict[object, object],
    pattern: str,
    first: int,
    last: int,
    out_cap: int,
    unit: Unit = CHARS,
) -> GrepResult:
    """Search lines first..last-1 of the story's projection (0-based, end exclusive)."""
    matching.compile_pattern(pattern)  # the contract's checks and error messages come first
    key = ("grep", pattern, first, last)
    cached = memo.get(key)
    if isinstance(cached, tuple):
        hits, blocks = cached
    else:
        hits, found = matching_lines(index, pattern, first, last, memo)
        blocks = [_block(index, at, start) for at, start in found]
        remember(memo, key, (hits, blocks))

    content, note = matching.fit_blocks(pattern, hits, blocks, out_cap, NARROW, unit)
    return GrepResult(content, hits, note)
