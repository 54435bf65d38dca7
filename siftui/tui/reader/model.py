"""What the reader is given, as plain values and protocols (no Textual).

The TUI never imports siftui.serve: `siftui reader` (siftui/cli/reader.py) starts
the host and hands the app a :class:`Backend`: it opens files as the host's
shared working copies (one per file: every tab and every agent's session that
opens it sees the same draft, revision and undo history), and says where the
host listens and where it logs the calls. The host reaches the app through a
:class:`~siftui.tui.reader.seam.ReaderSeam`: save requests to approve, the tabs,
and the jumps of E20.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from siftui.core.edit.operations import Quad
from siftui.core.halfblocks import Pixels
from siftui.core.reader import (
    AnnotationRow,
    ChangeLine,
    FieldRow,
    OutlineRow,
    Registration,
)


class EditRefused(Exception):
    """A change the working copy refused; ``str(error)`` is one line for the person."""


class OpenRefused(Exception):
    """A file the reader cannot open: missing, not a PDF, damaged, or encrypted.

    ``needs_password`` is True when a password (another one) would open it."""

    def __init__(self, message: str, *, needs_password: bool = False) -> None:
        super().__init__(message)
        self.needs_password = needs_password


class WorkingView(Protocol):
    """One working copy as a tab shows it. Every method may be called from a worker
    thread; the working copy keeps its own lock."""

    @property
    def path(self) -> Path: ...

    @property
    def note(self) -> str:
        """What opening it found, said once ("" for nothing): a kept draft restored at
        its revision, one kept aside because the file changed, a repaired file."""
        ...

    def pages(self) -> int: ...

    def revision(self) -> int: ...

    def unsaved(self) -> bool: ...

    def listen(self, changed: Callable[[], None]) -> None:
        """Calls ``changed`` (from whichever thread changed it) after every change of
        the draft, the agent's or the person's, until :meth:`release`."""
        ...

    def page_pixels(self, page: int, marks: tuple[Quad, ...] = ()) -> Pixels:
        """The draft's page ``page`` (1-based), annotations drawn, ``marks`` tinted."""
        ...

    def annotations(self, page: int) -> list[AnnotationRow]: ...

    def outline(self) -> list[OutlineRow]: ...

    def fields(self, page: int) -> list[FieldRow]: ...

    def undo(self) -> str:
        """Takes back the newest transaction (a new revision); what it was. EditRefused
        when there is nothing to undo."""
        ...

    def redo(self) -> str: ...

    def delete_annotation(self, annotation_id: str) -> str:
        """Deletes it and its replies in one transaction; what was deleted."""
        ...

    def discard(self) -> str:
        """Drops the draft (a new revision, the file's own content again)."""
        ...

    def release(self) -> None:
        """The tab showing it closed (the draft stays)."""
        ...


class Backend(Protocol):
    """What `siftui reader` hands the app."""

    @property
    def registration(self) -> Registration | None:
        """Where the host listens, and its token (None: no host runs)."""
        ...

    @property
    def log_path(self) -> Path | None:
        """The call log the host appends to (None: it keeps none)."""
        ...

    def open(self, path: Path, password: str | None) -> WorkingView:
        """The working copy of ``path`` (OpenRefused with one line when it cannot be)."""
        ...


@dataclass(frozen=True)
class SaveRequest:
    """An agent's pdf_save (E19) waiting for the person's decision.

    The app sets ``decision`` to True (``y``) or False (``n``, ``escape``); the host
    waits on it and cancels it when its time is up (the dialog then closes)."""

    path: Path
    revision: int
    changes: tuple[ChangeLine, ...]
    decision: Future[bool] = field(default_factory=Future, compare=False)
    agent: str = ""  # the client's name, when it gave one
    timeout: float | None = None  # seconds the host waits
    whole: str = ""  # why the save rewrites the file whole ("" when it appends to it)


class ScreenOwner(Protocol):
    """What the reader's screen asks of the app that holds it."""

    @property
    def backend(self) -> Backend: ...

    def publish_tabs(self) -> None:
        """The tabs changed: the host's pdf_current lists them anew."""
        ...

    def screen_ready(self) -> None: ...

    def ask_open(self) -> None:
        """``o``: the path dialog, then the open."""
        ...
