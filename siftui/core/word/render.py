"""The agent-eye view of a Word document: the answers D1-D5 of docs/WORD.md.

Pure: no I/O, no OOXML. Same DocxDoc and DocxOptions, same Rendered (the PDF
answer's type: content, map, first, last, grep_hits, note).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from siftui.core import answer
from siftui.core.answer import DEFAULT_OUT_CAP, Rendered
from siftui.core.budget import Unit, check_unit
from siftui.core.matching import BadGrep, compile_pattern
from siftui.core.text import collapse_whitespace, typed_number
from siftui.core.word import DEFAULT_WINDOW, MAX_WINDOW, BadOption
from siftui.core.word.grep import docx_grep
from siftui.core.word.index import StoryIndex, index_story, measured_sizes
from siftui.core.word.model import SCOPES, DocxDoc, Story

__all__ = [
    "DEFAULT_WINDOW",
    "MAX_WINDOW",
    "BadGrep",
    "BadOption",
    "DocxOptions",
    "Rendered",
    "asked_span",
    "check_window",
    "full_projection",
    "parse_anchor",
    "parse_range",
    "render_docx",
    "reversed_range_hint",
]

UNTITLED = "Untitled document"
INSTRUCTION = (
    "This document is longer than one answer: ask for "
    'range="Pa..Pb", anchor="P<n>#<hash>" or grep="pattern".'
)
_RANGE = re.compile(r"[Pp]([0-9]+)(\.\.(?:[Pp]([0-9]+))?)?", re.ASCII)
_ANCHOR = re.compile(r"[Pp]([0-9]+)#([0-9A-Fa-f]{4})", re.ASCII)


@dataclass(frozen=True)
class DocxOptions:
    """What the agent asked for; ``out_cap`` bounds the answer, in code points
    (``unit="chars"``) or UTF-8 bytes (``unit="bytes"``)."""

    range: str = ""
    anchor: str = ""
    window: int = DEFAULT_WINDOW
    grep: str = ""
    scope: str = "body"
    out_cap: int = DEFAULT_OUT_CAP
    unit: str = "chars"


def _story(doc: DocxDoc, scope: str) -> Story:
    name = scope or "body"
    if name not in SCOPES:
        raise BadOption(
            f'unknown scope "{scope}": use body, footnotes, endnotes, comments, headers or footers'
        )
    return doc.stories[name]


def parse_range(text: str, count: int) -> tuple[int, int]:
    """D3: (a, b) with b clamped to N, or BadOption."""
    found = _RANGE.fullmatch(text.strip())
    if found is None:
        raise BadOption(f'invalid range "{text}": use "Pa..Pb", "Pa" or "Pa.."')
    first = typed_number(found.group(1))
    if found.group(2) is None:
        last = first
    elif found.group(3) is not None:
        last = typed_number(found.group(3))
    else:
        last = count
    if count == 0:
        raise BadOption("range out of range (no paragraphs)")
    if first < 1 or last < first or first > count:
        raise BadOption(f"range out of range (P1..P{count})")
    return first, min(last, count)


def reversed_range_hint(text: str) -> str | None:
    """What a person is told beside D3's out-of-range message when ``text`` is a range
    written backwards (``"P5..P2"``), None otherwise; the agent's answer is D3's
    message alone (DOCX.md), only the CLI adds this."""
    found = _RANGE.fullmatch(text.strip())
    if found is None or found.group(3) is None:
        return None
    if typed_number(found.group(3)) >= typed_number(found.group(1)):
        return None
    a, b = found.group(1), found.group(3)
    return f'"{text.strip()}" is reversed: did you mean "P{b}..P{a}"?'


def parse_anchor(text: str, story: Story) -> int:
    """D4: the paragraph number an anchor names, or BadOption (stale hashes too)."""
    found = _ANCHOR.fullmatch(text.strip())
    if found is None:
        raise BadOption(f'invalid anchor "{text}": use "P<n>#<hash>"')
    number = typed_number(found.group(1))
    count = story.count
    if count == 0:
        raise BadOption("anchor out of range (no paragraphs)")
    if not 1 <= number <= count:
        raise BadOption(f"anchor out of range (P1..P{count})")
    given = found.group(2)
    actual = story.paragraphs[number - 1].hash
    if given.lower() != actual:
        raise BadOption(
            f"stale anchor P{number}#{given}: P{number} is now P{number}#{actual}; read it again"
        )
    return number


def full_projection(doc: DocxDoc, scope: str = "body") -> str:
    """A story's shown lines in document order joined by "\\n"."""
    return "\n".join(index_story(_story(doc, scope)).lines)


