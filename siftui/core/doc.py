"""The extracted document: plain values, no I/O, no PyMuPDF."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class OutlineItem:
    """One bookmark. ``level`` >= 1; a ``page`` below 1 means the target is unknown."""

    level: int
    title: str
    page: int


@dataclass(frozen=True)
class Doc:
    """A document as the agent's tool sees it.

    ``page_count`` is the number of pages in the file; ``pages`` holds the texts
    of pages 1..E that were extracted (E <= page_count).
    """

    title: str
    page_count: int
    pages: tuple[str, ...]
    outline: tuple[OutlineItem, ...] = field(default=())

    def __post_init__(self) -> None:
        # Callers often pass lists; tuples keep the Doc hashable and immutable.
        if not isinstance(self.pages, tuple):
            object.__setattr__(self, "pages", tuple(self.pages))
        if not isinstance(self.outline, tuple):
            object.__setattr__(self, "outline", tuple(self.outline))

    def __hash__(self) -> int:
        # Equal Docs have equal sizes: hashing every page and outline item cost an open
        # ~3 ms (pgfmanual, DocIndex's lookup), where two Docs of one size are compared.
        return hash((self.title, self.page_count, len(self.pages), len(self.outline)))

    @property
    def extracted(self) -> int:
        """E: how many pages were extracted."""
        return len(self.pages)
