"""The siftui TUI: the agent-eye view of a document, live, with an exact copy.

How the state flows: the app holds one
:class:`Request` (a document's identity and the Options). Widgets never hold
the request; they *propose* one (an Input's text, the slider, the strip, the
walk, a key) and :meth:`SiftApp.propose` makes it the request. A render
worker answers it with an :class:`Outcome` carrying the request it answers;
:meth:`SiftApp._answered` drops any outcome for an older request, so the
``answer`` reactive only ever holds an answer to the request held now (or,
for a refused request, the newest answerable one on the same document). Every
widget draws from ``answer`` (data_bind), and copy, JSON and save act on it.
Only the app assigns its state: its helpers read it and return what it becomes.
"""

from __future__ import annotations

import gc
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.screen import Screen

from siftui.core.kinds import DEFAULT_KIND
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.tui.actions import KeyActions
from siftui.tui.answering import Answering, view_title
from siftui.tui.extras import Extras
from siftui.tui.found import Fact
from siftui.tui.history import CallCounter, CallHistory, Calls
from siftui.tui.keys import bindings
from siftui.tui.kinds import AnyDoc, AnyOptions, units_call, view_of, with_field
from siftui.tui.opening import OpenFlow
from siftui.tui.screens.main import Bound, MainScreen, main_widgets
from siftui.tui.state import (
    KEEP,
    START,
    Answer,
    Change,
    Opened,
    Outcome,
    Request,
    answer_request,
    other_unit,
)
from siftui.tui.strip_model import PageFacts
from siftui.tui.widgets.loader import Loader, OpenAsked
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.pagestrip import PageStrip
from siftui.tui.widgets.replay import CallChecked, CallChosen, ReplaySaid
from siftui.tui.widgets.request_bar import RequestBar
from siftui.tui.widgets.view import ContentView

if TYPE_CHECKING:
    from siftui.core.kind_view import KindView
    from siftui.tui.evidence.model import PreviewFactory
    from siftui.tui.evidence_rerun import LogReplay
    from siftui.tui.key_actions import Keys


