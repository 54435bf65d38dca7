"""The layout of a Word grep answer (docs/WORD.md D5): header, match blocks and the
blocks holding the matches shown.

Pure. With the story the match lines are found again in its index (the search
is memoised with the story, as render_docx's is); without it the lines are read:
``> `` a match, ``  `` context, ``--`` a separator, each block found from the
line's anchor or table prefix where it has one.
"""

from __future__ import annotations

from siftui.core.budget import check_unit
from siftui.core.layout import AnswerKind, Layout, Role
from siftui.core.matching import ELLIPSIS, LINE_WINDOW, grep_header, match_line, window
from siftui.core.word.grep import matching_lines, remember
from siftui.core.word.index import StoryIndex, index_story
from siftui.core.word.layout_rows import PARA_PREFIX, TABLE_PREFIX, Rows, block_of, text_start
from siftui.core.word.model import INDENT, Story
from siftui.core.word.render import (
    BadGrep,
    BadOption,
    DocxOptions,
    Rendered,
    asked_span,
)


def grep_layout(
    answer: Rendered, options: DocxOptions, lines: tuple[str, ...], story: Story | None
) -> Layout:
    header = min(len(lines), options.grep.count("\n") + 1)  # the header quotes the pattern
    if story is not None:
        try:
            return _index_grep(answer, options, lines, story, header)
        except (BadOption, BadGrep):  # options render_docx refused: no answer of its own
            pass
    return _parsed_grep(lines, header)


def _searched(index: StoryIndex, story: Story, options: DocxOptions) -> tuple[int, int]:
    """The projection lines D5 searches for ``options`` (0-based, end exclusive)."""
    asked = asked_span(options, story)
    if asked is None:
        return 0, len(index.lines)
    first, last, alone = asked
    if alone:
        at = index.para_line[alone - 1]
        return (at, at + 1) if at >= 0 else (0, 0)
    return index.starts[first - 1], index.starts[last]


def _match_prefix(line: str, text: str, match_start: int) -> int:
    """Where the searched text starts in the match line as shown (after "> ")."""
    start = len(line) - len(text)
    if len(line) <= LINE_WINDOW:
        return 2 + start
    window = max(0, min(start + match_start - LINE_WINDOW // 2, len(line) - LINE_WINDOW))
    return 2 + (len(ELLIPSIS) if window > 0 else 0) + max(0, start - window)


def _index_grep(
    answer: Rendered, options: DocxOptions, lines: tuple[str, ...], story: Story, header: int
) -> Layout:
    index = index_story(story)
    first, last = _searched(index, story, options)
    key = ("layout-grep", options.grep, first, last)
    memo = story.cache.get(key)
    if isinstance(memo, tuple):
        count, found = memo
    else:  # the search render_docx made (it keeps the blocks, not where their lines are)
        count, found = matching_lines(index, options.grep, first, last, story.cache)
        remember(story.cache, key, (count, found))
    # The fitting of siftui.core.matching.fit_blocks: whole blocks while the answer fits OutCap.
    measure = check_unit(options.unit).size
    size = measure(grep_header(options.grep, count))
    rows = Rows()
    for _ in range(header):
        rows.add(Role.GREP_HEADER, 0)
    hits: set[int] = set()
    projection = index.lines
    for at, start in found:
        shown = []
        if at > 0:
            shown.append(("  " + window(projection[at - 1], 0), Role.CONTEXT, at - 1, 0))
        text = index.texts[at] or ""
        prefix = _match_prefix(projection[at], text, start)
        matched = "> " + match_line(projection[at], len(projection[at]) - len(text) + start)
        shown.append((matched, Role.MATCH, at, prefix))
        if at + 1 < len(projection):
            shown.append(("  " + window(projection[at + 1], 0), Role.CONTEXT, at + 1, 0))
        size += sum(measure(item[0]) + 1 for item in shown) + len("\n--")
        if size > options.out_cap:
            break
        for item, role, number, length in shown:
            rows.line(item, role, block_of(index, number), length)
        rows.add(Role.SEPARATOR, 0)
        if block_of(index, at):
            hits.add(block_of(index, at))
    return rows.layout(AnswerKind.GREP, lines, (), 0, tuple(sorted(hits)), 0)


def _parsed_grep(lines: tuple[str, ...], header: int) -> Layout:
    rows = Rows()
    for _ in range(header):
        rows.add(Role.GREP_HEADER, 0)
    hits: set[int] = set()
    table = 0  # the block of the table whose prefix this match block showed last
    for line in lines[header:]:
        if line == "--":
            rows.add(Role.SEPARATOR, 0)
            table = 0
            continue
        if not line.startswith(("> ", "  ")):
            rows.add(Role.TEXT, 0)
            continue
        role = Role.MATCH if line.startswith(">") else Role.CONTEXT
        body = line[2:]
        para = PARA_PREFIX.match(body)
        opens = TABLE_PREFIX.match(body) if para is None else None
        if para is not None:
            page, prefix = int(para.group(1)), 2 + text_start(para.end())
        elif opens is not None:
            page = table = int(opens.group(1) or 0) + 1
            prefix = 2 + text_start(opens.end())
        elif body.startswith(INDENT):
            page, prefix = table, 2 + len(INDENT)
        else:  # windowed past its prefix: the text starts right after the ellipsis
            page, prefix = 0, 2 + (len(ELLIPSIS) if body.startswith(ELLIPSIS) else 0)
        if role is Role.MATCH:
            rows.add(role, page, prefix)
            if page:
                hits.add(page)
        else:
            rows.add(role, page)
    return rows.layout(AnswerKind.GREP, lines, (), 0, tuple(sorted(hits)), 0)
