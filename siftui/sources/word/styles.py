"""Headings and list numbers (docs/WORD.md *Headings*, *Lists*): the style chain and numbering.

Reads styles.xml and numbering.xml once; the per-story counters live in
:class:`ListCounters`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from siftui.sources.word.names import (
    ILVL,
    NUM_ID,
    NUM_PR,
    OUTLINE_LVL,
    P_STYLE,
    PPR,
    TYPE,
    VAL,
    Element,
    children,
    w,
)

MAX_CHAIN = 20
LEVELS = 9
# Beyond these a counter is written in decimal (a letter run or a Roman numeral
# would grow without bound: Word itself stops at 780 letters' worth and 3999).
MAX_LETTERS = 780
MAX_ROMAN = 3999
_INT = re.compile(r"-?[0-9]{1,9}")
_HEADING_NAME = re.compile(r"heading ([1-6])")


def whole(text: str | None) -> int | None:
    """An OOXML integer attribute, or None when absent or not a (reasonable) integer."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if _INT.fullmatch(text) else None


def _child_val(element: Element | None, tag: str) -> str | None:
    if element is None:
        return None
    for child in children(element):
        if child.tag == tag:
            value = child.get(VAL)
            return value if isinstance(value, str) else None
    return None


def _val(element: Element | None) -> str | None:
    """An element's w:val (None without the element)."""
    if element is None:
        return None
    value = element.get(VAL)
    return value if isinstance(value, str) else None


def _child(element: Element | None, tag: str) -> Element | None:
    if element is None:
        return None
    for child in children(element):
        if child.tag == tag:
            return child
    return None


@dataclass(frozen=True)
class Style:
    name: str
    based_on: str | None
    outline: int | None
    num_id: int | None
    ilvl: int | None


def _numpr(numpr: Element | None) -> tuple[int | None, int | None]:
    """The w:numId and w:ilvl of a w:numPr."""
    if numpr is None:
        return None, None
    return whole(_child_val(numpr, NUM_ID)), whole(_child_val(numpr, ILVL))


class Styles:
    """The paragraph styles of styles.xml (none when the part is missing)."""

    def __init__(self, root: Element | None) -> None:
        self.styles: dict[str, Style] = {}
        self.default: str | None = None
        self._inherited: dict[str | None, _Inherited] = {}  # by paragraph's w:pStyle
        if root is None:
            return
        for element in children(root):
            if element.tag != w("style"):
                continue
            kind = element.get(TYPE, "paragraph")
            style_id = element.get(w("styleId"), "")
            ppr = _child(element, PPR)
            num_id, ilvl = _numpr(_child(ppr, NUM_PR))
            style = Style(
                name=(_child_val(element, w("name")) or "").strip().lower(),
                based_on=_child_val(element, w("basedOn")),
                outline=whole(_child_val(ppr, OUTLINE_LVL)),
                num_id=num_id,
                ilvl=ilvl,
            )
            # Numbering styles are named by w:numStyleLink; keep them apart.
            self.styles.setdefault(f"{kind}:{style_id}", style)
            if (
                kind == "paragraph"
                and self.default is None
                and element.get(w("default"))
                in (
                    "1",
                    "true",
                    "on",
                )
            ):
                self.default = style_id

    def chain(self, style_id: str | None) -> list[Style]:
        """The paragraph's style, then its w:basedOn ancestors: at most 20, a cycle ends it."""
        if style_id is None or f"paragraph:{style_id}" not in self.styles:
            style_id = self.default
        found: list[Style] = []
        seen: set[str] = set()
        while style_id is not None and style_id not in seen and len(found) < MAX_CHAIN:
            style = self.styles.get(f"paragraph:{style_id}")
            if style is None:
                break
            seen.add(style_id)
            found.append(style)
            style_id = style.based_on
        return found

    def inherited(self, style_id: str | None) -> _Inherited:
        """What a paragraph of style ``style_id`` takes from its chain (computed once
        per style: a document's paragraphs share a few)."""
        found = self._inherited.get(style_id)
        if found is None:
            found = self._inherited[style_id] = _inherited(self.chain(style_id))
        return found

    def numbering_style(self, style_id: str) -> Style | None:
        return self.styles.get(f"numbering:{style_id}") or self.styles.get(f"paragraph:{style_id}")


