"""The reader's screen: tabs, the draft's page, and the panels beside it.

The page and its panels are drawn in a thread worker from the working copy (which
keeps its own lock: an agent may be changing it meanwhile), and a drawing is shown
only if it is still of the tab and page shown. A timer asks the working copy for
its revision; a new one (the agent's change, an undo, a save) draws the page again.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import (
    Header,
    OptionList,
    Static,
    TabbedContent,
    TabPane,
    Tabs,
    TextArea,
)
from textual.widgets import Tab as TabWidget

from siftui.core.edit.operations import Quad
from siftui.tui.display import escape_controls, escape_lines
from siftui.tui.evidence.image import PageImage
from siftui.tui.keys import READER_KEYS, bindings
from siftui.tui.reader.drawing import Drawn, drawing_of, page_line, shown_path
from siftui.tui.reader.edits import Edits
from siftui.tui.reader.panels import (
    AnnotationsTable,
    FieldsTable,
    OutlineList,
    call_result_text,
)
from siftui.tui.reader.tabs import Open, TabStore
from siftui.tui.widgets.footer import KeyFooter
from siftui.tui.widgets.replay import CallChosen

if TYPE_CHECKING:
    from siftui.tui.reader.model import ScreenOwner

SMALLEST = (60, 14)
"""Columns and rows below which the reader shows only a line asking for more."""


class ReaderScreen(Screen[None]):
    """The reader: every key of :data:`~siftui.tui.keys.READER_KEYS` is bound here (so a
    dialog on top takes them all)."""

    BINDINGS = bindings(READER_KEYS)

    def __init__(self, owner: ScreenOwner) -> None:
        super().__init__()
        self.reader = owner
        self.store = TabStore()
        self.edits = Edits(self, lambda: self.store.shown, self.draw)
        self._shown: tuple[str, int, int] | None = None  # tab, page, revision on screen
        self._outline_of: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Tabs(id="doc-tabs")
        yield Static("", id="reader-message", markup=False)
        with Horizontal(id="reader-body"):
            with Vertical(id="page-pane"):
                yield PageImage(id="page")
                yield Static("", id="page-line", markup=False)
            with TabbedContent(id="side", initial="annotations-pane"):
                with TabPane("Annotations", id="annotations-pane"):
                    yield AnnotationsTable()
                with TabPane("Outline", id="outline-pane"):
                    yield OutlineList()
                with TabPane("Fields", id="fields-pane"):
                    yield FieldsTable()
                with TabPane("Calls", id="calls-pane"):
                    yield from self._calls()
        yield Static("", id="too-small", markup=False)
        yield KeyFooter(compact=True)

    def _calls(self) -> ComposeResult:
        log = self.reader.backend.log_path
        if log is None:
            yield Static("The host keeps no call log: calls are not shown.", markup=False)
            return
        from siftui.sources.log.follow import LogTail
        from siftui.tui.widgets.call_list import CallList

        tail = LogTail.at_end(log) if log.exists() else LogTail(log)
        yield CallList([], tail, follow=True)
        yield TextArea("", id="call-result", read_only=True, soft_wrap=True)

    def on_mount(self) -> None:
        self.query_one("#too-small").display = False
        self.say("")
        self._show_empty()
        self.reader.screen_ready()

    # ------------------------------------------------------------ what is shown

    def say(self, message: str, *, error: bool = False) -> None:
        """The line under the tabs (an open that failed, what an open found)."""
        line = self.query_one("#reader-message", Static)
        line.update(escape_controls(message))
        line.display = bool(message)
        line.set_class(error, "error")

    def _show_empty(self) -> None:
        self.query_one(PageImage).show(None)
        self.query_one("#page-line", Static).update(
            "No document is open: o opens one. r shows how to register this reader "
            "with an agent host."
        )
        self.query_one(AnnotationsTable).show([])
        self.query_one(FieldsTable).show([])
        self.query_one(OutlineList).show([])
        self.sub_title = ""

    def draw(self) -> None:
        """Draws the tab shown (its page and panels) again."""
        shown = self.store.shown
        if shown is None:
            self._show_empty()
            return
        self._draw_worker(
            shown.tab.tab_id, shown.tab.page, shown, self._outline_of != shown.tab.tab_id
        )

    @work(thread=True, exclusive=True, group="draw", description="draw the page")
    def _draw_worker(self, tab: str, page: int, shown: Open, outline: bool) -> None:
        view = shown.view
        try:
            drawn = drawing_of(tab, page, shown, outline)
        except Exception as error:  # a working copy that fails to draw: said, not raised
            from siftui.sources.errors import report_unexpected

            message = report_unexpected(error, f"drawing page {page} of {view.path.name}")
            self.app.call_from_thread(self.say, message, error=True)
            return
        self.app.call_from_thread(self._drawn, drawn, outline)

    def _drawn(self, drawn: Drawn, outline: bool) -> None:
        shown = self.store.shown
        if shown is None or (shown.tab.tab_id, shown.tab.page) != (drawn.tab, drawn.page):
            return  # another tab or page is shown by now: its own drawing comes
        self._shown = (drawn.tab, drawn.page, drawn.revision)
        self.query_one(PageImage).show(drawn.pixels)
        self.query_one(AnnotationsTable).show(drawn.annotations)
        self.query_one(FieldsTable).show(drawn.fields)
        if outline:
            self.query_one(OutlineList).show(drawn.outline)
            self._outline_of = drawn.tab
        self.query_one("#page-line", Static).update(page_line(drawn, shown.pages))
        self._label(shown, drawn.unsaved)

    def _label(self, shown: Open, unsaved: bool) -> None:
        try:
            widget = self.query_one(f"#{shown.tab.tab_id}", TabWidget)
        except NoMatches:
            return
        name = escape_controls(Path(shown.tab.path).name)
        widget.label = Content(f"{name} •" if unsaved else name)  # never markup

    class DraftChanged(Message):
        """The draft a tab shows has a new revision (posted from the thread that made it)."""

        def __init__(self, tab: str) -> None:
            super().__init__()
            self.tab = tab

    def on_reader_screen_draft_changed(self, message: DraftChanged) -> None:
        tab = message.tab
        if self.store.active == tab:
            if self._outline_of == tab:
                self._outline_of = None  # the agent may have edited the outline
            self.draw()

    # ------------------------------------------------------------------ tabs

    async def add_tab(self, shown: Open) -> None:
        """A tab the person opened (the app's open flow made its working copy)."""
        tabs = self.query_one("#doc-tabs", Tabs)
        label = Content(escape_controls(Path(shown.tab.path).name))
        await tabs.add_tab(TabWidget(label, id=shown.tab.tab_id))
        tab = shown.tab.tab_id

        def changed() -> None:
            self.post_message(self.DraftChanged(tab))

        shown.view.listen(changed)
        tabs.active = shown.tab.tab_id
        self._activate(shown.tab.tab_id)
        note = shown.view.note
        self.say(note or "")

    @on(Tabs.TabActivated, "#doc-tabs")
    def _tab_activated(self, event: Tabs.TabActivated) -> None:
        if event.tab.id is not None and event.tab.id != self.store.active:
            self._activate(event.tab.id)

    def _activate(self, tab: str) -> None:
        self.store.active = tab
        self._outline_of = None
        self._shown = None
        shown = self.store.shown
        self.sub_title = escape_controls(shown_path(shown.tab.path)) if shown is not None else ""
        self.reader.publish_tabs()
        self.draw()

    def turn(self, page: int) -> None:
        shown = self.store.shown
        if shown is None:
            return
        if self.store.turn(shown.tab.tab_id, page) is not None:
            self.reader.publish_tabs()
            self.draw()

    def jump(self, tab: str, page: int, marks: tuple[Quad, ...] = ()) -> int | None:
        """E20 (or an outline item): ``page`` in ``tab`` as one step of its history,
        ``marks`` (a ref's text) tinted on it."""
        jumped = self.store.jump(tab, page, marks)
        if jumped is None:
            return None
        self.reader.publish_tabs()
        if self.store.active == tab:
            self.draw()
        return len(jumped.back)

    # ------------------------------------------------------------------ keys

    def action_help(self) -> None:
        from siftui.tui.keys import reader_help_markdown
        from siftui.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(reader_help_markdown()))

    def action_quit(self) -> None:
        self.app.exit()

    def action_open(self) -> None:
        self.reader.ask_open()

    def _page_of(self) -> Open | None:
        shown = self.store.shown
        if shown is None:
            self.notify("No document is open: o opens one.")
        return shown

    def action_page_next(self) -> None:
        if (shown := self._page_of()) is not None:
            self.turn(shown.tab.page + 1)

    def action_page_previous(self) -> None:
        if (shown := self._page_of()) is not None:
            self.turn(shown.tab.page - 1)

    def action_page_first(self) -> None:
        if self._page_of() is not None:
            self.turn(1)

    def action_page_last(self) -> None:
        if (shown := self._page_of()) is not None:
            self.turn(shown.pages)

    def action_back(self) -> None:
        shown = self._page_of()
        if shown is None:
            return
        if self.store.back(shown.tab.tab_id) is None:
            self.notify("No jump to go back from in this tab.")
            return
        self.reader.publish_tabs()
        self.draw()

    def action_tab_next(self) -> None:
        self._to_tab(1)

    def action_tab_previous(self) -> None:
        self._to_tab(-1)

    def _to_tab(self, step: int) -> None:
        tab = self.store.beside(step)
        if tab is not None:
            self.query_one("#doc-tabs", Tabs).active = tab

    def action_close_tab(self) -> None:
        shown = self._page_of()
        if shown is None:
            return
        self.store.close(shown.tab.tab_id)
        shown.view.release()
        self.query_one("#doc-tabs", Tabs).remove_tab(shown.tab.tab_id)
        self._shown = None
        self.reader.publish_tabs()
        if self.store.active is not None:
            self.query_one("#doc-tabs", Tabs).active = self.store.active
            self._activate(self.store.active)
        else:
            self._show_empty()

    def action_side(self, pane: str) -> None:
        self.query_one("#side", TabbedContent).active = f"{pane}-pane"
        widget = {
            "annotations": "#annotations",
            "outline": "#outline",
            "fields": "#fields",
            "calls": "#call-log",
        }[pane]
        with contextlib.suppress(NoMatches):
            self.query_one(widget).focus()

    def action_register(self) -> None:
        from siftui.tui.reader.register import RegisterScreen

        self.app.push_screen(RegisterScreen(self.reader.backend.registration))

    def action_undo(self) -> None:
        self.edits.undo()

    def action_redo(self) -> None:
        self.edits.redo()

    def action_delete(self) -> None:
        self.edits.delete(self.query_one(AnnotationsTable).chosen)

    def action_discard(self) -> None:
        self.edits.discard()

    @on(OptionList.OptionSelected, "#outline")
    def _outline_chosen(self, event: OptionList.OptionSelected) -> None:
        shown = self.store.shown
        pages = self.query_one(OutlineList).pages
        index = event.option_index
        if shown is None or not 0 <= index < len(pages):
            return
        page = pages[index]
        if page is None:
            self.notify("This outline item points at no page.")
            return
        self.jump(shown.tab.tab_id, page)

    @on(CallChosen)
    def _call_chosen(self, event: CallChosen) -> None:
        title, text = call_result_text(event.entry, event.number)
        result = self.query_one("#call-result", TextArea)
        result.load_text(escape_lines(text))
        result.border_title = Content(escape_controls(title))

    def on_resize(self, event: events.Resize) -> None:
        columns, rows = event.size
        small = columns < SMALLEST[0] or rows < SMALLEST[1]
        self.query_one("#reader-body").display = not small
        self.query_one("#doc-tabs").display = not small
        line = self.query_one("#too-small", Static)
        line.display = small
        line.update(
            f"The terminal is {columns}x{rows}: the reader needs at least "
            f"{SMALLEST[0]}x{SMALLEST[1]}. Make it larger (q quits)."
        )
