"""Opening a document in a new tab: the person's doing only (``o``, or the files
named on the command line), never an agent's.

The working copy is made in a thread worker (the host reads the file and may
restore a kept draft). A file that cannot be opened is said in one line on
screen; an encrypted one asks for its password, again after a wrong one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App

from siftui.tui.reader.model import Backend, OpenRefused, WorkingView

if TYPE_CHECKING:
    from siftui.tui.reader.screen import ReaderScreen


class Opener:
    """Opens files of ``backend`` in ``screen``'s tabs."""

    def __init__(self, screen: ReaderScreen, backend: Backend) -> None:
        self.screen = screen
        self.backend = backend

    @property
    def app(self) -> App[Any]:
        return self.screen.app

    def ask(self) -> None:
        """``o``: a path dialog, then the open."""
        from siftui.tui.screens.path import PathScreen

        def chosen(path: str | None) -> None:
            if path:
                self.open(Path(path))

        self.app.push_screen(
            PathScreen("Open a PDF in a new tab", f"{Path.cwd()}/", "Tab completes · Enter opens"),
            chosen,
        )

    def open(self, path: Path, password: str | None = None) -> None:
        self.open_all((path,), password)

    def open_all(self, paths: tuple[Path, ...], password: str | None = None) -> None:
        """Opens ``paths`` one after another, each in a new tab, in their order."""
        app = self.app

        def work() -> None:
            for path in paths:
                try:
                    view = self.backend.open(path, password)
                    pages = view.pages()
                except OpenRefused as error:
                    app.call_from_thread(self._refused, path, error)
                    continue
                except Exception as error:  # one line for the person, the traceback logged
                    from siftui.sources.errors import report_unexpected

                    message = report_unexpected(error, f"opening {path.name}")
                    app.call_from_thread(self.screen.say, message, error=True)
                    continue
                app.call_from_thread(self._opened, view, pages)

        app.run_worker(work, thread=True, group="open", description="open documents")

    def _opened(self, view: WorkingView, pages: int) -> None:
        screen = self.screen
        self.app.call_later(screen.add_tab, screen.store.add(view, pages))

    def _refused(self, path: Path, error: OpenRefused) -> None:
        self.screen.say(str(error), error=True)
        if not error.needs_password:
            return
        from siftui.tui.screens.password import PasswordScreen

        def typed(password: str | None) -> None:
            if password is not None:
                self.open(path, password)

        self.app.push_screen(PasswordScreen(path.name, str(error)), typed)
