"""The app's own screen, under its dialogs, and the widgets it holds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widgets import Header

from siftui.tui.widgets.counter import AlertsLine, CounterLine, SummaryLine
from siftui.tui.widgets.footer import KeyFooter
from siftui.tui.widgets.lines import CallsLine, ErrorLine, NoteLine
from siftui.tui.widgets.loader import Loader
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.pagestrip import PageStrip
from siftui.tui.widgets.replay import ReplayStatus
from siftui.tui.widgets.request_bar import RequestBar
from siftui.tui.widgets.tokens import TokenLine
from siftui.tui.widgets.view import ContentView

if TYPE_CHECKING:
    from siftui.tui.evidence_rerun import LogReplay


class Bound:
    """The app's reactives the widgets are drawn from (the app's class's, to bind), read
    off the app's class ``app`` by name. A plain class: a frozen dataclass's methods are
    compiled when its module is imported, on the way to the first frame, and these are
    only read."""

    def __init__(self, app: type[Any]) -> None:
        self.answer: Reactive[Any] = app.answer
        self.calls: Reactive[Any] = app.calls
        self.refused: Reactive[Any] = app.refused
        self.problem: Reactive[Any] = app.problem
        self.shown: Reactive[Any] = app.shown
        self.heading: Reactive[Any] = app.heading
        self.open_asked: Reactive[Any] = app.open_asked
        self.replay_said: Reactive[Any] = app.replay_said


def main_widgets(kind: Bound, replayed: LogReplay | None, ocr_language: str) -> ComposeResult:
    """The app's widgets, each bound to the app's state it is drawn from (``replayed``:
    a log replay's calls)."""
    yield Header()
    if replayed is not None:
        from siftui.tui.replay_flow import call_list  # a replay's only

        yield call_list(replayed)
    with Vertical(id="controls"):
        yield RequestBar(id="request").data_bind(kind.shown)
        yield ErrorLine(id="request-error", classes="error").data_bind(kind.refused)
        yield OutCapControl(id="outcap").data_bind(kind.shown)
        yield CounterLine(id="counter").data_bind(kind.answer)
        yield SummaryLine(id="summary").data_bind(kind.answer)  # short terminals:
        yield AlertsLine(id="alerts").data_bind(kind.answer)  # the counter folded
        yield TokenLine(id="tokens").data_bind(kind.answer)
        yield PageStrip(id="strip").data_bind(kind.answer)
        yield CallsLine(id="calls-line", markup=False).data_bind(
            kind.answer, kind.calls, kind.refused
        )
        yield Loader(id="loader", ocr_language=ocr_language).data_bind(kind.open_asked)
    if replayed is not None:  # how a replayed call compares: a replay's only
        yield ReplayStatus(id="replay", markup=False).data_bind(said=kind.replay_said)
    yield NoteLine(id="note", markup=False).data_bind(kind.answer, kind.problem)
    yield ContentView(id="content").data_bind(kind.answer, kind.heading)
    yield KeyFooter(compact=True)


def breakpoint_class(size: int, breakpoints: list[tuple[int, str]]) -> set[str]:
    """The class of the largest breakpoint ``size`` reaches (Textual's rule)."""
    for limit, name in sorted(breakpoints, reverse=True):
        if size >= limit:
            return {name}
    return set()


class MainScreen(Screen[int]):
    """The app's screen: the view has focus from the start, so keys typed while the
    app starts reach the app's bindings, never the Pages input."""

    AUTO_FOCUS = "#content"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        # The breakpoint classes Textual sets on the first resize, set before the first
        # styling: set after it, they restyle every widget again (0.1 s at start).
        width, height = self.app.size
        classes = breakpoint_class(width, self.app.HORIZONTAL_BREAKPOINTS or [])
        classes |= breakpoint_class(height, self.app.VERTICAL_BREAKPOINTS or [])
        self.add_class(*classes, update=False)
        self._shown = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Shown the first time, every widget was styled as it was mounted, and each
        # change since (focus, classes) restyled its own: Textual's restyle of the
        # whole screen would do it all again before the first frame (a twentieth of the
        # start). Coming back from a dialog, it does.
        if not self._shown:
            self._shown = True
            event.refresh_styles = False