def check_window(window: object) -> int:
    if isinstance(window, bool) or not isinstance(window, int) or not 0 <= window <= MAX_WINDOW:
        raise BadOption(f"window must be 0-{MAX_WINDOW}")
    return window


def asked_span(opt: DocxOptions, story: Story) -> tuple[int, int, int] | None:
    """The blocks a range or an anchor asks for, (first, last, alone): ``alone`` is the
    paragraph an anchor with window 0 asks for by itself (else 0). None when neither
    is given; BadOption (WORD.md's line) for a bad one, the window checked first."""
    if opt.anchor.strip():
        window = check_window(opt.window)
        number = parse_anchor(opt.anchor, story)
        first, last = max(1, number - window), min(story.count, number + window)
        return first, last, number if window == 0 else 0
    if opt.range.strip():
        return (*parse_range(opt.range, story.count), 0)
    return None


def render_docx(doc: DocxDoc, opt: DocxOptions) -> Rendered:
    """The string the agent receives for ``opt``, bounded by ``opt.out_cap``."""
    out_cap = answer.check_out_cap(opt.out_cap)
    unit = check_unit(opt.unit)
    story = _story(doc, opt.scope)
    index = index_story(story)
    has_range, has_anchor = bool(opt.range.strip()), bool(opt.anchor.strip())
    if has_range and has_anchor:
        raise BadOption("use range or anchor, not both")
    asked = asked_span(opt, story)
    span = asked[:2] if asked is not None else None
    alone = asked[2] if asked is not None else 0
    if opt.grep:
        return _grep(index, story, opt.grep, span, alone, out_cap, unit)
    if alone:
        return _alone(index, alone, out_cap, unit)
    sizes, full_length = measured_sizes(story, unit)
    if span is not None:
        return _range(index, span[0], span[1], out_cap, unit, sizes)
    if not index.lines and (opt.scope or "body") == "body":
        first, last = (1, index.count) if index.count else (0, 0)
        return Rendered("", False, first, last, 0, empty_body_note(doc))
    if index.count == 0:
        return _tables_only(index, out_cap, unit)
    if full_length <= out_cap:
        return Rendered("\n".join(index.lines), False, 1, index.count, 0, "")
    return _map(doc, opt.scope or "body", index, out_cap, unit, sizes)


def _grep(
    index: StoryIndex,
    story: Story,
    pattern: str,
    span: tuple[int, int] | None,
    alone: int,
    out_cap: int,
    unit: Unit,
) -> Rendered:
    if alone:
        at = index.para_line[alone - 1]
        first, last = (at, at + 1) if at >= 0 else (0, 0)
    elif span is not None:
        first, last = index.starts[span[0] - 1], index.starts[span[1]]
    else:
        first, last = 0, len(index.lines)
    found = docx_grep(index, story.cache, pattern, first, last, out_cap, unit)
    return Rendered(found.content, False, 0, 0, found.hits, found.note)


def _cut_note(name: str, text: str, shown: str, unit: Unit) -> str:
    return f"{name} cut to {unit.size(shown)} of {unit.size(text)} {unit.word}"


def _alone(index: StoryIndex, number: int, out_cap: int, unit: Unit) -> Rendered:
    at = index.para_line[number - 1]
    text = index.lines[at] if at >= 0 else ""
    shown = unit.cut(text, out_cap)
    note = _cut_note(f"P{number}", text, shown, unit) if len(shown) < len(text) else ""
    return Rendered(shown, False, number, number, 0, note)


