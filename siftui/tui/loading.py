"""Opening documents in a worker: progress, passwords, and errors in one line."""

from __future__ import annotations

import time
from pathlib import Path

from textual import work
from textual.reactive import reactive
from textual.widgets import ProgressBar
from textual.worker import get_current_worker

from siftui.cache import cached_extract
from siftui.doc import Doc
from siftui.extract import ExtractError, NeedsPassword, WrongPassword
from siftui.load import LoadError, is_doc_json, read_doc_json
from siftui.tui.base import AppBase
from siftui.tui.screens import PasswordScreen


class LoadingMixin(AppBase):
    """Extracts a document off the UI thread and hands the Doc to ``loaded()``."""

    doc: reactive[Doc | None]
    _path: Path | None
    # Read pages without text with Tesseract (the `t` toggle); off, as in the contract.
    ocr: bool = False
    _opened_password: str | None = None

    def open_document(self, path: Path, password: str | None = None) -> None:
        self.sub_title = f"opening {path.name} ..."
        bar = self.query_one("#loading", ProgressBar)
        bar.update(total=None, progress=0)
        bar.display = True
        self._load(path, password)

    @work(thread=True, exclusive=True, group="load", description="open a document")
    def _load(self, path: Path, password: str | None) -> None:
        worker = get_current_worker()
        shown = [0.0]

        def progress(done: int, total: int) -> None:
            # A repaint per page would cost more than the page itself: ~20 updates a second.
            now = time.monotonic()
            if worker.is_cancelled or (now - shown[0] < 0.05 and done < total):
                return
            shown[0] = now
            self.call_from_thread(self._progress, done, total)

        try:
            if is_doc_json(path):
                doc = read_doc_json(path)
            else:
                doc = cached_extract(path, password=password, progress=progress, ocr=self.ocr)
        except NeedsPassword:
            self.call_from_thread(self._ask_password, path, "")
            return
        except WrongPassword:
            self.call_from_thread(self._ask_password, path, "Wrong password, try again.")
            return
        except (ExtractError, LoadError) as error:
            self.call_from_thread(self._load_failed, str(error))
            return
        except OSError as error:
            self.call_from_thread(self._load_failed, f"{path}: {error.strerror or error}")
            return
        except Exception as error:  # PyMuPDF failed outside its usual types: say so, keep running
            detail = " ".join(f"{type(error).__name__}: {error}".split())
            self.call_from_thread(self._load_failed, f"{path}: cannot be read ({detail})")
            return
        if not worker.is_cancelled:
            self.call_from_thread(self._loaded, path, doc, password)

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#loading", ProgressBar).update(total=total, progress=done)

    def _ask_password(self, path: Path, error: str) -> None:
        self.query_one("#loading", ProgressBar).display = False

        def answered(password: str | None) -> None:
            if password is None:
                self._load_failed(f"{path}: not opened (it needs a password)")
            else:
                self.open_document(path, password)

        self.push_screen(PasswordScreen(path.name, error), answered)

    def _load_failed(self, message: str) -> None:
        self.query_one("#loading", ProgressBar).display = False
        self.sub_title = self._path.name if self.doc is not None and self._path else ""
        self.notify(message, title="Cannot open", severity="error", timeout=8)
        if self.doc is None:
            self.show_error(message)

    def _loaded(self, path: Path, doc: Doc, password: str | None) -> None:
        self.query_one("#loading", ProgressBar).display = False
        self._path = path
        self._opened_password = password
        self.sub_title = path.name
        self.loaded(path, doc)
