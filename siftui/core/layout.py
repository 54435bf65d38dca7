"""The layout of an answer: what it holds, page by page and line by line.

Pure (no I/O, no Textual, no PyMuPDF). :func:`layout_of` says which pages an
answer shows whole or cut, which pages hold the grep hits it shows, where
OutCap runs out, and the role of each line (page marker, the map's title,
outline and instruction, grep match, context and separator). It works from the
structure render() builds (the Doc's page blocks, the map's sections, the grep
blocks), so a surface never has to read page numbers back out of the content.
``Rendered`` stays as the contract fixes it: the layout is computed beside it.

With the Doc, the layout is exact. Without it (an answer read from a call log)
the page blocks are found by their expected markers, in order, and whether a
map's last leading page was cut is not known.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import Enum

from siftui.core.doc import Doc
from siftui.core.docindex import DocIndex, index_of, marker
from siftui.core.render import INSTRUCTION, MAX_PAGES_PER_ANSWER, BadPages, Options, Rendered
from siftui.core.render import parse_pages as _parse_pages

__all__ = ["AnswerKind", "Layout", "Role", "layout_of", "pages_label"]


class Role(Enum):
    """What one line of an answer is (the values name the view's styles)."""

    TEXT = "text"
    MARKER = "marker"
    TITLE = "title"
    STATS = "stats"
    HEADING = "heading"
    OUTLINE = "outline"
    INSTRUCTION = "instruction"
    GREP_HEADER = "grep-header"
    MATCH = "match"
    CONTEXT = "context"
    SEPARATOR = "separator"
    ANCHOR = "anchor"  # a Word paragraph's line: its [P<n>#<hash> ...] prefix, then its text


class AnswerKind(Enum):
    """What the answer is, as R1-R4 make it."""

    FULL = "full text"
    MAP = "map"
    PAGES = "pages"
    GREP = "grep"
    EMPTY = "empty"


@dataclass(frozen=True)
class Layout:
    """An answer's pages and lines. ``line_pages[i]`` is the page line ``i`` belongs
    to (0 for none); ``cut`` is the page shown cut (0 for none); ``cap_page`` is
    the first page OutCap leaves out of a reading from the answer's first page
    (0 where that means nothing: grep answers, maps, an answer holding all it was asked).

    For a Word answer (siftui.core.word.layout) the "pages" are the story's blocks and
    ``prefixes`` gives each line's :meth:`prefix_length`; empty for PDF answers."""

    kind: AnswerKind
    lines: tuple[str, ...]
    roles: tuple[Role, ...]
    line_pages: tuple[int, ...]
    whole: tuple[int, ...]
    cut: int
    hits: tuple[int, ...]
    cap_page: int
    prefixes: tuple[int, ...] = ()

    def prefix_length(self, number: int) -> int:
        """Length of the ``p. N: `` / ``p. N- `` prefix of a grep line (0 for others).

        With ``prefixes`` (Word): the length of an anchor line's ``[P<n>#<hash> ...]``
        prefix, or where the searched text starts in a grep match line; else 0."""
        if self.prefixes:
            return self.prefixes[number]
        if self.roles[number] in (Role.MATCH, Role.CONTEXT):
            return len(f"p. {self.line_pages[number]}: ")
        return 0

    def marker_page(self, number: int) -> int:
        """The page a marker line opens (0 when the line is no marker)."""
        return self.line_pages[number] if self.roles[number] is Role.MARKER else 0


def pages_label(first: int, last: int) -> str:
    """ "page 25", "pages 3-5"; "no pages" for none."""
    if first < 1:
        return "no pages"
    return f"page {first}" if first == last else f"pages {first}-{last}"


def layout_of(answer: Rendered, options: Options, doc: Doc | None = None) -> Layout:
    """The layout of ``answer``, rendered from ``doc`` (if known) for ``options``."""
    index = index_of(doc) if doc is not None else None
    lines = tuple(answer.content.split("\n")) if answer.content else ()
    if options.grep:
        return _grep_layout(lines, options.grep)
    if answer.first < 1:
        return Layout(
            AnswerKind.EMPTY, lines, (Role.TEXT,) * len(lines), (0,) * len(lines), (), 0, (), 0
        )
    if answer.map:
        return _map_layout(answer, lines, index)
    kind = AnswerKind.PAGES if options.pages.strip() else AnswerKind.FULL
    roles, pages = _blocks(lines, 0, answer.first, answer.last, index)
    cut = _cut_page(answer, index)
    whole = tuple(page for page in range(answer.first, answer.last + 1) if page != cut)
    cap = _range_cap(answer, options, index, cut) if kind is AnswerKind.PAGES else 0
    return Layout(kind, lines, roles, pages, whole, cut, (), cap)


def _blocks(
    lines: tuple[str, ...], start: int, first: int, last: int, index: DocIndex | None
) -> tuple[tuple[Role, ...], tuple[int, ...]]:
    """Roles and pages of ``lines[start:]``: page blocks first..last joined by a blank line."""
    roles = [Role.TEXT] * (len(lines) - start)
    pages = [0] * (len(lines) - start)
    if index is not None:
        at = 0
        for page in range(first, last + 1):
            if at >= len(roles):
                break
            size = index.blocks[page - 1].count("\n") + 1
            roles[at] = Role.MARKER
            for line in range(at, min(at + size, len(roles))):
                pages[line] = page
            at += size + 1  # the blank line of the separator
        return tuple(roles), tuple(pages)
    page = first
    for at in range(len(roles)):
        number = start + at
        text = lines[number]
        # a marker, or what is left of one at the end of a cut answer
        whole = text == marker(page) or (number == len(lines) - 1 and marker(page).startswith(text))
        opens = bool(text) and whole and (at == 0 or lines[number - 1] == "")
        if page <= last and opens:
            roles[at] = Role.MARKER
            page += 1
        pages[at] = page - 1 if page > first else 0
    return tuple(roles), tuple(pages)


def _cut_page(answer: Rendered, index: DocIndex | None) -> int:
    """The page shown cut: the answer's last page when it ends before that page does."""
    if index is not None:
        return 0 if answer.content.endswith(index.blocks[answer.last - 1]) else answer.last
    if answer.note.startswith(f"page {answer.first} cut to "):
        return answer.first
    return 0


def _range_cap(answer: Rendered, options: Options, index: DocIndex | None, cut: int) -> int:
    """Where OutCap stopped a page range (0 when it holds the range, or stopped at 100 pages)."""
    if cut:
        return cut
    if index is None:
        return 0
    try:
        span = _parse_pages(options.pages, index.extracted)
    except BadPages:
        return 0
    if span is None or answer.last >= span[1]:
        return 0
    if answer.last - answer.first + 1 >= MAX_PAGES_PER_ANSWER:
        return 0
    return answer.last + 1


def _map_layout(answer: Rendered, lines: tuple[str, ...], index: DocIndex | None) -> Layout:
    # R2: title, blank, stats, blank, [outline heading and lines, blank], instruction,
    # blank, leading pages; the whole cut to OutCap.
    head = [Role.TITLE, Role.TEXT, Role.STATS, Role.TEXT]
    if len(lines) > len(head) and lines[len(head)] == "## Outline":
        head.append(Role.HEADING)
        while len(head) < len(lines) and lines[len(head)] != INSTRUCTION:
            head.append(Role.OUTLINE if lines[len(head)] else Role.TEXT)
    head += [Role.INSTRUCTION, Role.TEXT]
    start = min(len(head), len(lines))
    roles, pages = _blocks(lines, start, answer.first, answer.last, index)
    cut = _cut_page(answer, index) if index is not None else 0
    whole = tuple(page for page in range(answer.first, answer.last + 1) if page != cut)
    all_roles = (*head[:start], *roles)
    # No "OutCap runs out" mark: a map answers for the whole document at once.
    return Layout(AnswerKind.MAP, lines, all_roles, (0,) * start + pages, whole, cut, (), 0)


@functools.cache
def _grep_line() -> re.Pattern[str]:
    """A grep answer's hit line; compiled when a grep is first laid out."""
    return re.compile(r"p\. ([0-9]{1,12})([:-]) ")


def _grep_layout(lines: tuple[str, ...], pattern: str) -> Layout:
    header = min(len(lines), pattern.count("\n") + 1)  # the header quotes the pattern
    roles = [Role.GREP_HEADER] * header
    pages = [0] * header
    hits: set[int] = set()
    grep_line = _grep_line()
    for line in lines[header:]:
        found = grep_line.match(line)
        if line == "--":
            roles.append(Role.SEPARATOR)
            pages.append(0)
        elif found is None:
            roles.append(Role.TEXT)
            pages.append(0)
        else:
            page = int(found.group(1))  # at most 12 digits, written by grep itself
            roles.append(Role.MATCH if found.group(2) == ":" else Role.CONTEXT)
            pages.append(page)
            if found.group(2) == ":":
                hits.add(page)
    return Layout(AnswerKind.GREP, lines, tuple(roles), tuple(pages), (), 0, tuple(sorted(hits)), 0)