def _range(
    index: StoryIndex, first: int, last: int, out_cap: int, unit: Unit, sizes: tuple[int, ...]
) -> Rendered:
    shown = index.last_fitting(first, last, out_cap, sizes)
    opening = index.first_nonempty(first, last)
    if opening == 0:
        return Rendered("", False, first, last, 0, "")
    if shown < opening:
        block = index.block_text(opening)
        content = unit.cut(block, out_cap)
        note = _cut_note(f"P{opening}", block, content, unit)
        if opening < last:
            note += f'; ask for range="P{opening + 1}..P{last}"'
        return Rendered(content, False, first, opening, 0, note)
    note = f'cut at P{shown}; ask for range="P{shown + 1}..P{last}"' if shown < last else ""
    return Rendered(index.join(first, shown), False, first, shown, 0, note)


def _tables_only(index: StoryIndex, out_cap: int, unit: Unit) -> Rendered:
    """N = 0: the tables are one block, answered whole or cut."""
    block = "\n".join(index.lines)
    shown = unit.cut(block, out_cap)
    note = _cut_note("T1", block, shown, unit) if len(shown) < len(block) else ""
    return Rendered(shown, False, 0, 0, 0, note)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def empty_body_note(doc: DocxDoc) -> str:
    """The note of the first call on a body without lines: an agent would otherwise
    get "" and not know that the headers, notes or comments hold the text."""
    held = []
    for name in SCOPES[1:]:
        story = doc.stories[name]
        index = index_story(story)
        if not index.lines:
            continue
        counts = [_plural(index.shown, "paragraph")] if index.shown else []
        if story.tables:
            counts.append(_plural(len(story.tables), "table"))
        held.append(f'scope="{name}" ({", ".join(counts)})')
    if not held:
        return "the body is empty; no other scope holds text"
    return "the body is empty; text is in " + ", ".join(held)


def _map(
    doc: DocxDoc, scope: str, index: StoryIndex, out_cap: int, unit: Unit, sizes: tuple[int, ...]
) -> Rendered:
    title = collapse_whitespace(doc.title) or UNTITLED
    if scope != "body":
        title = f"{scope} of {title}"
    tables = len(doc.stories[scope].tables)
    stats = (
        f"{_plural(index.shown, 'paragraph')} · {_plural(tables, 'table')} · "
        f"~{answer.estimated_tokens(index.full_length)} tokens"
    )
    budget = out_cap // 4
    last = index.last_fitting(1, index.count, budget, sizes)
    opening = index.first_nonempty(1, index.count)
    if last < opening:
        last = opening
        leading = unit.cut(index.block_text(opening), budget)
    else:
        leading = index.join(1, last)
    head = f"# {title}\n\n{stats}"
    tail = f"{INSTRUCTION}\n\n{leading}"
    fixed = unit.size(head) + 2 + unit.size(tail)
    outline = answer.fit_outline(index.outline, out_cap - fixed - 2, size=unit.size)
    sections = [head, outline, tail] if outline is not None else [head, tail]
    return Rendered(unit.cut("\n\n".join(sections), out_cap), True, 1, last, 0, "")


def check_docx_options(options: DocxOptions) -> None:
    """Raise what :func:`render_docx` would raise for ``options`` whatever the document is,
    in WORD.md's order: scope, range and anchor together, window, the syntax of a
    range or an anchor, and (without either) the pattern. Lets a caller refuse a bad
    call before reading the document; an anchor's hash can only be checked then."""
    check_unit(options.unit)
    probe = DocxDoc("", {})
    render_docx(probe, DocxOptions(scope=options.scope))  # an unknown scope
    if options.range.strip() and options.anchor.strip():
        raise BadOption("use range or anchor, not both")
    if options.anchor.strip():
        check_window(options.window)
    for check in (
        lambda: parse_range(options.range, 0) if options.range.strip() else None,
        lambda: parse_anchor(options.anchor, probe.body) if options.anchor.strip() else None,
    ):
        try:
            check()
        except BadOption as error:
            if "out of range" not in str(error):  # as the empty probe says of any range
                raise
    if options.grep and not options.range.strip() and not options.anchor.strip():
        compile_pattern(options.grep)
