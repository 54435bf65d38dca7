"""Text of a Word story that no call shows at a given OutCap, and what grep still reaches.

Pure: no I/O. The Word counterpart of :mod:`siftui.core.unreachable`, in its
types (a :class:`~siftui.core.unreachable.PageReach` per paragraph, ``page``
holding the paragraph's number).

Under D3 a block longer than the OutCap is shown cut to the OutCap
(``range="P72"``), and a range that holds it further on stops before it; the
map shows less (D2). Under D4 an anchor with window 0 shows the paragraph's
line alone, cut to the OutCap: that reaches the start of a long paragraph
behind the tables of its block. So of block n's text, the runes a call can show
are those before the OutCap and those of the paragraph's line before the OutCap
(counted from the line's start); the others are *unreachable*. A story without
paragraphs is its tables as one block (``T1 cut to …``), shown from its start.

Grep (D5) shows whole lines (a line longer than 400 characters as a 400-rune
window that the agent can aim anywhere, the line's prefix included) when the
block fits the OutCap; the line breaks between a block's lines are never shown
by grep. A rune counts as grep-reachable under the same rules as a PDF's:
its line's smallest grep block fits the OutCap with the shortest header, as
the matching line (every window, or only the two end windows) or as the
context line of a neighbour (its first 400 characters). The same assumption
holds: the agent can aim a match at any character of a line's text.

With an OutCap in bytes (a :class:`~siftui.core.budget.Unit`), the cuts fall
where the answers' do (the longest prefix of at most ``out_cap`` bytes), a block
fits when its UTF-8 form does and the smallest OutCap is in bytes; the runes
stay code points of the text, as a PDF's do. What grep reaches is then a lower
bound, counted as if the OutCap were ``out_cap // 4`` code points (at most 4
bytes each, so such a block always fits).
"""

from __future__ import annotations

from siftui.core.budget import CHARS, Unit
from siftui.core.matching import ELLIPSIS, LINE_WINDOW
from siftui.core.unreachable import GREP_HEADER_MIN, PageReach, Unreachable
from siftui.core.word.index import StoryIndex, index_story
from siftui.core.word.model import DocxDoc

__all__ = ["docx_unreachable"]

_MATCH = len("> ")
_CONTEXT = len("  ")


def docx_unreachable(
    doc: DocxDoc, out_cap: int, scope: str = "body", unit: Unit = CHARS
) -> Unreachable:
    """Per paragraph, the runes no call shows at ``out_cap`` (counted in ``unit``) and
    what grep reaches."""
    if isinstance(out_cap, bool) or not isinstance(out_cap, int) or out_cap < 1:
        raise ValueError(f"out_cap must be a whole number >= 1, not {out_cap!r}")
    story = doc.stories.get(scope or "body")
    if story is None:
        return Unreachable(out_cap, 0, (), 1, 0, unit="paragraph", budget=unit.name)
    index = index_story(story)
    reaches: list[PageReach] = []
    largest, largest_block = 0, 0
    numbered = index.count > 0  # else the story's one block is its tables, numbered 0
    for number in range(1, index.blocks + 1):
        start, end = index.starts[number - 1], index.starts[number]
        if start == end:
            continue
        lines = index.lines[start:end]
        length = sum(len(text) for text in lines) + len(lines) - 1
        size = length if unit is CHARS else unit.size("\n".join(lines))
        if size > largest:
            largest, largest_block = size, number if numbered else 0
        if size <= out_cap:
            continue
        shown = _shown_spans(index, number, start, out_cap, unit)
        hidden = length - _union_length(shown, length)
        if hidden <= 0:
            continue
        room = out_cap if unit is CHARS else max(out_cap // 4, 1)
        grep = _grep_reachable(index, start, end, room)
        reaches.append(
            PageReach(
                page=number if numbered else 0,
                runes=hidden,
                grep_reachable_runes=_overlap_outside(grep, shown),
                block_runes=length,
            )
        )
    return Unreachable(
        out_cap=out_cap,
        document_runes=index.full_length,
        pages=tuple(reaches),
        smallest_out_cap=max(largest, 1),
        largest_block_page=largest_block,
        unit="paragraph",
        budget=unit.name,
    )


def _shown_spans(
    index: StoryIndex, number: int, start: int, out_cap: int, unit: Unit
) -> list[tuple[int, int]]:
    """Spans of block ``number``'s text that a range (its start) or an anchor with
    window 0 (its paragraph's line's start) shows, each cut to ``out_cap`` in ``unit``."""
    spans = [(0, len(unit.cut(index.block_text(number), out_cap)))]
    if number <= index.count and index.para_line[number - 1] >= 0:
        at = index.para_line[number - 1]
        offset = sum(len(text) + 1 for text in index.lines[start:at])
        spans.append((offset, offset + len(unit.cut(index.lines[at], out_cap))))
    return spans


def _union_length(spans: list[tuple[int, int]], length: int) -> int:
    covered, reach = 0, 0
    for begin, end in sorted(spans):
        begin, end = max(begin, reach), min(end, length)
        if end > begin:
            covered += end - begin
            reach = end
    return covered


def _overlap_outside(spans: list[tuple[int, int]], shown: list[tuple[int, int]]) -> int:
    """Runes of ``spans`` (disjoint) that no span of ``shown`` covers."""
    total = 0
    for begin, end in spans:
        inside = _union_length([(max(a, begin), min(b, end)) for a, b in shown], end)
        total += (end - begin) - inside
    return total


def _shown_length(length: int) -> int:
    return length if length <= LINE_WINDOW else LINE_WINDOW + len(ELLIPSIS)


def _grep_reachable(
    index: StoryIndex, first: int, last: int, out_cap: int
) -> list[tuple[int, int]]:
    """Spans, in the text of the block of lines first..last-1, that a grep answer shows."""
    lines = index.lines
    room = out_cap - GREP_HEADER_MIN - 1

    def context(at: int) -> int:
        if at < 0 or at >= len(lines):
            return 0
        return _CONTEXT + _shown_length(len(lines[at])) + 1

    def base(at: int) -> int:
        return _MATCH + context(at - 1) + context(at + 1) + len("\n--")

    def searchable(at: int) -> bool:
        return 0 <= at < len(lines) and index.texts[at] is not None

    spans: list[tuple[int, int]] = []
    offset = 0
    for at in range(first, last):
        length = len(lines[at])
        here = base(at)
        whole = here + (length if length <= LINE_WINDOW else LINE_WINDOW + 2 * len(ELLIPSIS))
        if not searchable(at):
            pass
        elif whole <= room:  # every window fits
            spans.append((offset, offset + length))
            offset += length + 1
            continue
        elif length > LINE_WINDOW and here + LINE_WINDOW + len(ELLIPSIS) <= room:
            spans.append((offset, offset + LINE_WINDOW))
            spans.append((offset + length - LINE_WINDOW, offset + length))
            offset += length + 1
            continue
        for neighbour in (at - 1, at + 1):
            if searchable(neighbour):
                smallest = min(len(lines[neighbour]), LINE_WINDOW + len(ELLIPSIS))
                if base(neighbour) + smallest <= room:
                    spans.append((offset, offset + min(length, LINE_WINDOW)))
                    break
        offset += length + 1
    return spans
