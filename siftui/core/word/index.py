"""What every answer about one story needs, computed once per story.

Blocks (docs/WORD.md *Lines*), their lengths as prefix sums so a range is sized in
O(1), the projection's lines with the text grep searches in each, and the
outline. Pure: no I/O.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

from siftui.core.budget import CHARS, Unit
from siftui.core.text import collapse_whitespace
from siftui.core.word.model import Story, line


@dataclass(frozen=True)
class StoryIndex:
    count: int  # N
    # lines[i]: the i-th line of the full projection as it stands (prefix or indent included)
    lines: tuple[str, ...]
    # texts[i]: what grep searches in lines[i] (a paragraph's text, a row's "| … |");
    # None for the prefix-only line of a table without rows
    texts: tuple[str | None, ...]
    # starts[k]: index in lines of block k+1's first line; starts[N'] = len(lines)
    # (N' = max(N, 1): with N = 0 the tables form one block)
    starts: tuple[int, ...]
    # sizes[k] = sum over non-empty blocks 1..k of (len(block) + 1); sizes[0] = 0
    sizes: tuple[int, ...]
    # para_line[n-1]: index in lines of paragraph n's line, -1 when not shown
    para_line: tuple[int, ...]
    outline: tuple[str, ...]
    shown: int  # paragraphs shown
    full_length: int

    @property
    def blocks(self) -> int:
        return len(self.starts) - 1

    def block_text(self, number: int) -> str:
        return "\n".join(self.lines[self.starts[number - 1] : self.starts[number]])

    def join(self, first: int, last: int) -> str:
        """Blocks first..last (1-based) joined by "\\n" (empty blocks add nothing)."""
        return "\n".join(self.lines[self.starts[first - 1] : self.starts[last]])

    def size(self, first: int, last: int, sizes: tuple[int, ...] | None = None) -> int:
        if sizes is None:
            sizes = self.sizes
        total = sizes[last] - sizes[first - 1]
        return total - 1 if total else 0

    def last_fitting(
        self, first: int, last: int, budget: int, sizes: tuple[int, ...] | None = None
    ) -> int:
        """The largest k in first-1..last with blocks first..k fitting ``budget``
        (``sizes``: :attr:`sizes` measured in the budget's unit; code points if not given)."""
        if sizes is None:
            sizes = self.sizes
        limit = budget + 1 + sizes[first - 1]
        return bisect_right(sizes, limit, first, last + 1) - 1

    def first_nonempty(self, first: int, last: int) -> int:
        """The first block in first..last that has lines, or 0."""
        at = bisect_right(self.sizes, self.sizes[first - 1], first, last + 1)
        return at if at <= last else 0


def index_story(story: Story) -> StoryIndex:
    """The story's index, built on first use and kept with the story."""
    found = story.cache.get("index")
    if isinstance(found, StoryIndex):
        return found
    built = _build(story)
    story.cache["index"] = built
    return built


def measured_sizes(story: Story, unit: Unit) -> tuple[tuple[int, ...], int]:
    """The story index's (sizes, full_length) with every line measured in ``unit``."""
    index = index_story(story)
    if unit is CHARS:
        return index.sizes, index.full_length
    key = f"sizes-{unit.name}"
    found = story.cache.get(key)
    if isinstance(found, tuple):
        return found
    ends = (0, *accumulate(unit.size(x) + 1 for x in index.lines))
    sizes = tuple(ends[start] for start in index.starts)
    built = (sizes, ends[-1] - 1 if index.lines else 0)
    story.cache[key] = built
    return built


def _add_table(story: Story, number: int, lines: list[str], texts: list[str | None]) -> None:
    table = story.tables[number - 1]
    lines.extend(table.lines(number))
    texts.extend(table.rows or [None])


def _build(story: Story) -> StoryIndex:
    count = story.count
    blocks = max(count, 1)
    # tables_in[k]: the tables (by number) that open block k+1
    tables_in: list[list[int]] = [[] for _ in range(blocks)]
    # tables after the last paragraph close block N (with N = 0 they are block 1)
    closing: list[int] = []
    for number, table in enumerate(story.tables, 1):
        if count and table.after >= count:
            closing.append(number)
        else:
            tables_in[min(table.after, blocks - 1)].append(number)
    lines: list[str] = []
    texts: list[str | None] = []
    starts = [0]
    para_line: list[int] = []
    outline: list[str] = []
    shown = 0
    for k in range(blocks):
        for number in tables_in[k]:
            _add_table(story, number, lines, texts)
        if k < count:
            para = story.paragraphs[k]
            if para.text:
                shown += 1
                para_line.append(len(lines))
                prefix = para.prefix(k + 1)
                lines.append(line(prefix, para.text))
                texts.append(para.text)
                if para.heading:
                    indent = "  " * (para.heading - 1)
                    outline.append(
                        f"{indent}- {collapse_whitespace(para.text)} [P{k + 1}#{para.hash}]"
                    )
            else:
                para_line.append(-1)
        if k == count - 1:
            for number in closing:
                _add_table(story, number, lines, texts)
        starts.append(len(lines))
    # A block's length + 1 is the sum of its lines' lengths + 1 each.
    ends = (0, *accumulate(len(x) + 1 for x in lines))
    sizes = [ends[start] for start in starts]
    full_length = ends[-1] - 1 if lines else 0
    return StoryIndex(
        count=count,
        lines=tuple(lines),
        texts=tuple(texts),
        starts=tuple(starts),
        sizes=tuple(sizes),
        para_line=tuple(para_line),
        outline=tuple(outline),
        shown=shown,
        full_length=full_length,
    )
