"""What the pure edit tools need of a working copy (``siftui.sources.edit.WorkingCopy``
is the real one; tests use small fakes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from siftui.core.edit.annotations import Annotation
from siftui.core.edit.operations import Rect, Transaction
from siftui.core.edit.placement import PageGlyphs

__all__ = ["EditableCopy"]


class EditableCopy(Protocol):
    @property
    def revision(self) -> int: ...

    @property
    def page_count(self) -> int: ...

    def annotations(self, page: int | None = None) -> Sequence[Annotation]:
        """The draft's listed annotations (of one page, or all in page order)."""
        ...

    def glyphs(self, page: int) -> PageGlyphs:
        """The glyphs of page ``page`` (1-based) of the file's bytes."""
        ...

    def media_box(self, page: int) -> Rect:
        """Page ``page``'s MediaBox in user space."""
        ...

    def now(self) -> str:
        """The PDF date string a change made now carries."""
        ...

    def check(self, expected_revision: int) -> None:
        """The revision message when ``expected_revision`` is not the revision."""
        ...

    def commit(self, expected_revision: int, transaction: Transaction) -> int:
        """Applies ``transaction`` whole (or nothing, raising) after checking the
        revision again; returns the new revision."""
        ...
