"""What every session of one host shares for the edit tools (EDITING.md)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from siftui.serve.edit.approval import DEFAULT_APPROVAL_TIMEOUT
from siftui.serve.edit.reader_link import ReaderLink

if TYPE_CHECKING:  # their module loads MuPDF: a server without the edit family never does
    from siftui.sources.edit.drafts import DraftStore
    from siftui.sources.edit.registry import WorkingCopies


class EditHost:
    """The host's working copies (one per file, shared by every session and reader tab,
    drafts kept in ``drafts``), the reader attached (none: pdf_save and pdf_page_jump
    say so, and pdf_current lists no tabs) and how long a save waits for the person."""

    def __init__(
        self,
        approval_timeout: float = DEFAULT_APPROVAL_TIMEOUT,
        drafts: DraftStore | None = None,
    ) -> None:
        self.approval_timeout = approval_timeout
        self._drafts = drafts
        self._copies: WorkingCopies | None = None
        self._lock = threading.Lock()
        self._reader: ReaderLink | None = None

    @property
    def copies(self) -> WorkingCopies:
        """The working copies, made at the first use (the first edit call or reader tab)."""
        with self._lock:
            if self._copies is None:
                from siftui.sources.edit.drafts import DraftStore
                from siftui.sources.edit.registry import WorkingCopies

                drafts = self._drafts if self._drafts is not None else DraftStore()
                self._copies = WorkingCopies(drafts)
            return self._copies

    def attach(self, reader: ReaderLink) -> None:
        with self._lock:
            self._reader = reader

    def detach(self) -> None:
        with self._lock:
            self._reader = None

    @property
    def reader(self) -> ReaderLink | None:
        with self._lock:
            return self._reader
