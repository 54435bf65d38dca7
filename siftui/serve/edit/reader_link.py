"""What the host asks of the reader attached to it (EDITING.md), and the reader-less host.

The reader (siftui.tui.reader) implements :class:`ReaderLink` and attaches it to the
host's :class:`siftui.serve.edit.state.EditHost`; with none attached, the tools that
need a person (pdf_save, pdf_page_jump) answer EDITING.md's no-reader messages and
pdf_current lists no tabs. Every method is called from the host's threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from typing import Protocol

from siftui.core.edit.operations import Quad


class ReaderAway(Exception):
    """The reader went away while the host asked it something."""


class ShownTab(Protocol):
    """A reader tab as pdf_current lists it."""

    @property
    def tab_id(self) -> str: ...

    @property
    def path(self) -> str:
        """The real path of the file it shows."""
        ...

    @property
    def page(self) -> int: ...


class ReaderLink(Protocol):
    def tabs(self) -> Sequence[ShownTab]:
        """The reader's open tabs in order (``tab-1``, ... per reader start)."""
        ...

    def jump(self, tab_id: str, page: int, marks: tuple[Quad, ...] = ()) -> int:
        """Shows ``page`` in tab ``tab_id`` as one step of its back history, ``marks``
        (quads in PDF user space: a ref's text on that page) marked on it; the steps the
        history then holds. LookupError when the tab has closed, ReaderAway when
        the reader has."""
        ...

    def ask_save(self, path: str, revision: int, timeout: float) -> Future[bool]:
        """Puts the save of the working copy of ``path`` (its real path) at ``revision``
        before the person, with the draft's changes against the file (requests wait in
        line, one dialog at a time); the future is set True (``y``) or False (``n``,
        ``escape``). The host cancels it when its time is up (the dialog then closes).
        ReaderAway when the reader has gone."""
        ...

    def save_ended(self, path: str, outcome: str, saved: bool) -> None:
        """What became of a save of ``path`` the person approved: ``saved`` and the
        bytes written, or the line the agent is refused with (the file changed on disk
        meanwhile, a write that failed). The person learns it in the reader, not only
        in the agent's answer. ReaderAway when the reader has gone."""
        ...
