"""The preview's session made, and its first call made in it, from the moment `e` is pressed.

Making the session (the server's host: its modules, and the document, which is the
one the app has open when the file is unchanged) and its first call (``pdf_open``
of the file) run in a thread of their own while the preview's modules are imported
and its screen is built, so the first result is not kept waiting for the screen,
nor the screen for it (the first result came seconds after the same call through
``siftui session``). The app's after-work that can wait gives way from the key on.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from siftui.core.tools.evidence import OPEN
from siftui.tui.evidence.model import OpenDocument, Preview, PreviewFactory, Result
from siftui.tui.give_way import GIVE_WAY


def first_call(path: Path) -> tuple[str, dict[str, Any]]:
    """The call a preview of ``path`` begins with, as an agent's first session would."""
    return OPEN.name, {"path": path.name}


class Starting:
    """A session on ``path``'s folder and the result of its first call, being made
    (``document``: the app's open one, which the session answers with)."""

    def __init__(
        self, factory: PreviewFactory, path: Path, document: OpenDocument | None = None
    ) -> None:
        self.path = path
        self.first = first_call(path)
        self._factory = factory
        self._document = document
        self._made: Future[tuple[Preview, Result]] = Future()
        self._lock = threading.Lock()
        self._state = "making"  # then "made", "taken" or "closed"
        GIVE_WAY.begin()  # before the thread starts: no after-work slips in meanwhile
        thread = threading.Thread(target=self._run, name="evidence preview", daemon=True)
        try:
            thread.start()
        except BaseException:
            GIVE_WAY.end()  # no thread will end it
            raise

    def fresh(self) -> Preview:
        """Another session like the one being made (its first call not made)."""
        return self._factory(self.path.parent, self._document)

    def _run(self) -> None:
        try:
            preview, result = self._make()
        except BaseException as error:
            self._made.set_exception(error)
            return
        finally:
            GIVE_WAY.end()
        with self._lock:
            closed = self._state == "closed"
            if not closed:
                self._state = "made"
        if closed:  # the preview was left before it was made
            preview.close()
        self._made.set_result((preview, result))

    def _make(self) -> tuple[Preview, Result]:
        preview = self.fresh()
        try:
            return preview, preview.call(*self.first)
        except BaseException:
            preview.close()
            raise

    def take(self) -> tuple[Preview, Result]:
        """The session and its first result, once made (waits): the caller owns it then."""
        preview, result = self._made.result()
        with self._lock:
            self._state = "taken"
        return preview, result

    def close(self) -> None:
        """Close the session if no one took it (now, or as soon as it is made)."""
        with self._lock:
            state, self._state = self._state, "closed" if self._state != "taken" else "taken"
        if state == "made":
            self._made.result()[0].close()
