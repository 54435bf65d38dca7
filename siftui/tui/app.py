"""The siftui TUI: the agent-eye view of a document, live, with an exact copy."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Label, ProgressBar, Static
from textual.worker import get_current_worker

from siftui.doc import Doc
from siftui.docindex import index_of
from siftui.extract import ocr_unavailable_reason
from siftui.render import BadGrep, BadPages, Options, render
from siftui.serve.calllog import LogEntry
from siftui.tokens import TokenCounts
from siftui.tui.counter import DocTotals, counter_text
from siftui.tui.counting import CountingMixin
from siftui.tui.display import prepare
from siftui.tui.exporting import ExportMixin
from siftui.tui.history import CallHistory
from siftui.tui.loading import LoadingMixin
from siftui.tui.outcap import OutCapControl
from siftui.tui.pagestrip import PageStrip
from siftui.tui.replay import CallList, ReplayMixin
from siftui.tui.screens import HelpScreen, PathScreen
from siftui.tui.state import Shown, mode_label
from siftui.tui.strip_model import PageFacts, cap_page, facts_of, kinds_for
from siftui.tui.view import ContentView
from siftui.tui.walkscreen import WalkScreen
from siftui.walk import Call, next_call, walk


class SiftApp(LoadingMixin, ExportMixin, CountingMixin, ReplayMixin):
    """Shows what an agent receives for a document, and copies it exactly."""

    CSS_PATH = Path(__file__).parent / "siftui.tcss"  # absolute, so subclasses elsewhere work
    TITLE = "siftui"
    # Short terminals keep the content visible: the controls shrink first.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]  # noqa: RUF012 (typed by Textual)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy", "Copy"),
        Binding("s", "save", "Save"),
        Binding("j", "copy_json", "JSON"),
        Binding("slash", "focus_grep", "Grep"),
        Binding("p", "focus_pages", "Pages"),
        Binding("m", "map", "Map"),
        Binding("n", "follow", "Next"),
        Binding("w", "walk", "Walk"),
        Binding("b", "history_back", "Back", show=False),
        Binding("f", "history_forward", "Forward", show=False),
        Binding("left_square_bracket", "outcap_down", "Cap-"),
        Binding("right_square_bracket", "outcap_up", "Cap+"),
        Binding("o", "open", "Open"),
        Binding("t", "toggle_ocr", "OCR", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "focus_view", "To view", show=False),
    ]

    doc: reactive[Doc | None] = reactive(None, init=False)
    # always_update: an equal answer (a replayed call made again) still refreshes the counters.
    shown: reactive[Shown | None] = reactive(None, init=False, always_update=True)

    def __init__(
        self,
        path: str | Path | None = None,
        password: str | None = None,
        log_entries: list[LogEntry] | None = None,
    ) -> None:
        super().__init__()
        self._log_entries = log_entries
        self._path = Path(path) if path is not None else None
        self._password = password
        self._generation = 0
        self.history = CallHistory()
        self._plain: tuple[Path, Doc] | None = None
        self._ocr_pages: tuple[int, ...] = ()
        self._token_cache: dict[str, TokenCounts] = {}
        self._facts: PageFacts | None = None
        self._record_next = True

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Header()
        if self._log_entries is not None:
            yield CallList(self._log_entries)
        with Vertical(id="controls"):
            with Horizontal(id="request"):
                yield Label("Pages", classes="field-label")
                yield Input(placeholder="a-b, a or a-", id="pages", compact=True)
                yield Label("Grep", classes="field-label")
                yield Input(placeholder="RE2 pattern (smart case)", id="grep", compact=True)
            yield Static("", id="request-error", classes="error")
            yield OutCapControl(id="outcap")
            yield Static("", id="counter")
            yield Static("", id="tokens")
            yield PageStrip(id="strip")
            yield Static("", id="history")
            yield ProgressBar(id="loading", show_eta=False)
        yield Static("", id="replay")
        yield Static("", id="note")
        yield ContentView(id="content")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#loading", ProgressBar).display = False
        self._set_request_error("")
        self.query_one("#replay", Static).display = False
        self.query_one(ContentView).focus()
        if self._log_entries is not None:
            self.sub_title = f"call log: {len(self._log_entries)} calls"
            self.query_one(CallList).focus()
        elif self._path is not None:
            self.open_document(self._path, self._password)

    def loaded(self, path: Path, doc: Doc) -> None:
        if not self.ocr:
            self._plain = (path, doc)
            self._ocr_pages = ()
        elif self._plain is not None and self._plain[0] == path:
            self._ocr_pages = _read_by_ocr(self._plain[1], doc)
        else:  # opened with OCR already on: which pages had no text is not known
            self._ocr_pages = ()
        self.query_one(ContentView).ocr_pages = frozenset(self._ocr_pages)
        self._facts = facts_of(doc)
        self.history.clear()
        self._record_next = True
        self.rerun()  # a replayed call sets the request first, so the first render is it
        self.doc = doc
        self._count_pages(doc)
        self._prepare_grep(doc)
        if self._ocr_pages:
            self.notify(
                f"Tesseract read {len(self._ocr_pages)} page(s) without text: "
                f"p. {_listed(self._ocr_pages)}. Their page markers are marked OCR.",
                title="OCR",
                timeout=10,
            )
        blank = self._facts.empty_pages
        if blank:
            hint = "" if self.ocr else " Press t to read them with OCR."
            self.notify(
                f"{len(blank)} of {len(doc.pages)} pages have no text (image-only or scanned): "
                f"p. {_listed(blank)}. The agent gets only their page markers.{hint}",
                title="Pages without text",
                severity="warning",
                timeout=10,
            )

    def replay_status(self, message: str, *, warning: bool = False) -> None:
        widget = self.query_one("#replay", Static)
        widget.update(message)
        widget.display = True
        widget.set_class(warning, "warning")

    @work(thread=True, exclusive=True, group="prepare", description="build grep tables")
    def _prepare_grep(self, doc: Doc) -> None:
        # The first search then pays only for searching (pgfmanual: ~35 ms saved).
        index_of(doc).prepare_grep()

    def show_error(self, message: str) -> None:
        self._set_note(message, error=True)
        self.query_one(ContentView).border_title = "no document · press o to open a file"

    def watch_doc(self, doc: Doc | None) -> None:
        if doc is not None:
            self.refresh_view()

    # ------------------------------------------------------------- rendering

    def current_options(self) -> Options:
        """The request as typed: exactly what the agent would send."""
        return Options(
            pages=self.query_one("#pages", Input).value,
            grep=self.query_one("#grep", Input).value,
            out_cap=self.query_one(OutCapControl).value,
        )

    def refresh_view(self) -> None:
        if self.doc is None:
            return
        self._generation += 1
        self._render(self.doc, self.current_options(), self._generation)

    # Every worker names itself: Textual would otherwise describe it with the repr
    # of its arguments, and the repr of a 3 MB Doc costs ~40 ms on each slider step.
    @work(thread=True, exclusive=True, group="render", description="render the answer")
    def _render(self, doc: Doc, options: Options, generation: int) -> None:
        try:
            answer = render(doc, options)
        except (BadPages, BadGrep) as error:
            self.call_from_thread(self._bad_request, generation, str(error))
            return
        except Exception as error:  # a bug in siftui: show it, keep the last good view
            detail = " ".join(f"{type(error).__name__}: {error}".split())
            self.call_from_thread(self._bad_request, generation, f"internal error: {detail}")
            return
        prepared = prepare(answer.content, is_map=answer.map, is_grep=bool(options.grep))
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._rendered, generation, Shown(options, answer, prepared))

    def _bad_request(self, generation: int, message: str) -> None:
        if generation == self._generation:
            self._set_request_error(message)

    def _rendered(self, generation: int, shown: Shown) -> None:
        # The newest request wins: an older answer arriving late is dropped.
        if generation == self._generation:
            self._set_request_error("")
            if self._record_next:
                self._record_next = False
                self.history.record(shown.options, len(shown.answer.content))
            self.shown = self.compare_with_log(shown)

    def watch_shown(self, shown: Shown | None) -> None:
        if shown is None:
            return
        view = self.query_one(ContentView)
        view.show(shown.prepared, shown.options.grep)
        view.border_title = f"what the agent receives · {mode_label(shown)}"
        totals = None
        if self.doc is not None:
            index = index_of(self.doc)
            totals = DocTotals(self.doc.page_count, index.extracted, index.full_length)
            self._show_strip(self.doc, shown)
        counter = counter_text(
            shown.answer, shown.options.out_cap, totals, bool(shown.options.grep), self._ocr_pages
        )
        # Fixed-height lines: no layout pass needed (it costs ~40 ms on a full screen).
        self.query_one("#counter", Static).update(counter, layout=False)
        self._set_note(shown.answer.note)
        self._show_history()
        self._show_tokens(shown.answer.content)

    def _show_strip(self, doc: Doc, shown: Shown) -> None:
        if self._facts is None:
            return
        answer, options = shown.answer, shown.options
        start = answer.first if answer.first >= 1 else 1
        if options.grep and options.pages.strip():
            start = int(options.pages.strip().split("-")[0])
        kinds = kinds_for(doc, self._facts, answer)
        self.query_one(PageStrip).show(
            self._facts, kinds, cap_page(doc, answer, start, options.out_cap)
        )

    def _show_history(self) -> None:
        calls = len(self.history.calls)
        spent = self.history.spent_runes()
        position = self.history.position + 1
        self.query_one("#history", Static).update(
            f"calls {position}/{calls} · spent {spent:,} runes · ~{spent // 4:,} tokens"
            "   n next call · b back · f forward",
            layout=False,
        )

    def _set_request_error(self, message: str) -> None:
        widget = self.query_one("#request-error", Static)
        if message or widget.display:
            widget.update(message)
            widget.display = bool(message)

    def _set_note(self, note: str, error: bool = False) -> None:
        widget = self.query_one("#note", Static)
        if not note and not widget.has_class("visible"):
            return  # hidden and staying hidden: nothing to lay out again
        widget.update(note)
        widget.set_class(bool(note), "visible")
        widget.set_class(error, "error")

    @on(Input.Changed, "#pages, #grep")
    def _request_changed(self) -> None:
        self.refresh_view()

    @on(OutCapControl.Changed)
    def _outcap_changed(self) -> None:
        self.refresh_view()

    # ---------------------------------------------------------------- actions

    def action_focus_grep(self) -> None:
        self.query_one("#grep", Input).focus()

    def action_focus_pages(self) -> None:
        self.query_one("#pages", Input).focus()

    def action_focus_view(self) -> None:
        self.query_one(ContentView).focus()

    def action_map(self) -> None:
        self.ask(Options(out_cap=self.query_one(OutCapControl).value))
        self.query_one(ContentView).focus()

    def ask(self, options: Options) -> None:
        """Make a call as the agent would: set the request and record it."""
        self._record_next = True
        pages = self.query_one("#pages", Input)
        grep = self.query_one("#grep", Input)
        if pages.value == options.pages and grep.value == options.grep:
            self.refresh_view()
        pages.value = options.pages
        grep.value = options.grep
        if options.out_cap != self.query_one(OutCapControl).value:
            self.query_one(OutCapControl).value = options.out_cap

    def action_follow(self) -> None:
        if self.shown is None or self.doc is None:
            return
        call = next_call(self.shown.options, self.shown.answer, self.doc.extracted)
        if call is None:
            self.notify("Nothing to follow: this answer names no next call.")
            return
        self.ask(call)

    def action_walk(self) -> None:
        if self.doc is not None:
            self._walk(self.doc, self.query_one(OutCapControl).value)

    @work(thread=True, exclusive=True, group="walk", description="walk the document")
    def _walk(self, doc: Doc, out_cap: int) -> None:
        calls = walk(doc, out_cap)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show_walk, calls, out_cap)

    def _show_walk(self, calls: list[Call], out_cap: int) -> None:
        def chosen(options: Options | None) -> None:
            if options is not None:
                self.ask(options)

        self.push_screen(WalkScreen(calls, out_cap), chosen)

    def action_history_back(self) -> None:
        self._travel(self.history.back(), "the first call")

    def action_history_forward(self) -> None:
        self._travel(self.history.forward(), "the newest call")

    def _travel(self, options: Options | None, limit: str) -> None:
        if options is None:
            self.notify(f"Already at {limit}.")
            return
        self.ask(options)
        self._record_next = False

    @on(PageStrip.Selected)
    def _strip_selected(self, event: PageStrip.Selected) -> None:
        pages = str(event.first) if event.first == event.last else f"{event.first}-{event.last}"
        grep = self.query_one("#grep", Input).value
        self.ask(Options(pages=pages, grep=grep, out_cap=self.query_one(OutCapControl).value))

    @on(Input.Submitted, "#pages, #grep")
    def _request_submitted(self) -> None:
        self._record_next = True
        self.refresh_view()
        self.query_one(ContentView).focus()

    def action_outcap_down(self) -> None:
        self.query_one(OutCapControl).step_down()

    def action_outcap_up(self) -> None:
        self.query_one(OutCapControl).step_up()

    def action_open(self) -> None:
        def chosen(target: str | None) -> None:
            if target is not None:
                self.open_document(Path(target))

        start = str(self._path.parent) + "/" if self._path else ""
        title = "Open a document (PDF, EPUB, XPS, ... or Doc JSON)"
        self.push_screen(PathScreen(title, start), chosen)

    def action_toggle_ocr(self) -> None:
        if self._path is None or self.doc is None:
            self.notify("Open a document first.", severity="warning")
            return
        if not self.ocr:
            reason = ocr_unavailable_reason()
            if reason is not None:
                self.notify(reason, title="OCR", severity="error", timeout=8)
                return
        self.ocr = not self.ocr
        self.notify("OCR on: reading pages without text ..." if self.ocr else "OCR off")
        self.open_document(self._path, self._opened_password)

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.action in _HELP_TEXT:
                yield SystemCommand(
                    f"{binding.description} ({binding.key_display or binding.key})",
                    _HELP_TEXT.get(binding.action, binding.description),
                    lambda action=binding.action: self.run_action(action),
                )


def _read_by_ocr(plain: Doc, read: Doc) -> tuple[int, ...]:
    """Pages empty in the plain extraction that OCR gave text to."""
    return tuple(
        number
        for number, (before, after) in enumerate(zip(plain.pages, read.pages, strict=False), 1)
        if not before.strip() and after.strip()
    )


def _listed(pages: list[int] | tuple[int, ...]) -> str:
    return ", ".join(map(str, pages[:20])) + (" ..." if len(pages) > 20 else "")


_HELP_TEXT = {
    "copy": "Copy the answer, byte for byte, to the clipboard",
    "save": "Save the answer to a file",
    "copy_json": "Copy the answer as JSON, as siftui render --json prints it",
    "focus_grep": "Search the document with an RE2 pattern",
    "focus_pages": "Ask for a page range",
    "map": "Back to the map or the full text",
    "outcap_down": "OutCap one step down",
    "outcap_up": "OutCap one step up",
    "open": "Open another document",
    "toggle_ocr": "OCR pages without text with Tesseract (on/off); re-opens the document",
    "help": "Keys and what the view shows",
    "follow": "Make the call the note names, as the agent would",
    "walk": "Every call an agent makes to read the whole document",
    "history_back": "Back to the previous call",
    "history_forward": "Forward to the next call",
    "quit": "Quit siftui",
}


def create_log_app(entries: list[LogEntry]) -> SiftApp:
    """The app replaying the calls of an MCP call log."""
    return SiftApp(None, None, entries)


def create_app(path: str | Path | None = None, password: str | None = None) -> SiftApp:
    """The app for ``path``; the bundled sample when ``path`` is None."""
    if path is None:
        from siftui.sample import sample_path

        path = sample_path()
    return SiftApp(path, password)
