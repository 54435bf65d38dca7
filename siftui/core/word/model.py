"""A Word document as the agent's tool sees it (docs/WORD.md): plain values.

Pure: no I/O, no OOXML. The reader (siftui.sources.word) resolves styles, numbering,
revisions, fields and notes into these values; the renderer (siftui.core.word.render)
turns them into answers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

# The stories of a document, in the order the contract lists them; "body" is the default scope.
SCOPES = ("body", "footnotes", "endnotes", "comments", "headers", "footers")
PREFIX_WIDTH = 24
INDENT = " " * (PREFIX_WIDTH + 1)


def text_hash(text: str) -> str:
    """The first 4 hex digits of the SHA-256 of ``text`` (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:4]


def line(prefix: str, text: str) -> str:
    """A projection line: the prefix padded to 24 columns, one space, the text."""
    return f"{prefix:<{PREFIX_WIDTH}} {text}"


@dataclass(frozen=True, slots=True)
class Para:
    """One block-level paragraph of a story, its text final (markers resolved).

    ``heading`` is 1-6 for a heading, else 0. ``list`` is ``"ol L1"``-like for a
    list paragraph (shown only when it is not a heading), else "". ``item`` is the
    annotation of the note, comment, header or footer this paragraph opens
    (``"^1"``, ``"C2"``, ``"s1 default"``), else "".
    """

    text: str
    heading: int = 0
    list: str = ""
    item: str = ""

    @property
    def hash(self) -> str:
        return text_hash(self.text)

    def annotations(self) -> str:
        parts = [self.item] if self.item else []
        if self.heading:
            parts.append(f"H{self.heading}")
        elif self.list:
            parts.append(f"List:{self.list}")
        return " ".join(parts)

    def prefix(self, number: int) -> str:
        notes = self.annotations()
        anchor = f"P{number}#{self.hash}"
        return f"[{anchor}  {notes}]" if notes else f"[{anchor}]"


@dataclass(frozen=True, slots=True)
class Table:
    """One block-level table: ``after`` is the number of the paragraph before it
    (0: none, ``@start``); ``rows`` are the rows' ``| a | b |`` texts."""

    after: int
    rows: tuple[str, ...]
    columns: int
    item: str = ""

    def prefix(self, number: int) -> str:
        where = f"@after:P{self.after}" if self.after else "@start"
        size = f"{len(self.rows)}×{self.columns}"
        tail = f"  {self.item}" if self.item else ""
        return f"[T{number}  {size} {where}{tail}]"

    def lines(self, number: int) -> list[str]:
        prefix = self.prefix(number)
        if not self.rows:
            return [prefix]
        return [line(prefix, self.rows[0]), *(INDENT + row for row in self.rows[1:])]


@dataclass(frozen=True)
class Story:
    """A story's paragraphs (P1..PN, empty ones included) and tables (T1..)."""

    paragraphs: tuple[Para, ...] = ()
    tables: tuple[Table, ...] = ()
    # Derived facts (siftui.core.word.index) computed once; not part of the value.
    cache: dict[object, object] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.paragraphs, tuple):
            object.__setattr__(self, "paragraphs", tuple(self.paragraphs))
        if not isinstance(self.tables, tuple):
            object.__setattr__(self, "tables", tuple(self.tables))

    @property
    def count(self) -> int:
        """N: the story's last paragraph number."""
        return len(self.paragraphs)


@dataclass(frozen=True)
class DocxDoc:
    """A Word document: its core-properties title and its six stories.

    ``notes`` are what the reader could not read exactly (a part left out, a
    limit reached), one line each; they never change the projection's rules.
    """

    title: str
    stories: dict[str, Story]
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        stories = {name: self.stories.get(name, Story()) for name in SCOPES}
        object.__setattr__(self, "stories", stories)
        if not isinstance(self.notes, tuple):
            object.__setattr__(self, "notes", tuple(self.notes))

    def __hash__(self) -> int:
        return hash((self.title, tuple(self.stories[name] for name in SCOPES), self.notes))

    @property
    def body(self) -> Story:
        return self.stories["body"]
