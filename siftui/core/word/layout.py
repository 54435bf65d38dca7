"""The layout of a Word answer (docs/WORD.md D1-D5): its blocks and lines.

Pure (no I/O, no Textual, no OOXML). The same :class:`~siftui.core.layout.Layout` as a
PDF answer's, with the story's *blocks* (block n = the tables after P<n-1>, then
paragraph n's line) in place of pages: ``line_pages[i]`` is the block line ``i``
belongs to (0 for none), ``whole``/``cut``/``hits``/``cap_page`` are block numbers,
and ``prefixes`` says where each line's anchor prefix ends (Role.ANCHOR) or where
the searched text starts in a grep match line (Role.MATCH).

With the DocxDoc the layout is computed from the story's index. Without it (an
answer read from a call log) the anchors, table prefixes and notes are parsed,
best effort: a table row matched by grep, or a match line windowed past its
prefix, then belongs to no block, and whether a map's leading block was cut is
not known.
"""

from __future__ import annotations

import re

from siftui.core.layout import AnswerKind, Layout, Role
from siftui.core.word.index import StoryIndex, index_story
from siftui.core.word.layout_grep import grep_layout
from siftui.core.word.layout_rows import Rows, anchor_length, index_rows, parsed_rows
from siftui.core.word.model import DocxDoc, Story
from siftui.core.word.render import (
    INSTRUCTION,
    BadOption,
    DocxOptions,
    Rendered,
    asked_span,
)

__all__ = ["docx_layout_of", "story_of"]

_CUT_TO = re.compile(r"P([0-9]{1,18}) cut to ")
_CUT_AT = re.compile(r"cut at P([0-9]{1,18});")
_ITEM = re.compile(r" \[P([0-9]{1,18})#[0-9a-f]{4}\]\Z")
_MORE = re.compile(r"- … \([0-9]+ more\)\Z")


def story_of(doc: DocxDoc | None, options: DocxOptions) -> Story | None:
    """The story ``options`` read (None without a doc or for an unknown scope)."""
    if doc is None:
        return None
    return doc.stories.get(options.scope or "body")


def docx_layout_of(answer: Rendered, options: DocxOptions, doc: DocxDoc | None = None) -> Layout:
    """The layout of ``answer``, rendered from ``doc`` (if known) for ``options``."""
    lines = tuple(answer.content.split("\n")) if answer.content else ()
    story = story_of(doc, options)
    if options.grep:
        return grep_layout(answer, options, lines, story)
    if not lines:
        whole = tuple(range(answer.first, answer.last + 1)) if answer.first >= 1 else ()
        return Layout(AnswerKind.EMPTY, (), (), (), whole, 0, (), 0, ())
    if story is not None and answer.last > story.count:
        story = None  # not an answer from this story: read it as a logged one
    index = index_story(story) if story is not None else None
    if answer.map:
        return _map_layout(answer, lines, story, index)
    if answer.first < 1:  # N = 0: the tables are one block, no paragraph's
        rows = Rows()
        if index is not None:
            index_rows(rows, index, None, 1, 1)
        else:
            parsed_rows(rows, lines, 0, 0, 0)
        return rows.layout(AnswerKind.FULL, lines, (), 0, (), 0)
    asked = bool(options.range.strip() or options.anchor.strip())
    kind = AnswerKind.PAGES if asked else AnswerKind.FULL
    rows = Rows()
    if story is not None and index is not None:
        cut = _index_reading(rows, answer, options, story, index)
        cap = cut or (_cap_of(answer, options, story) if asked else 0)
    else:
        cut = _parsed_reading(rows, answer, lines)
        found = _CUT_AT.search(answer.note)
        cap = cut or (int(found.group(1)) + 1 if found and asked else 0)
    whole = tuple(block for block in range(answer.first, answer.last + 1) if block != cut)
    return rows.layout(kind, lines, whole, cut, (), cap)


def _alone(options: DocxOptions) -> bool:
    """An anchor with window 0: paragraph n's line alone (D4)."""
    return bool(options.anchor.strip()) and options.window == 0


def _index_reading(
    rows: Rows, answer: Rendered, options: DocxOptions, story: Story, index: StoryIndex
) -> int:
    """Rows of a D1/D3/D4 answer from the index; returns the block shown cut (0 none)."""
    first, last = answer.first, answer.last
    if _alone(options):
        at = index.para_line[first - 1]
        text = index.lines[at] if at >= 0 else ""
        rows.line(text, Role.ANCHOR, first, anchor_length(story.paragraphs[first - 1], first))
        return first if len(answer.content) < len(text) else 0
    index_rows(rows, index, story, first, last)
    return last if len(answer.content) < index.size(first, last) else 0


def _parsed_reading(rows: Rows, answer: Rendered, lines: tuple[str, ...]) -> int:
    found = _CUT_TO.match(answer.note)
    cut = int(found.group(1)) if found and int(found.group(1)) == answer.last else 0
    parsed_rows(rows, lines, answer.first, answer.last, cut)
    return cut


def _cap_of(answer: Rendered, options: DocxOptions, story: Story) -> int:
    """The first block a range or anchor reading asked for and did not get (0: none)."""
    try:
        asked = asked_span(options, story)
    except BadOption:
        return 0
    if asked is None:
        return 0
    end = asked[2] or asked[1]
    return answer.last + 1 if answer.last < end else 0


def _heading_numbers(story: Story) -> list[int]:
    """The paragraph numbers of the outline's items, in order (kept with the story)."""
    found = story.cache.get("layout-headings")
    if isinstance(found, list):
        return found
    numbers = [n for n, para in enumerate(story.paragraphs, 1) if para.text and para.heading]
    story.cache["layout-headings"] = numbers
    return numbers


def _map_layout(
    answer: Rendered, lines: tuple[str, ...], story: Story | None, index: StoryIndex | None
) -> Layout:
    # D2: title, blank, stats, blank, [outline heading and items, blank], instruction,
    # blank, leading blocks; the whole cut to OutCap.
    rows = Rows()
    for role in (Role.TITLE, Role.TEXT, Role.STATS, Role.TEXT):
        rows.add(role, 0)
    if len(lines) > 4 and lines[4] == "## Outline":
        rows.add(Role.HEADING, 0)
        numbers = iter(_heading_numbers(story)) if story is not None else None
        while len(rows) < len(lines) and lines[len(rows)] != INSTRUCTION:
            item = lines[len(rows)]
            if not item:
                rows.add(Role.TEXT, 0)
                continue
            if numbers is not None:
                number = 0 if _MORE.match(item) else next(numbers, 0)
            else:
                found = _ITEM.search(item)
                number = int(found.group(1)) if found else 0
            rows.add(Role.OUTLINE, number)
    rows.add(Role.INSTRUCTION, 0)
    rows.add(Role.TEXT, 0)
    start = len(rows)
    whole: tuple[int, ...] = tuple(range(1, answer.last + 1))
    cut = 0
    if start >= len(lines) or lines[start:] == ("",):
        # OutCap ran out before the leading blocks: none of them is shown.
        rows.add(Role.TEXT, 0)
        whole = ()
    elif index is not None and story is not None:
        index_rows(rows, index, story, 1, answer.last)
        if len("\n".join(lines[start:])) < index.size(1, answer.last):
            cut = rows.pages[len(lines) - 1]
            whole = tuple(range(1, cut))
    else:
        parsed_rows(rows, lines[start:], 1, answer.last, 0)
    # No "OutCap runs out" mark: a map answers for the whole story at once.
    return rows.layout(AnswerKind.MAP, lines, whole, cut, (), 0)
