"""A paragraph's text (docs/WORD.md *A paragraph's text*) and a table's cells' texts.

Runs, hyperlinks, content controls, fields, revisions, symbols, math, notes'
and comments' references, and text boxes, resolved into one line of text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from siftui.sources.word.names import (
    AUTHOR,
    CHAR,
    COMMENT_REFERENCE,
    CUSTOM_XML,
    DEL,
    ENDNOTE_REFERENCE,
    FLD_CHAR,
    FLD_CHAR_TYPE,
    FOOTNOTE_REFERENCE,
    ID,
    INS,
    M_T,
    MOVE_FROM,
    MOVE_TO,
    NO_BREAK_HYPHEN,
    O_MATH,
    O_MATH_PARA,
    RPR,
    RUBY,
    RUBY_BASE,
    SDT,
    SDT_CONTENT,
    SPACES,
    SYM,
    TBL,
    TC,
    TCPR,
    TR,
    TRPR,
    TXBX_CONTENT,
    VAL,
    VANISH,
    VMERGE,
    Element,
    P,
    R,
    T,
    children,
    on,
    w,
)

# libxml2 refuses XML nested deeper than 256 elements (a one-line error), so this
# guard against deeper walks (tables in cells in tables, text boxes in text boxes)
# never cuts a document that parsed; the walks stay far below Python's recursion
# limit, and a RecursionError would still be one line (siftui.sources.word.read).
MAX_DEPTH = 300
_WHITESPACE = str.maketrans({"\t": " ", "\n": " ", "\r": " ", "\v": " ", "\f": " "})
_ENDS_IN_SPACE = frozenset(" \t\n\r\v\f")
# Elements of a paragraph that hold properties or text that is never shown.
_SKIPPED = frozenset({w("pPr"), w("rt"), w("sdtPr"), w("sdtEndPr"), w("customXmlPr"), w("fldData")})


@dataclass
class References:
    """How the references in the text are numbered (docs/WORD.md *Comment numbers*, notes)."""

    comments: dict[str, tuple[int, str]] = field(default_factory=dict)  # id -> (k, author)
    footnotes: dict[str, int] = field(default_factory=dict)
    endnotes: dict[str, int] = field(default_factory=dict)


def author(element: Element) -> str:
    return str(element.get(AUTHOR) or "") or "unknown"


def symbol(element: Element) -> str:
    """w:sym: the character w:char names, nothing for the private-use area."""
    code = element.get(CHAR) or ""
    try:
        value = int(code, 16)
    except ValueError:
        return ""
    if not 0 < value <= 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        return ""
    if 0xE000 <= value <= 0xF8FF or value >= 0xF0000:
        return ""
    return chr(value)


class _Text:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.last = ""

    def add(self, text: str) -> None:
        if text:
            self.parts.append(text)
            self.last = text[-1]

    def marker(self, text: str) -> None:
        if self.last and self.last not in _ENDS_IN_SPACE:
            self.parts.append(" ")
        self.add(text)


def blocks(container: Element, depth: int = 0) -> list[Element]:
    """The block-level w:p and w:tbl of a container, through w:sdt and w:customXml."""
    found: list[Element] = []
    for child in children(container):
        tag = child.tag
        if tag in (P, TBL):
            found.append(child)
        elif depth < MAX_DEPTH and (tag in (SDT, CUSTOM_XML)):
            inner = child.find(SDT_CONTENT) if tag == SDT else child
            if inner is not None:
                found.extend(blocks(inner, depth + 1))
    return found


def _wrapped(parent: Element, tag: str, depth: int) -> list[Element]:
    """Children of ``parent`` named ``tag``, also inside w:sdt and w:customXml."""
    found: list[Element] = []
    for child in children(parent):
        if child.tag == tag:
            found.append(child)
        elif depth < MAX_DEPTH and child.tag in (SDT, CUSTOM_XML):
            inner = child.find(SDT_CONTENT) if child.tag == SDT else child
            if inner is not None:
                found.extend(_wrapped(inner, tag, depth + 1))
    return found


def table_cells(
    table: Element, paragraph: Callable[[Element], str], depth: int = 0
) -> list[list[str]]:
    """Each row's cells' texts (deleted rows left out, merged continuations empty)."""
    rows: list[list[str]] = []
    for row in _wrapped(table, TR, 0):
        properties = row.find(TRPR)
        if properties is not None and properties.find(DEL) is not None:
            continue
        cells = []
        for cell in _wrapped(row, TC, 0):
            text = _cell(cell, paragraph, depth)
            merge = cell.find(TCPR)
            merge = merge.find(VMERGE) if merge is not None else None
            continued = merge is not None and merge.get(VAL, "continue") == "continue"
            cells.append("" if continued else text)
        rows.append(cells)
    return rows


def _cell(cell: Element, paragraph: Callable[[Element], str], depth: int) -> str:
    pieces: list[str] = []
    for block in blocks(cell):
        if block.tag == P:
            pieces.append(paragraph(block))
        elif depth < MAX_DEPTH:
            for row in table_cells(block, paragraph, depth + 1):
                pieces.extend(row)
    return " ".join(piece for piece in pieces if piece)


class TextWalker:
    """Resolves paragraphs of one story in order (complex fields may span paragraphs)."""

    def __init__(self, refs: References) -> None:
        self.refs = refs
        self.fields: list[bool] = []  # per open complex field: past its separator yet
        self.too_deep = False

    @property
    def visible(self) -> bool:
        return all(self.fields)

    def paragraph(self, para: Element, depth: int = 0) -> str:
        """The paragraph's text, stripped, without its list marker."""
        out = _Text()
        boxes: list[Element] = []
        self._content(para, out, boxes, depth)
        for box in boxes:
            text = self._box(box, depth + 1)
            if text:
                out.marker(f"[textbox: {text}]")
        return "".join(out.parts).translate(_WHITESPACE).strip()

    def _box(self, box: Element, depth: int) -> str:
        if depth > MAX_DEPTH:
            self.too_deep = True
            return ""
        inner = TextWalker(self.refs)  # its own fields; no list markers, no counters
        items: list[str] = []
        for block in blocks(box):
            if block.tag == P:
                items.append(inner.paragraph(block, depth))
            else:
                for row in table_cells(block, lambda p: inner.paragraph(p, depth), depth):
                    items.extend(row)
        self.too_deep = self.too_deep or inner.too_deep
        return " / ".join(item for item in items if item)

    def _content(self, parent: Element, out: _Text, boxes: list[Element], depth: int) -> None:
        if depth > MAX_DEPTH:
            self.too_deep = True
            return
        for child in children(parent):
            tag = child.tag
            if tag == R:
                self._run(child, out, boxes, depth)
            elif tag in (INS, MOVE_TO):
                self._content(child, out, boxes, depth + 1)
                if self.visible:
                    out.marker(f"[ins by {author(child)}]")
            elif tag in (DEL, MOVE_FROM):
                if self.visible:
                    out.marker(f"[del by {author(child)}]")
            elif tag == SDT:
                inner = child.find(SDT_CONTENT)
                if inner is not None:
                    self._content(inner, out, boxes, depth + 1)
            elif tag == RUBY:
                base = child.find(RUBY_BASE)
                if base is not None:
                    self._content(base, out, boxes, depth + 1)
            elif tag in (O_MATH, O_MATH_PARA):
                if self.visible:
                    out.add("".join(t.text or "" for t in child.iter(M_T)))
            elif tag in _SKIPPED or tag.endswith("Pr") or tag.endswith("PrChange"):
                continue
            else:  # hyperlinks, smart tags, w:fldSimple, w:customXml, w:dir, w:bdo, ...
                self._content(child, out, boxes, depth + 1)

    def _field(self, kind: str | None) -> None:
        if kind == "begin":
            self.fields.append(False)
        elif kind == "separate":
            if self.fields:
                self.fields[-1] = True
        elif kind == "end" and self.fields:
            self.fields.pop()

    def _run(self, run: Element, out: _Text, boxes: list[Element], depth: int) -> None:
        hidden = False
        for child in children(run):
            tag = child.tag
            if tag == RPR:
                hidden = on(child.find(VANISH))
            elif tag == FLD_CHAR:
                self._field(child.get(FLD_CHAR_TYPE))
            elif hidden or not self.visible:
                continue
            elif tag == T:
                out.add(child.text or "")
            elif tag in SPACES:
                out.add(" ")
            elif tag == NO_BREAK_HYPHEN:
                out.add("-")
            elif tag == SYM:
                out.add(symbol(child))
            elif tag == FOOTNOTE_REFERENCE:
                number = self.refs.footnotes.get(child.get(ID) or "")
                out.add(f"[^{number if number else '?'}]")
            elif tag == ENDNOTE_REFERENCE:
                number = self.refs.endnotes.get(child.get(ID) or "")
                out.add(f"[^e{number if number else '?'}]")
            elif tag == COMMENT_REFERENCE:
                k, who = self.refs.comments.get(child.get(ID) or "", (0, "unknown"))
                out.marker(f"[comment:C{k if k else '?'} by {who}]")
            elif tag == RUBY:  # Word writes w:ruby inside a run: its base is the text
                base = child.find(RUBY_BASE)
                if base is not None:
                    self._content(base, out, boxes, depth + 1)
            elif len(child):
                _find_boxes(child, boxes, depth + 1)


def _find_boxes(element: Element, found: list[Element], depth: int) -> None:
    """The w:txbxContent inside a drawing, a VML shape or an object, in order."""
    if depth > MAX_DEPTH:
        return
    for child in children(element):
        if child.tag == TXBX_CONTENT:
            found.append(child)
        elif len(child):
            _find_boxes(child, found, depth + 1)
