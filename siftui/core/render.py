"""The agent-eye view: the exact string of docs/SPEC.md, rules R1-R5.

Pure: no I/O, no Textual, no PyMuPDF. Same Doc and Options, same Rendered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from siftui.core.answer import (
    DEFAULT_OUT_CAP,
    Rendered,
    check_out_cap,
    estimated_tokens,
    fit_outline,
)
from siftui.core.budget import Unit, check_unit
from siftui.core.doc import Doc
from siftui.core.docindex import SEPARATOR, DocIndex, index_of, marker
from siftui.core.grep import BadGrep, compile_pattern, grep
from siftui.core.text import collapse_whitespace, typed_number

__all__ = [
    "DEFAULT_OUT_CAP",
    "MAX_PAGES_PER_ANSWER",
    "BadGrep",
    "BadPages",
    "MalformedPages",
    "Options",
    "Rendered",
    "check_options",
    "estimated_tokens",
    "full",
    "marker",
    "parse_pages",
    "render",
    "reversed_pages_hint",
]

MAX_PAGES_PER_ANSWER = 100
UNTITLED = "Untitled PDF"
INSTRUCTION = 'This document is longer than one answer: ask for pages="a-b" or grep="pattern".'
_PAGES = re.compile(r"([0-9]+)(-([0-9]*))?", re.ASCII)


class BadPages(ValueError):
    """A page range the contract rejects; the message is shown to users as is."""


class MalformedPages(BadPages):
    """A page range whose syntax is wrong: known without the document."""


@dataclass(frozen=True)
class Options:
    """What the agent asked for. ``out_cap`` bounds the answer, in code points
    (``unit="chars"``) or UTF-8 bytes (``unit="bytes"``)."""

    pages: str = ""
    grep: str = ""
    out_cap: int = DEFAULT_OUT_CAP
    unit: str = "chars"


def full(doc: Doc) -> str:
    """R1: every extracted page behind its marker."""
    return index_of(doc).full()


def parse_pages(pages: str, extracted: int) -> tuple[int, int] | None:
    """R3's range check: (a, b) with b clamped to E, None for no range."""
    found = _range_syntax(pages)
    if found is None:
        return None
    first = typed_number(found.group(1))
    if found.group(2) is None:
        last = first
    elif found.group(3):
        last = typed_number(found.group(3))
    else:
        last = extracted
    if first < 1 or last < first or first > extracted:
        raise BadPages(f"pages out of range (1-{extracted})")
    return first, min(last, extracted)


def reversed_pages_hint(pages: str) -> str | None:
    """What a person is told beside R3's out-of-range message when ``pages`` is a
    range written backwards (``"5-2"``), None otherwise. The agent's answer is R3's
    message alone (CONTRACT.md); only the CLI and the TUI add this."""
    try:
        found = _range_syntax(pages)
    except MalformedPages:
        return None
    if found is None or not found.group(3):
        return None
    if typed_number(found.group(3)) >= typed_number(found.group(1)):
        return None
    return f'"{pages.strip()}" is reversed: did you mean "{found.group(3)}-{found.group(1)}"?'


def _range_syntax(pages: str) -> re.Match[str] | None:
    """The range's parts, None for no range, or :class:`MalformedPages`."""
    text = pages.strip()
    if not text:
        return None
    found = _PAGES.fullmatch(text)
    if found is None:
        raise MalformedPages(f'invalid pages "{pages}": use "a-b", "a" or "a-"')
    return found


def check_options(opt: Options) -> None:
    """Raise what render() would raise for ``opt`` whatever the document is.

    OutCap (ValueError), the range's syntax (:class:`MalformedPages`) and, when
    no range is given, the pattern (:class:`BadGrep`): with a range, an
    out-of-range page (known only with the document) is reported first (R5's
    order), so the pattern waits for render(). Lets a caller refuse a bad call
    before a long extraction instead of after it.
    """
    check_out_cap(opt.out_cap)
    check_unit(opt.unit)
    if _range_syntax(opt.pages) is None and opt.grep:
        compile_pattern(opt.grep)


def render(doc: Doc, opt: Options) -> Rendered:
    """The string the agent receives for ``opt``, bounded by ``opt.out_cap``."""
    out_cap = check_out_cap(opt.out_cap)
    unit = check_unit(opt.unit)
    index = index_of(doc)
    span = parse_pages(opt.pages, index.extracted)
    if opt.grep:
        first, last = span if span is not None else (1, index.extracted)
        found = grep(index, opt.grep, first, last, out_cap, unit)
        return Rendered(found.content, False, 0, 0, found.hits, found.note)
    ends, outline_sizes = index.measured(unit)
    if span is not None:
        return _page_range(index, span[0], span[1], out_cap, unit, ends)
    if (ends[-1] if ends else 0) <= out_cap:
        last = index.extracted
        return Rendered(index.full(), False, 1 if last else 0, last, 0, "")
    return _map(doc, index, out_cap, unit, ends, outline_sizes)


def _page_range(
    index: DocIndex, first: int, last: int, out_cap: int, unit: Unit, ends: tuple[int, ...]
) -> Rendered:
    limit = min(last, first + MAX_PAGES_PER_ANSWER - 1)
    shown = index.last_fitting(first, limit, out_cap, ends)
    if shown < first:
        block = index.blocks[first - 1]
        content = unit.cut(block, out_cap)
        note = f"page {first} cut to {unit.size(content)} of {unit.size(block)} {unit.word}"
        if first < last:
            note += f'; ask for pages="{first + 1}-{last}"'
        return Rendered(content, False, first, first, 0, note)
    note = f'cut at page {shown}; ask for pages="{shown + 1}-{last}"' if shown < last else ""
    return Rendered(index.join(first, shown), False, first, shown, 0, note)


def _map(
    doc: Doc,
    index: DocIndex,
    out_cap: int,
    unit: Unit,
    ends: tuple[int, ...],
    outline_sizes: tuple[int, ...],
) -> Rendered:
    count = "1 page" if doc.page_count == 1 else f"{doc.page_count} pages"
    stats = f"{count} · ~{estimated_tokens(index.full_length)} tokens"
    if index.extracted < doc.page_count:
        stats += f" · pages 1-{index.extracted} extracted"
    title = collapse_whitespace(doc.title) or UNTITLED

    budget = out_cap // 4
    last = index.last_fitting(1, index.extracted, budget, ends)
    if last >= 1:
        leading = index.join(1, last)
    else:
        last = 1
        leading = unit.cut(index.blocks[0], budget)

    size = unit.size
    head = f"# {title}{SEPARATOR}{stats}"
    tail = f"{INSTRUCTION}{SEPARATOR}{leading}"
    fixed = size(head) + len(SEPARATOR) + size(tail)
    outline = fit_outline(
        index.outline_lines, out_cap - fixed - len(SEPARATOR), outline_sizes, size
    )
    sections = [head, outline, tail] if outline is not None else [head, tail]
    content = unit.cut(SEPARATOR.join(sections), out_cap)
    return Rendered(content, True, 1, last, 0, "")