class SiftApp(KeyActions):
    """Shows what an agent receives for a document, and copies it exactly."""

    CSS_PATH = Path(__file__).parent / "siftui.tcss"  # absolute, so subclasses elsewhere work
    REPLAY_CSS = Path(__file__).parent / "replay.tcss"
    """A log replay's layout, read after CSS_PATH by a replay only: Textual parses every
    rule it reads before the first frame."""
    TITLE = "siftui"
    # Short terminals keep the content visible: the controls shrink first (an 80x24
    # terminal folds the counter into two lines: at least 12 lines of content).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-compact"), (32, "-tall")]  # noqa: RUF012
    # Narrow terminals keep every request field in the bar: its labels go first.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (typed by Textual)
    BINDINGS = bindings()

    # always_update: an equal answer (a call made again) still refreshes the widgets.
    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)
    calls: reactive[Calls] = reactive(Calls, init=False)
    refused: reactive[str] = reactive("", init=False)
    """Why the request held is refused ("" when it is answered): the error line under
    the request bar; the answer shown is then the newest earlier one that renders."""
    problem: reactive[str] = reactive("", init=False)
    """Why no document is open ("" for none): the note says it, when an open failed."""
    # What the widgets are told, each bound to the one widget it is for (always_update:
    # each request shown, heading or open asked for is acted on, as when it came first).
    shown: reactive[AnyOptions | None] = reactive(None, init=False, always_update=True)
    """The request the controls show (the request bar, the OutCap control): set when the
    app shows it, not when they proposed it (they show it already)."""
    heading: reactive[str | None] = reactive(None, init=False, always_update=True)
    """The view's title: what it shows (siftui.tui.answering.view_title)."""
    open_asked: reactive[OpenAsked | None] = reactive(None, init=False, always_update=True)
    """The open the loader is asked for (None: stop the one running)."""
    replay_said: reactive[tuple[str, bool]] = reactive(("", False), init=False)
    """A replay's status line: how the replayed call compares, and if it is flagged."""

    def __init__(
        self,
        path: str | Path | None = None,
        password: str | None = None,
        log: LogReplay | None = None,
        evidence: PreviewFactory | None = None,
        ocr_language: str = DEFAULT_OCR_LANGUAGE,
    ) -> None:
        super().__init__(css_path=None if log is None else [self.CSS_PATH, self.REPLAY_CSS])
        self._start = (Path(path) if path is not None else None, password)
        self._replayed = log  # a log replay's calls, tail and re-runs
        self.request = START
        self.opened: Opened | None = None
        self.opener = OpenFlow()
        self.counter = CallCounter(self, self._counted)
        self.answering = Answering()
        self._evidence_factory = evidence
        self.ocr = False  # the `t` toggle: read pages without text with Tesseract
        self.ocr_language = ocr_language  # in these languages (Tesseract's codes)
        self.extras = Extras(self)  # found after an answer is painted

    @cached_property
    def keys(self) -> Keys:
        """The keys' helper, made (its module imported) at the first key that needs it."""
        from siftui.tui.key_actions import Keys

        return Keys(self, self, lambda: self.exports, self.extras)

    @property
    def history(self) -> CallHistory:
        return self.counter.history

    @property
    def doc(self) -> AnyDoc | None:
        """The document open now (None while none is)."""
        return self.opened.doc if self.opened is not None else None

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        bound = Bound(SiftApp)
        yield from main_widgets(bound, self._replayed, self.ocr_language)

    def get_default_screen(self) -> Screen[int]:
        return MainScreen(id="_default")

    def on_mount(self) -> None:
        self.call_after_refresh(gc.enable)  # `siftui FILE` starts without it (siftui.cli)
        path, password = self._start
        if self._replayed is not None:
            from siftui.tui.replay_flow import log_title  # a replay's only

            self.title = log_title(len(self._replayed.entries))

            self.query_one("#call-log", self.calls_type()).focus()
        elif path is not None:
            self.open_document(path, password)

    # ----------------------------------------------------- the request, and its answer

    def propose(self, options: AnyOptions, *, call: bool = False, typed: bool = False) -> None:
        """Make ``options`` the request (on the document open or opening). ``typed``: the
        controls proposed it, so they show it already and are not set again (setting an
        Input while its own Changed messages are queued would type over the user)."""
        request = Request(self.request.source, options)
        if call:
            self.counter.asked(request)
        if request == self.request:
            if call and self.answer is not None and self.answer.request == request:
                self.counter.made(self.answer)
            return
        self._set_request(request, sync=not typed)

    def _set_request(self, request: Request, *, sync: bool = True) -> None:
        self.answering.asked(self.answer, self.request, request)
        self.request = request
        if sync:
            self._show_request(request.options)
        self.render_request()

    def new_document(self, first: Outcome | None = None) -> None:
        """The request now names a freshly opened document: its first call is made
        (``first``: its answer, already made by the preload, if it answers that call)."""
        assert self.opened is not None
        self.answering.opened(self.opened)
        self._counted(self.counter.clear())
        self.counter.asked(self.request)  # opening a document is the agent's first call
        if first is not None and first.request == self.request and first.answer is not None:
            self._answered(first)
        else:
            self.render_request()

    def render_request(self) -> None:
        opened, request = self.opened, self.request
        if self.opening is not None or opened is None or opened.source != request.source:
            return
        self._render_worker(request, opened.doc, *self.answering.context())

    # Every worker names itself: Textual would otherwise describe it with the repr
    # of its arguments, and the repr of a 3 MB Doc costs ~40 ms on each slider step.
    @work(thread=True, exclusive=True, group="render", description="render the answer")
    def _render_worker(
        self,
        request: Request,
        doc: AnyDoc,
        earlier: tuple[AnyOptions, ...],
        facts: PageFacts | None,
    ) -> None:
        outcome = answer_request(request, doc, earlier, facts)
        self.call_from_thread(self._answered, outcome)

    def _answered(self, outcome: Outcome) -> None:
        if outcome.request != self.request:
            return  # it answers an older request: the newest request wins
        try:
            self.refused = outcome.error
            if outcome.answer is None:
                return
            if not self.answering.answered(outcome):
                self.answer = self.extras.dress(outcome.answer)
                return
            answer = outcome.answer
            if self._replayed is not None:  # a live answer beside the logged one
                answer = self.replay.compare(answer)
            self.answer = self.extras.dress(answer)
            self.counter.made(self.answer)
        except NoMatches:  # an answer that lands while the app quits: its widgets are gone
            return

    def apply(self, change: Change) -> None:
        """Make the state a helper worked out the app's (see ``Change`` for the order)."""
        if change.problem is not None:
            self.problem = change.problem
        if change.opened is not None:
            self.opened = change.opened
        if change.request is not None:
            self.request = change.request
            if change.sync:
                self._show_request(change.request.options)
        if change.error is not None:
            self.refused = change.error
        if change.answer is not KEEP:
            self.answer = change.answer
        if change.sub_title is not None:
            self.sub_title = change.sub_title
        if change.render:
            self.render_request()

    def _show_request(self, options: AnyOptions) -> None:
        """The controls show the request (their Changed messages then propose it again:
        no-op)."""
        if self.shown_view().range_action != view_of(options).range_action:
            self.refresh_bindings()  # `p` is named for the kind: Pages, or a Word document's Range
        self.shown = options

    def shown_view(self) -> KindView:
        """The kind whose fields the request bar shows (the default kind's at first)."""
        return view_of(self.shown) if self.shown is not None else DEFAULT_KIND.view

    def _counted(self, calls: Calls) -> None:
        if self._replayed is None:  # a replay's calls line counts the log's calls
            self.calls = calls

    # ------------------------------------------------ after the answer is painted

    def take(self, fact: Fact) -> None:
        """Keep what was found after an answer was painted, take the steps it leads to,
        and show the answer again dressed with it (none when it changes nothing)."""
        self.do(self.extras.found(fact))
        if self.answer is not None:
            dressed = self.extras.dress(self.answer)
            if dressed is not self.answer:
                self.answer = dressed

    def watch_answer(self, answer: Answer | None) -> None:
        if not self.is_running:
            return  # the app is closing: a worker's late result has nothing to show on
        self.heading = view_title(answer, self.opening)
        if answer is None:
            return
        self.sub_title = answer.name
        if (opened := self.answering.first_painted(answer, self.opened)) is not None:
            plain = self.answering.plain  # once the first answer is painted: the rest
            self.call_after_refresh(self._after_work, opened, plain)
        self.call_after_refresh(lambda: self.do(self.extras.after(answer)))

    def _after_work(self, opened: Opened, plain: Opened | None) -> None:
        from siftui.tui import background  # after the first frame: its imports too

        self.do(background.start(self, self.extras, opened, plain))

    @on(RequestBar.Edited)
    def _field_edited(self, event: RequestBar.Edited) -> None:
        self.propose(with_field(self.request.options, event.field, event.text), typed=True)

    @on(RequestBar.Submitted)
    def _submitted(self) -> None:
        self.propose(self.request.options, call=True, typed=True)
        self.query_one(ContentView).focus()

    @on(OutCapControl.Changed)
    def _outcap_changed(self, event: OutCapControl.Changed) -> None:
        options = replace(self.request.options, out_cap=event.value)
        self.propose(options, call=event.call, typed=True)

    @on(PageStrip.Selected)
    def _strip_selected(self, event: PageStrip.Selected) -> None:
        self.propose(units_call(self.request.options, event.first, event.last), call=True)

    # ------------------------------------------------------------- opening

    @property
    def opening(self) -> Path | None:
        """The file being opened now, if one is."""
        return self.opener.path

    def open_document(
        self,
        path: Path,
        password: str | None = None,
        *,
        options: AnyOptions | None = None,
        keep_answer: bool = False,
    ) -> None:
        """A fresh request on ``path`` (see :meth:`OpenFlow.start`)."""
        held = (self.request, self.answer)
        self.apply(self.opener.start(path, held, options=options, keep_answer=keep_answer))
        self.open_asked = OpenAsked(path, password, self.ocr)

    def ask_open(self, asked: OpenAsked) -> None:
        self.open_asked = asked

    @on(ReplaySaid)
    def _replay_said(self, event: ReplaySaid) -> None:
        self.replay_said = (event.message, event.warning)

    @on(Loader.Loaded)
    def _loaded(self, event: Loader.Loaded) -> None:
        self.apply(self.opener.loaded(event, self.request))
        self.new_document(event.first)

    @on(Loader.LoadFailed)
    def _load_failed(self, event: Loader.LoadFailed) -> None:
        self.notify(event.message, title="Cannot open", severity="error", timeout=8)
        self.apply(self.opener.failed(event.message, self.opened))

    @on(CallChosen)
    def _call_chosen(self, event: CallChosen) -> None:
        # A followed call that lands while the app quits: its screen is gone already
        # (the replay marks the screen for a tool call), so nothing of it is shown.
        if not self.is_running or not self.screen_stack:
            return
        self.calls = self.replay.log_calls(event.number)
        change = self.replay.chosen(event.entry, event.number)
        self.opener.cancel()
        self.open_asked = None
        self.apply(change)

    @on(CallChecked)
    def _call_checked(self, event: CallChecked) -> None:
        """The chosen call's file is checked: make the call again (opening it if needed)."""
        again = self.replay.checked(event.entry, event.number, event.digest, self.opened)
        if isinstance(again, Change):
            self.apply(again)
        elif again is not None and again.source is not None:
            self.open_document(again.source.path, options=again.options, keep_answer=True)

    # ------------------------------------------------------------------- the keys

    def action_history_back(self) -> None:
        self._travel(back=True)

    def action_history_forward(self) -> None:
        self._travel(back=False)

    def _travel(self, *, back: bool) -> None:
        if self._replayed is not None:  # a replay's calls are the log's: move in its list
            self.query_one("#call-log", self.calls_type()).step(back=back)
        elif (request := self.keys.travel(self.history, back=back)) is not None:
            self.calls = self.counter.moved()
            self._set_request(request)

    def action_toggle_unit(self) -> None:
        """`u`, or the unit button: the OutCap counted in the other unit, asked for."""
        self.propose(other_unit(self.request.options), call=True)

    @on(OutCapControl.UnitPressed)
    def _unit_pressed(self) -> None:
        self.action_toggle_unit()

    def action_toggle_ocr(self) -> None:
        opened = self.opened
        if (ocr := self.keys.toggled_ocr()) is not None and opened is not None:
            self.ocr = ocr
            self.open_document(opened.source.path, opened.password, options=self.request.options)
