"""Text that no `pages=` call can show at a given OutCap, and what grep still reaches.

Pure: no I/O, no Textual, no PyMuPDF.

Under R3 a page whose R1 block is longer than the OutCap is shown cut to the
OutCap (``pages="7"``), and a range that holds it stops before it; the map
shows even less of it (R2). So the runes of block *p* from position OutCap on
are never shown by any ``pages=`` call: they are *unreachable by pages=*. The
smallest OutCap at which nothing is unreachable is the length of the largest
page block.

Grep (R4) shows stripped lines, a line longer than 400 characters as a
400-character window placed around the first match, context lines from their
start. Which of the unreachable runes can a grep still show? A rune counts as
grep-reachable when some grep answer could display it:

- it lies on a stripped line (the line breaks and the blanks that ``strip()``
  removes from a line's ends are never shown by grep; nor is the page marker);
- on that line as the matching line, a window start ``max(0, min(m - 200, n - 400))``
  for some match start ``m`` covers it (every window start from 0 to n - 400 is
  one), or as a context line (previous or next line of a match) its first 400
  characters hold it;
- and that grep block fits the OutCap with the shortest header a grep answer
  has, ``grep "x": 1 match`` (R4 drops whole blocks that do not fit).

It assumes that the agent can aim a match at any character of a line (a literal
pattern of the text from there on, unique in the page). That holds for ordinary
text; on a line that repeats one character it is an upper bound. Above an
OutCap of about 1,300 runes every grep block fits, so only the first two
conditions matter.
"""

from __future__ import annotations

from dataclasses import dataclass

from siftui.core.budget import CHARS, Unit
from siftui.core.doc import Doc
from siftui.core.docindex import SEPARATOR, index_of, marker
from siftui.core.matching import ELLIPSIS, LINE_WINDOW

__all__ = [
    "GREP_HEADER_MIN",
    "PageReach",
    "Unreachable",
    "counter_line",
    "grep_reachable_spans",
    "smallest_line",
    "unreachable",
    "unreachable_json",
    "unreachable_text",
]

# The shortest grep header an answer can have: a one-character pattern, one match.
GREP_HEADER_MIN = len('grep "x": 1 match')
# How many pages `siftui walk` lists by name before "and N more".
TEXT_PAGES_SHOWN = 20


@dataclass(frozen=True)
class PageReach:
    """One page with an unreachable tail at the OutCap."""

    page: int
    runes: int  # runes of the page's R1 block that no pages= call shows
    grep_reachable_runes: int  # how many of those a grep answer can show
    block_runes: int  # the whole R1 block


@dataclass(frozen=True)
class Unreachable:
    """What a whole reading by ``pages=`` leaves out at ``out_cap``."""

    out_cap: int
    document_runes: int  # len(full(doc))
    pages: tuple[PageReach, ...]  # in page order, only pages with runes > 0
    smallest_out_cap: int  # the largest page block (1 for a doc with no pages)
    # The page of that block (0 for a doc with no pages). A Word story without
    # paragraphs has one block, its tables: numbered 0 there (its answer's first = last
    # = 0) and named T1, as the note of its cut answer names it.
    largest_block_page: int
    # What ``page`` numbers: "page" for a PDF, "paragraph" for a Word document
    # (siftui.core.word.unreachable), whose calls are range= and anchor=.
    unit: str = "page"
    budget: str = CHARS.name  # what out_cap and smallest_out_cap count (a Unit's name)

    def cap(self, value: int) -> str:
        """An OutCap as the texts say it: "2,000", or "2,000 bytes" in bytes."""
        return f"{value:,}" if self.budget == CHARS.name else f"{value:,} {self.budget}"

    @property
    def calls(self) -> str:
        """The calls that cannot show the runes: "pages=", or "range= or anchor="."""
        return "pages=" if self.unit == "page" else "range= or anchor="

    def label(self, number: int) -> str:
        """ "page 7" or "P7": a page or paragraph as the texts name it ("T1": the tables
        of a Word story without paragraphs)."""
        if self.unit == "page":
            return f"page {number}"
        return f"P{number}" if number else "T1"

    def counted(self, count: int) -> str:
        """ "1 page", "3 pages", "1 paragraph", "2 paragraphs" ("1 block of tables")."""
        if self.unit != "page" and [page.page for page in self.pages] == [0]:
            return "1 block of tables"
        return f"{count:,} {self.unit}{'' if count == 1 else 's'}"

    @property
    def textless(self) -> bool:
        """The document (or story) has no text at all: nothing is ever unreachable."""
        return self.largest_block_page == 0 and self.smallest_out_cap <= 1

    @property
    def runes(self) -> int:
        return sum(page.runes for page in self.pages)

    @property
    def grep_reachable_runes(self) -> int:
        return sum(page.grep_reachable_runes for page in self.pages)

    @property
    def percent(self) -> float:
        """The unreachable runes as a share of the whole document (R1 text)."""
        return 100.0 * self.runes / self.document_runes if self.document_runes else 0.0


