"""The rows of a Word answer's layout: each line's role, block and prefix length.

Pure. Used by siftui.core.word.layout and siftui.core.word.layout_grep: rows come either
from a story's index (exact) or from parsing the answer's lines (an answer read
from a call log, best effort).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from siftui.core.layout import AnswerKind, Layout, Role
from siftui.core.word.index import StoryIndex
from siftui.core.word.model import PREFIX_WIDTH, Para, Story

# A paragraph line's prefix, [P<n>#<hash>] or [P<n>#<hash>  <annotations>], at a line's start.
PARA_PREFIX = re.compile(r"\[P([0-9]{1,18})#[0-9a-f]{4}(?:  [^\]\n]*)?\]")
# A table's prefix: [T<k>  <R>×<C> @start] or [T<k>  <R>×<C> @after:P<n>], maybe with an item.
TABLE_PREFIX = re.compile(
    r"\[T[0-9]+  [0-9]+×[0-9]+ (?:@start|@after:P([0-9]{1,18}))(?:  [^\]\n]*)?\]"
)


def anchor_length(para: Para, number: int) -> int:
    """len(para.prefix(number)), without hashing its text: the hash is 4 hex digits."""
    notes = para.annotations()
    return len(f"[P{number}#") + 4 + (len(notes) + 2 if notes else 0) + 1


def text_start(prefix_length: int) -> int:
    """Where a line's text starts after a prefix of this length (docs/WORD.md *Lines*)."""
    return max(PREFIX_WIDTH, prefix_length) + 1


@dataclass
class Rows:
    """Roles, blocks and prefix lengths of an answer's lines, built in order."""

    roles: list[Role] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)
    prefixes: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.roles)

    def add(self, role: Role, page: int, prefix: int = 0) -> None:
        self.roles.append(role)
        self.pages.append(page)
        self.prefixes.append(prefix)

    def line(self, text: str, role: Role, page: int, prefix: int = 0) -> None:
        """One projection line; a "\\n" in it (a model read from JSON) continues it as text."""
        self.add(role, page, prefix)
        for _ in range(text.count("\n")):
            self.add(Role.TEXT, page)

    def layout(
        self,
        kind: AnswerKind,
        lines: tuple[str, ...],
        whole: tuple[int, ...],
        cut: int,
        hits: tuple[int, ...],
        cap: int,
    ) -> Layout:
        """The Layout of ``lines`` (the rows cut to them: an answer cut to OutCap)."""
        size = len(lines)
        missing = max(0, size - len(self.roles))
        roles = (*self.roles[:size], *([Role.TEXT] * missing))
        pages = (*self.pages[:size], *([0] * missing))
        prefixes = tuple(
            min(length, len(text))
            for length, text in zip((*self.prefixes[:size], *([0] * missing)), lines, strict=True)
        )
        return Layout(kind, lines, roles, pages, whole, cut, hits, cap, prefixes)


def block_of(index: StoryIndex, at: int) -> int:
    """The block holding line ``at`` of the projection (0 in a story without paragraphs)."""
    return bisect_right(index.starts, at) if index.count else 0


def index_rows(rows: Rows, index: StoryIndex, story: Story | None, first: int, last: int) -> None:
    """Rows of blocks first..last (1-based) of the story's projection."""
    for block in range(first, last + 1):
        page = block if index.count else 0
        opens = index.para_line[block - 1] if index.count else -1
        for at in range(index.starts[block - 1], index.starts[block]):
            if at == opens and story is not None:
                prefix = anchor_length(story.paragraphs[block - 1], block)
                rows.line(index.lines[at], Role.ANCHOR, page, prefix)
            else:
                rows.line(index.lines[at], Role.TEXT, page)


def parsed_rows(rows: Rows, lines: tuple[str, ...], first: int, last: int, cut: int) -> None:
    """Rows of blocks first..last read from the lines themselves (``cut``: every line is
    that block's; first 0: a story without paragraphs, no line has a block)."""
    current = first
    for text in lines:
        para = PARA_PREFIX.match(text)
        table = TABLE_PREFIX.match(text) if para is None else None
        if para is not None:
            current = int(para.group(1))
        elif table is not None:
            # Tables after P<n-1> open block n; those after the last paragraph close block N.
            current = min(max(int(table.group(1) or 0) + 1, first), last)
        page = 0 if first < 1 else cut or current
        if para is not None:
            rows.add(Role.ANCHOR, page, para.end())
        else:
            rows.add(Role.TEXT, page)
