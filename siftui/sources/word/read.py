"""A .docx file to a DocxDoc: the stories of docs/WORD.md, numbered, resolved, bounded.

A missing or broken part other than the main document is left out with a note
(``DocxDoc.notes``); a file that is not a Word package, or whose main part
cannot be read, raises :class:`DocxError` with a one-line message.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import IO

from siftui.core.word.index import index_story
from siftui.core.word.model import DocxDoc, Para, Story, Table
from siftui.sources.word.names import (
    AUTHOR,
    COMMENT_REFERENCE,
    DC_NS,
    ENDNOTE_REFERENCE,
    FALLBACK,
    FOOTNOTE_REFERENCE,
    ID,
    PPR,
    R_ID,
    SECT_PR,
    TYPE,
    Element,
    P,
    children,
    w,
)
from siftui.sources.word.package import Package, PackageError, PartError
from siftui.sources.word.styles import ListCounters, Numbering, Styles, paragraph_style
from siftui.sources.word.text import References, TextWalker, blocks, table_cells

# More paragraphs than this in one story are left out, with a note.
MAX_PARAGRAPHS = 250_000
_NOTE_SKIPPED = frozenset({"separator", "continuationSeparator", "continuationNotice"})
_HEADER_ORDER = ("default", "first", "even")


class DocxError(Exception):
    """The file cannot be read as a Word document; ``str(error)`` is one line."""


def read_docx(source: str | os.PathLike[str] | IO[bytes]) -> DocxDoc:
    """Read a .docx (a path or a binary file object) into its projection model."""
    try:
        package = Package(os.fspath(source) if isinstance(source, os.PathLike) else source)
    except PackageError as error:
        raise DocxError(str(error)) from None
    try:
        return _Reader(package).read()
    except (PackageError, PartError) as error:
        raise DocxError(str(error)) from None
    except RecursionError:
        raise DocxError("nested too deeply to read") from None
    finally:
        package.close()


def _outside_fallback(element: Element) -> bool:
    return next(element.iterancestors(FALLBACK), None) is None


class _StoryBuilder:
    def __init__(self, name: str, reader: _Reader) -> None:
        self.name = name
        self.reader = reader
        self.paragraphs: list[Para] = []
        self.tables: list[Table] = []
        self.counters = ListCounters(reader.numbering)
        self.walker = TextWalker(reader.refs)
        self.full = False

    def item(self, container: Element, annotation: str) -> None:
        first_para, first_table = len(self.paragraphs), len(self.tables)
        self.container(container)
        for at in range(first_para, len(self.paragraphs)):
            if self.paragraphs[at].text:
                self.paragraphs[at] = replace(self.paragraphs[at], item=annotation)
                return
        if first_table < len(self.tables):
            self.tables[first_table] = replace(self.tables[first_table], item=annotation)

    def container(self, container: Element) -> None:
        for block in blocks(container):
            if len(self.paragraphs) >= MAX_PARAGRAPHS:
                if not self.full:
                    self.full = True
                    self.reader.notes.append(
                        f"{self.name}: only the first {MAX_PARAGRAPHS:,} paragraphs were read"
                    )
                return
            if block.tag == P:
                text, heading, listed = self._resolve(block)
                self.paragraphs.append(Para(text, heading, listed))
            else:
                self._table(block)

    def _resolve(self, para: Element) -> tuple[str, int, str]:
        style = paragraph_style(para.find(PPR), self.reader.styles)
        text = self.walker.paragraph(para)
        numbered = self.counters.number(style.num_id, style.ilvl)
        if numbered is None:
            return text, style.heading, ""
        marker, kind = numbered
        if text and marker:
            text = f"{marker} {text}"
        return text, style.heading, f"{kind} L{style.ilvl + 1}"

    def _table(self, table: Element) -> None:
        rows = table_cells(table, lambda para: self._resolve(para)[0])
        columns = max((len(row) for row in rows), default=0)
        texts = tuple("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows)
        self.tables.append(Table(len(self.paragraphs), texts, columns))

    def story(self) -> Story:
        if self.walker.too_deep:
            self.reader.notes.append(f"{self.name}: content nested too deeply was left out")
        return Story(tuple(self.paragraphs), tuple(self.tables))


class _Reader:
    def __init__(self, package: Package) -> None:
        self.package = package
        self.notes: list[str] = []
        self.refs = References()

    def _part(self, name: str | None) -> Element | None:
        if name is None:
            return None
        try:
            return self.package.xml(name)
        except PartError as error:
            self.notes.append(f"{error}; left out")
            return None

    def read(self) -> DocxDoc:
        main = self.package.main_part()
        try:
            document = self.package.xml(main)
        except PartError as error:
            raise PackageError(str(error)) from None
        body = document.find(w("body"))
        if body is None:
            raise PackageError(f"{main}: no w:body (not a Word document)")
        try:
            rels = self.package.relationships(main)
        except PartError as error:
            self.notes.append(f"{error}; relationships left out")
            rels = {}

        def first_of(kind: str) -> str | None:
            return next((name for t, name in rels.values() if t.endswith("/" + kind)), None)

        self.styles = Styles(self._part(first_of("styles")))
        self.numbering = Numbering(self._part(first_of("numbering")), self.styles)
        headers, footers = self._sections(body, rels)
        footnotes = self._notes(first_of("footnotes"), "footnote")
        endnotes = self._notes(first_of("endnotes"), "endnote")
        comments_root = self._part(first_of("comments"))
        comments = [] if comments_root is None else list(comments_root.iter(w("comment")))

        self._number_notes(body, footnotes, FOOTNOTE_REFERENCE, self.refs.footnotes)
        self._number_notes(body, endnotes, ENDNOTE_REFERENCE, self.refs.endnotes)
        places = [body, *(h for h, _ in headers), *(f for f, _ in footers), *footnotes, *endnotes]
        self._number_comments(places, comments)

        stories: dict[str, Story] = {}
        builder = _StoryBuilder("body", self)
        builder.container(body)
        stories["body"] = builder.story()
        kinds = (
            ("footnotes", [(n, f"^{self.refs.footnotes[n.get(ID)]}") for n in footnotes]),
            ("endnotes", [(n, f"^e{self.refs.endnotes[n.get(ID)]}") for n in endnotes]),
            ("comments", [(c, f"C{self.refs.comments[c.get(ID) or ''][0]}") for c in comments]),
            ("headers", headers),
            ("footers", footers),
        )
        for name, items in kinds:
            builder = _StoryBuilder(name, self)
            for container, annotation in items:
                builder.item(container, annotation)
            stories[name] = builder.story()
        doc = DocxDoc(self._title(), stories, tuple(self.notes))
        index_story(doc.body)  # the default scope's blocks, now: every answer is then fast
        return doc

    def _title(self) -> str:
        if self.package.find("docProps/core.xml") is None:
            return ""
        core = self._part("docProps/core.xml")
        found = None if core is None else core.find(f"{{{DC_NS}}}title")
        return "" if found is None else "".join(found.itertext())

    def _sections(
        self, body: Element, rels: dict[str, tuple[str, str]]
    ) -> tuple[list[tuple[Element, str]], list[tuple[Element, str]]]:
        """Each header and footer part once, in the order of the sections referencing them."""
        sections = [s for s in body.iter(SECT_PR) if s.getparent().tag in (PPR, w("body"))]
        # The body's own sectPr (the last section) comes last whatever its place.
        sections.sort(key=lambda s: s.getparent().tag == w("body"))
        found: dict[str, list[tuple[Element, str]]] = {"header": [], "footer": []}
        seen: set[str] = set()
        for number, section in enumerate(sections, 1):
            for kind in ("header", "footer"):
                tag = w(f"{kind}Reference")
                references: dict[str, Element] = {}
                for reference in children(section):  # not those of a w:sectPrChange
                    if reference.tag == tag:
                        references.setdefault(reference.get(TYPE) or "default", reference)
                for which in _HEADER_ORDER:
                    reference = references.get(which)
                    target = rels.get(reference.get(R_ID) or "") if reference is not None else None
                    if target is None or target[1] in seen:
                        continue
                    seen.add(target[1])
                    root = self._part(target[1])
                    if root is not None:
                        found[kind].append((root, f"s{number} {which}"))
        return found["header"], found["footer"]

    def _notes(self, name: str | None, tag: str) -> list[Element]:
        root = self._part(name)
        if root is None:
            return []
        return [n for n in root.iter(w(tag)) if n.get(TYPE, "normal") not in _NOTE_SKIPPED]

    @staticmethod
    def _number_notes(
        body: Element, notes: list[Element], tag: str, numbers: dict[str, int]
    ) -> None:
        known = {note.get(ID) for note in notes}
        for reference in body.iter(tag):
            key = reference.get(ID)
            if key in known and key not in numbers and _outside_fallback(reference):
                numbers[key] = len(numbers) + 1
        for note in notes:
            numbers.setdefault(note.get(ID), len(numbers) + 1)

    def _number_comments(self, places: list[Element], comments: list[Element]) -> None:
        authors = {c.get(ID) or "": str(c.get(AUTHOR) or "") or "unknown" for c in comments}
        numbers = self.refs.comments
        for place in places:
            for reference in place.iter(COMMENT_REFERENCE):
                key = reference.get(ID) or ""
                if key in authors and key not in numbers and _outside_fallback(reference):
                    numbers[key] = (len(numbers) + 1, authors[key])

        def by_id(key: str) -> tuple[int, int, str]:
            digits = key.strip().lstrip("-")
            return (0, int(key), "") if digits.isdigit() and len(digits) < 18 else (1, 0, key)

        for key in sorted((k for k in authors if k not in numbers), key=by_id):
            numbers[key] = (len(numbers) + 1, authors[key])


def lxml_version() -> str:
    """The lxml release that read the document (for a Doc JSON's source info)."""
    from lxml import etree

    return ".".join(str(part) for part in etree.LXML_VERSION[:3])