def unreachable(doc: Doc, out_cap: int, unit: Unit = CHARS) -> Unreachable:
    """Per page, the runes no ``pages=`` call shows at ``out_cap`` and what grep reaches.

    With an OutCap in bytes (``unit``), a page's unreachable runes are those after
    its cut to ``out_cap`` bytes, and the smallest OutCap is in bytes; what grep
    reaches is a lower bound, counted as if the OutCap were ``out_cap // 4``
    code points (at most 4 bytes each, so such a block always fits).
    """
    if isinstance(out_cap, bool) or not isinstance(out_cap, int) or out_cap < 1:
        raise ValueError(f"out_cap must be a whole number >= 1, not {out_cap!r}")
    index = index_of(doc)
    ends, _ = index.measured(unit)
    pages: list[PageReach] = []
    largest, largest_page = 0, 0
    before = -len(SEPARATOR)
    for number in range(1, index.extracted + 1):
        size = ends[number - 1] - before - len(SEPARATOR)
        before = ends[number - 1]
        if size > largest:
            largest, largest_page = size, number
        if size <= out_cap:
            continue
        block = index.blocks[number - 1]
        shown = out_cap if unit is CHARS else len(unit.cut(block, out_cap))
        room = out_cap if unit is CHARS else max(out_cap // 4, 1)
        pages.append(
            PageReach(
                page=number,
                runes=len(block) - shown,
                grep_reachable_runes=_grep_reachable_tail(
                    doc.pages[number - 1], number, room, shown
                ),
                block_runes=len(block),
            )
        )
    return Unreachable(
        out_cap=out_cap,
        document_runes=index.full_length,
        pages=tuple(pages),
        smallest_out_cap=max(largest, 1),
        largest_block_page=largest_page,
        budget=unit.name,
    )


def _shown_length(line_length: int) -> int:
    """Length of a line shown from its start (a context line): R4's window at 0."""
    return line_length if line_length <= LINE_WINDOW else LINE_WINDOW + len(ELLIPSIS)


def grep_reachable_spans(text: str, page: int, out_cap: int) -> list[tuple[int, int]]:
    """Spans [start, end) of positions in ``text.strip()`` that a grep answer can show.

    ``text`` is a page's extracted text, ``page`` its number (it is part of every
    grep line's prefix, so it changes what fits). See the module's doc for the rules.
    """
    raw = text.split("\n")
    lead = len(text) - len(text.lstrip())
    # Each line's stripped content as (start in text.strip(), length).
    contents: list[tuple[int, int]] = []
    position = 0
    for line in raw:
        left = len(line) - len(line.lstrip())
        contents.append((position + left - lead, len(line.strip())))
        position += len(line) + 1
    lengths = [length for _, length in contents]
    match_prefix = len(f"p. {page}: ")
    context_prefix = len(f"p. {page}- ")
    room = out_cap - GREP_HEADER_MIN - 1  # what the block may take after header + "\n"

    def context(at: int) -> int:
        """Characters line ``at`` adds to a block as a context line ("\n" included)."""
        if at < 0 or at >= len(lengths) or lengths[at] == 0:
            return 0
        return context_prefix + _shown_length(lengths[at]) + 1

    def block_base(at: int) -> int:
        """A block with line ``at`` matching, without its matching line's window."""
        return match_prefix + context(at - 1) + context(at + 1) + len("\n--")

    spans: list[tuple[int, int]] = []
    for at, (start, length) in enumerate(contents):
        if length == 0:
            continue
        base = block_base(at)
        if length <= LINE_WINDOW:
            if base + length <= room:
                spans.append((start, start + length))
                continue
        elif base + LINE_WINDOW + 2 * len(ELLIPSIS) <= room:
            spans.append((start, start + length))  # every window fits
            continue
        elif base + LINE_WINDOW + len(ELLIPSIS) <= room:
            # Only the two end windows fit (one ellipsis each).
            spans.append((start, start + LINE_WINDOW))
            spans.append((start + length - LINE_WINDOW, start + length))
            continue
        # As a context line of a neighbour whose smallest block fits: its start.
        for neighbour in (at - 1, at + 1):
            if 0 <= neighbour < len(lengths):
                smallest = min(lengths[neighbour], LINE_WINDOW + len(ELLIPSIS))
                if block_base(neighbour) + smallest <= room:
                    spans.append((start, start + min(length, LINE_WINDOW)))
                    break
    return spans


def _grep_reachable_tail(text: str, page: int, out_cap: int, shown: int) -> int:
    """How many runes of block ``page`` from position ``shown`` on a grep can show
    (grep answers bounded by ``out_cap`` code points)."""
    offset = len(marker(page)) + len(SEPARATOR)  # where text.strip() begins in the block
    cut = shown - offset  # the first unreachable position, in text.strip()
    total = 0
    for start, end in grep_reachable_spans(text, page, out_cap):
        total += max(0, end - max(start, cut))
    return total


def unreachable_json(found: Unreachable) -> dict[str, object]:
    """The ``"unreachable"`` object of `siftui walk --json` (for a Word document its
    keys say "paragraph" where a PDF's say "page"; in bytes, ``"unit": "bytes"``)."""
    unit = found.unit
    budget = {} if found.budget == CHARS.name else {"unit": found.budget}
    return {
        "out_cap": found.out_cap,
        **budget,
        "runes": found.runes,
        "percent": round(found.percent, 4),
        "grep_reachable_runes": found.grep_reachable_runes,
        f"{unit}s": [
            {unit: p.page, "runes": p.runes, "grep_reachable_runes": p.grep_reachable_runes}
            for p in found.pages
        ],
        "smallest_out_cap": found.smallest_out_cap,
        f"largest_block_{unit}": found.largest_block_page,
    }


def _percent(value: float) -> str:
    return f"{value:.1f}%" if value >= 0.1 or value == 0 else "<0.1%"


def counter_line(found: Unreachable) -> str:
    """One line for a counter; "" when nothing is unreachable."""
    if not found.pages:
        return ""
    return (
        f"at this OutCap {found.runes:,} runes ({_percent(found.percent)}) on "
        f"{found.counted(len(found.pages))} are unreachable by {found.calls}"
    )


def smallest_line(found: Unreachable) -> str:
    """Where nothing is unreachable any more, and why there."""
    if found.textless:
        if found.unit != "page":
            return "nothing is unreachable at any OutCap: the story has no text"
        return "nothing is unreachable at any OutCap: no page was extracted"
    block = "page block" if found.unit == "page" else "block"
    return (
        f"nothing is unreachable from OutCap {found.cap(found.smallest_out_cap)} up: "
        f"the largest {block} ({found.label(found.largest_block_page)})"
    )


def unreachable_text(found: Unreachable) -> str:
    """The lines `siftui walk` prints after the calls (each ending in a newline)."""
    lines: list[str] = []
    if not found.pages:
        lines.append(f"unreachable by {found.calls} at OutCap {found.cap(found.out_cap)}: nothing")
    else:
        lines.append(
            f"unreachable by {found.calls} at OutCap {found.cap(found.out_cap)}: "
            f"{found.runes:,} runes "
            f"({_percent(found.percent)} of {found.document_runes:,}) on "
            f"{found.counted(len(found.pages))}; "
            f"a grep can show {found.grep_reachable_runes:,} of them"
        )
        for reach in found.pages[:TEXT_PAGES_SHOWN]:
            lines.append(
                f"  {found.label(reach.page)}: {reach.runes:,} of {reach.block_runes:,} runes "
                f"(grep can show {reach.grep_reachable_runes:,})"
            )
        left = len(found.pages) - TEXT_PAGES_SHOWN
        if left > 0:
            lines.append(
                f"  … and {found.counted(left).replace(' ', ' more ', 1)} (--json lists them all)"
            )
    lines.append(smallest_line(found))
    return "\n".join(lines) + "\n"