@dataclass(frozen=True)
class ParagraphStyle:
    heading: int
    num_id: int | None
    ilvl: int


@dataclass(frozen=True)
class _Inherited:
    """What a paragraph takes from its style chain when its own w:pPr does not say."""

    outline: int | None  # the first w:outlineLvl of the chain
    named: int  # the heading level the chain's names give ("heading 2", "title"), or 0
    num_id: int | None
    ilvl: int | None


def _inherited(chain: list[Style]) -> _Inherited:
    named = 0
    for style in chain:
        found = _HEADING_NAME.fullmatch(style.name)
        if found is not None:
            named = int(found.group(1))
            break
        if style.name == "title":
            named = 1
            break
    return _Inherited(
        outline=next((s.outline for s in chain if s.outline is not None), None),
        named=named,
        num_id=next((s.num_id for s in chain if s.num_id is not None), None),
        ilvl=next((s.ilvl for s in chain if s.ilvl is not None), None),
    )


def paragraph_style(ppr: Element | None, styles: Styles) -> ParagraphStyle:
    """The paragraph's heading level (0: none) and its numId/ilvl after the style chain."""
    first: dict[str, Element] = {}  # w:pPr's first child of each name
    if ppr is not None:
        for child in children(ppr):
            first.setdefault(child.tag, child)
    inherited = styles.inherited(_val(first.get(P_STYLE)))
    outline = whole(_val(first.get(OUTLINE_LVL)))
    if outline is None:
        outline = inherited.outline
    heading = inherited.named  # without an outline level, the chain's names say
    if outline is not None:
        heading = outline + 1 if 0 <= outline <= 5 else 0
    num_id, ilvl = _numpr(first.get(NUM_PR))
    if num_id is None:
        num_id = inherited.num_id
    if ilvl is None:
        ilvl = inherited.ilvl
    level = ilvl if ilvl is not None and 0 <= ilvl < LEVELS else 0
    return ParagraphStyle(heading, num_id, level)


@dataclass(frozen=True)
class Level:
    fmt: str
    text: str | None
    start: int


def _level(lvl: Element | None) -> Level | None:
    if lvl is None:
        return None
    fmt = _child_val(lvl, w("numFmt")) or "decimal"
    start = whole(_child_val(lvl, w("start")))
    text_element = _child(lvl, w("lvlText"))
    text = None if text_element is None else (text_element.get(VAL) or "")
    return Level(fmt, text, 1 if start is None else start)


def _levels(parent: Element) -> dict[int, Level]:
    found: dict[int, Level] = {}
    for lvl in children(parent):
        if lvl.tag == w("lvl"):
            ilvl = whole(lvl.get(ILVL))
            level = _level(lvl)
            if ilvl is not None and level is not None:
                found.setdefault(ilvl, level)
    return found


@dataclass
class Num:
    """One w:num as it is used: the counters' key, its levels, its start overrides."""

    key: str
    levels: dict[int, Level]
    starts: dict[int, int] = field(default_factory=dict)

    def level(self, ilvl: int) -> Level:
        return self.levels.get(ilvl) or Level("decimal", None, 1)


