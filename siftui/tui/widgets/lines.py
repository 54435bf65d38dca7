"""One-line widgets drawn from the app's state: the calls line, the note and the error line."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from siftui.core.terminal import escape_lines
from siftui.tui.history import Calls, calls_text
from siftui.tui.state import Answer

HINT = "   n next · b back · f forward"


class CallsLine(Static):
    """ "call 3 of 5 · this answer 11,006 runes · spent 40,530 runes": the answer shown
    (in bytes when its OutCap counts bytes)."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)
    calls: reactive[Calls] = reactive(Calls, init=False)
    refused: reactive[str] = reactive("", init=False)  # the app's: the request held is refused

    def watch_answer(self) -> None:
        self._draw()

    def watch_calls(self) -> None:
        self._draw()

    def watch_refused(self) -> None:
        self._draw()

    def _draw(self) -> None:
        answer = self.answer
        if answer is None:
            self.update("", layout=False)
            return
        content = answer.rendered.content
        text = calls_text(self.calls, answer.request, content, refused=bool(self.refused))
        self.update(text + HINT, layout=False)


class NoteLine(Static):
    """The answer's note (``cut at page 15; ask for pages="16-30"``), or a problem."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)
    problem: reactive[str] = reactive("", init=False)

    def watch_answer(self) -> None:
        self._draw()

    def watch_problem(self) -> None:
        self._draw()

    def _draw(self) -> None:
        note = self.problem or (self.answer.rendered.note if self.answer is not None else "")
        if not note and not self.has_class("visible"):
            return  # hidden and staying hidden: nothing to lay out again
        self.update(escape_lines(note))  # a logged note is a crafted log's to write
        self.set_class(bool(note), "visible")
        self.set_class(bool(self.problem), "error")


class ErrorLine(Static):
    """Why the request held is refused (the app's ``refused``), under the request bar;
    hidden while it is answered."""

    refused: reactive[str] = reactive("", init=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes, markup=False)
        self.display = False

    def watch_refused(self, refused: str) -> None:
        if refused or self.display:
            self.update(refused)
            self.display = bool(refused)
