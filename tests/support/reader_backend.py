# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial)
"""A reader backend for the TUI tests: working copies held in memory, each change a
snapshot of the draft's bytes (the real ones are the host's, siftui/cli/reader.py).

It draws and lists through the same functions the real reader uses
(siftui.sources.reader_page), and refuses files as the reader says it does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pymupdf

from siftui.core.edit.operations import Quad
from siftui.core.halfblocks import Pixels
from siftui.core.reader import AGENT_AUTHOR, AnnotationRow, FieldRow, OutlineRow, Registration
from siftui.sources.pdf_open import ExtractError, NeedsPassword, WrongPassword, open_document
from siftui.sources.reader_page import annotation_rows, field_rows, outline_rows, page_pixels
from siftui.tui.reader.model import EditRefused, OpenRefused


class MemoryCopy:
    """One working copy: the draft as an open document, its revision and history."""

    def __init__(self, path: Path, document: Any) -> None:
        self._path = path
        self._lock = threading.RLock()
        self.document = document
        self.file_bytes = document.tobytes()
        self._revision = 0
        self.applied: list[bytes] = []  # the draft before each change held
        self.undone: list[bytes] = []
        self.released = False
        self.made = 0
        self._listeners: list[Callable[[], None]] = []

    @property
    def path(self) -> Path:
        return self._path

    @property
    def note(self) -> str:
        return ""

    def pages(self) -> int:
        return int(self.document.page_count)

    def revision(self) -> int:
        with self._lock:
            return self._revision

    def unsaved(self) -> bool:
        with self._lock:
            return bool(self.applied)

    def page_pixels(self, page: int, marks: tuple[Quad, ...] = ()) -> Pixels:
        with self._lock:
            return page_pixels(self.document, page, 200, marks)

    def annotations(self, page: int) -> list[AnnotationRow]:
        with self._lock:
            return annotation_rows(self.document, page)

    def outline(self) -> list[OutlineRow]:
        with self._lock:
            return outline_rows(self.document)

    def fields(self, page: int) -> list[FieldRow]:
        with self._lock:
            return field_rows(self.document, page)

    def change(self, edit: Callable[[Any], None]) -> int:
        """One transaction: ``edit`` on the draft, a new revision."""
        with self._lock:
            before = self.document.tobytes()
            edit(self.document)
            self.applied.append(before)
            self.undone.clear()
            self._revision += 1
            self._tell()
            return self._revision

    def highlight(self, page: int, rect: tuple[float, float, float, float], comment: str) -> int:
        """What an agent's pdf_annotation_create does, in short."""

        def edit(document: Any) -> None:
            self.made += 1
            shown = document[page - 1]  # held: an annotation needs its page alive
            annotation = shown.add_highlight_annot(pymupdf.Rect(*rect))
            annotation.set_info(title=AGENT_AUTHOR, content=comment)
            annotation.update()
            name = pymupdf.get_pdf_str(f"siftui-{self._revision + 1}-{self.made}")
            document.xref_set_key(annotation.xref, "NM", name)

        return self.change(edit)

    def _reopen(self, data: bytes) -> None:
        self.document = pymupdf.open(stream=data, filetype="pdf")

    def undo(self) -> str:
        with self._lock:
            if not self.applied:
                raise EditRefused("nothing to undo")
            self.undone.append(self.document.tobytes())
            self._reopen(self.applied.pop())
            self._revision += 1
            self._tell()
            return f"Undone: revision {self._revision}"

    def redo(self) -> str:
        with self._lock:
            if not self.undone:
                raise EditRefused("nothing to redo")
            self.applied.append(self.document.tobytes())
            self._reopen(self.undone.pop())
            self._revision += 1
            self._tell()
            return f"Redone: revision {self._revision}"

    def delete_annotation(self, annotation_id: str) -> str:
        def edit(document: Any) -> None:
            for page in document:
                for annotation in page.annots():
                    name = annotation.info.get("id") or f"xref-{annotation.xref}"
                    if name == annotation_id:
                        page.delete_annot(annotation)
                        return
            raise EditRefused(f'unknown annotationId "{annotation_id}"')

        revision = self.change(edit)
        return f"Deleted {annotation_id}: revision {revision}"

    def discard(self) -> str:
        with self._lock:
            self._reopen(self.file_bytes)
            self.applied.clear()
            self.undone.clear()
            self._revision += 1
            self._tell()
            return f"The draft is discarded: revision {self._revision}"

    def listen(self, changed: Callable[[], None]) -> None:
        self._listeners.append(changed)

    def _tell(self) -> None:
        for changed in self._listeners:
            changed()

    def release(self) -> None:
        self.released = True
        self._listeners.clear()


class MemoryBackend:
    """Opens files as :class:`MemoryCopy`, one per path (tabs of one file share it)."""

    def __init__(self, log_path: Path | None = None, registration: Registration | None = None):
        self._log = log_path
        self._registration = registration
        self.copies: dict[Path, MemoryCopy] = {}

    @property
    def registration(self) -> Registration | None:
        return self._registration

    @property
    def log_path(self) -> Path | None:
        return self._log

    def open(self, path: Path, password: str | None) -> MemoryCopy:
        real = path.resolve()
        if real in self.copies:
            return self.copies[real]
        try:
            document = open_document(real, password)
        except (NeedsPassword, WrongPassword) as error:
            raise OpenRefused(str(error), needs_password=True) from None
        except ExtractError as error:
            raise OpenRefused(str(error)) from None
        copy = MemoryCopy(real, document)
        self.copies[real] = copy
        return copy


def save_request(path: Path, revision: int, *lines: tuple[int | None, str]) -> Any:
    """A pdf_save's request as the host hands it to the reader."""
    from siftui.core.reader import ChangeLine
    from siftui.tui.reader.model import SaveRequest

    decision: Future[bool] = Future()
    changes = tuple(ChangeLine(page, what) for page, what in lines)
    return SaveRequest(path, revision, changes, decision)