class Numbering:
    """The w:num definitions of numbering.xml (none when the part is missing)."""

    def __init__(self, root: Element | None, styles: Styles) -> None:
        self.nums: dict[int, Num] = {}
        if root is None:
            return
        abstracts: dict[str, Element] = {}
        num_elements: dict[int, Element] = {}
        for element in children(root):
            if element.tag == w("abstractNum"):
                abstracts.setdefault(element.get(w("abstractNumId"), ""), element)
            elif element.tag == w("num"):
                num_id = whole(element.get(w("numId")))
                if num_id is not None:
                    num_elements.setdefault(num_id, element)

        def abstract_of(num: Element) -> tuple[str, Element] | None:
            key = _child_val(num, w("abstractNumId")) or ""
            found = abstracts.get(key)
            return (key, found) if found is not None else None

        for num_id, element in num_elements.items():
            target = abstract_of(element)
            if target is None:
                continue
            key, abstract = target
            link = _child_val(abstract, w("numStyleLink"))
            if link is not None:  # one step: the levels of the numbering the style names
                style = styles.numbering_style(link)
                linked = num_elements.get(style.num_id) if style and style.num_id else None
                linked_target = abstract_of(linked) if linked is not None else None
                if linked_target is not None:
                    key, abstract = linked_target
            levels = _levels(abstract)
            num = Num(key=key, levels=levels)
            for override in children(element):
                if override.tag != w("lvlOverride"):
                    continue
                ilvl = whole(override.get(ILVL))
                if ilvl is None:
                    continue
                start = whole(_child_val(override, w("startOverride")))
                if start is not None:
                    num.starts.setdefault(ilvl, start)
                level = _level(_child(override, w("lvl")))
                if level is not None:
                    levels[ilvl] = level
            self.nums[num_id] = num


def format_number(value: int, fmt: str) -> str:
    """A counter in a numFmt: decimal, decimalZero, lower/upperLetter, lower/upperRoman."""
    if fmt == "decimalZero":
        return f"{value:02d}" if value >= 0 else str(value)
    if fmt in ("lowerLetter", "upperLetter") and 1 <= value <= MAX_LETTERS:
        letters = chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1)
        return letters if fmt == "lowerLetter" else letters.upper()
    if fmt in ("lowerRoman", "upperRoman") and 1 <= value <= MAX_ROMAN:
        roman = _roman(value)
        return roman if fmt == "upperRoman" else roman.lower()
    return str(value)


_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def _roman(value: int) -> str:
    parts = []
    for size, digits in _ROMAN:
        count, value = divmod(value, size)
        parts.append(digits * count)
    return "".join(parts)


_PLACEHOLDER = re.compile(r"%([1-9])")


class ListCounters:
    """One story's list counters: per abstractNum, per level."""

    def __init__(self, numbering: Numbering) -> None:
        self.numbering = numbering
        self.values: dict[str, list[int | None]] = {}
        self.used: set[tuple[int, int]] = set()

    def number(self, num_id: int | None, ilvl: int) -> tuple[str, str] | None:
        """(marker, "ol" or "ul") of the next paragraph of that list, or None (no list)."""
        num = self.numbering.nums.get(num_id) if num_id else None
        if num is None:
            return None
        values = self.values.setdefault(num.key, [None] * LEVELS)
        level = num.level(ilvl)
        current = values[ilvl]
        if (num_id, ilvl) not in self.used and ilvl in num.starts:
            values[ilvl] = num.starts[ilvl]
        elif current is None:
            values[ilvl] = level.start
        else:
            values[ilvl] = current + 1
        self.used.add((num_id, ilvl))  # type: ignore[arg-type]
        for deeper in range(ilvl + 1, LEVELS):
            values[deeper] = None
        kind = "ul" if level.fmt == "bullet" else "ol"
        if level.fmt == "bullet":
            return "•", kind
        if level.fmt == "none":
            return "", kind
        text = level.text if level.text is not None else f"%{ilvl + 1}."

        def counter(found: re.Match[str]) -> str:
            at = int(found.group(1)) - 1
            other = num.level(at)
            value = values[at]
            return format_number(other.start if value is None else value, other.fmt)

        marker = _PLACEHOLDER.sub(counter, text)
        return " ".join(marker.split()), kind
