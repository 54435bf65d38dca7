"""The evidence preview: one session of the evidence tools on the open PDF, exactly as sent.

The session's root is the file's folder and it begins with ``pdf_open`` of the
file's name, so identities are ``doc-1``, ``ref-1``, ... as an agent's would be.
Calls run one at a time in a thread worker on the server's own host (handed
over by the CLI: siftui.tui.evidence.model).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from siftui.core.tools.evidence import EVIDENCE_READ
from siftui.sources.picture import png_pixels
from siftui.tui.display import escape_controls, escape_lines
from siftui.tui.evidence.complete import complete
from siftui.tui.evidence.exports import copy_text, save_script
from siftui.tui.evidence.image import PageImage
from siftui.tui.evidence.model import Preview, Result
from siftui.tui.evidence.reading import Row, reading_rows
from siftui.tui.evidence.session import Made, SessionLog, call_text, next_call, parse_call_text
from siftui.tui.evidence.sizes import measured_text, sizes_line
from siftui.tui.evidence.starting import Starting, first_call
from siftui.tui.give_way import GIVE_WAY
from siftui.tui.keys import bindings, evidence_help_markdown, evidence_keys
from siftui.tui.widgets.footer import KeyFooter

if TYPE_CHECKING:
    from siftui.core.agents import Agent

STYLES = {"marker": "bold cyan", "note": "dim italic", "derived": "yellow", "tree": ""}


class CallInput(Input):
    """The call line: Tab completes tool names and argument keys."""

    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]  # noqa: RUF012

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cursor: int | None = None

    def prefill(self, text: str, cursor: int) -> None:
        """Focus the line holding ``text`` with the cursor at ``cursor``, for typing there."""
        self.value = text
        self._cursor = cursor
        self.focus()

    def on_focus(self) -> None:
        # Input's own focus handler, run after this one, selects the whole value, so
        # typing would replace the prefilled call: the cursor is placed once it has run.
        if self._cursor is not None:
            self.call_later(self._place_cursor)

    def _place_cursor(self) -> None:
        if self._cursor is not None:
            self.cursor_position, self._cursor = self._cursor, None

    def action_complete(self) -> None:
        done = complete(self.value)
        self.value = done.text
        self.cursor_position = len(self.value)
        self.screen.query_one("#ev-hint", SaidLine).say("  ".join(done.choices))


class SaidLine(Static):
    """A line that takes a row only while it says something (an error, completions):
    a short terminal keeps its rows for the result."""

    def say(self, text: str) -> None:
        self.update(text)
        self.display = bool(text)


class EvidenceScreen(Screen[None]):
    """An evidence session on one PDF; ``e`` goes back to read_pdf."""

    # The screen's own rules, added as default CSS when the preview first opens: a
    # CSS_PATH read then restyles every widget of the app (0.3-1 s on a large PDF).
    DEFAULT_CSS = Path(__file__).with_name("screen.tcss").read_text("utf-8")

    BINDINGS = bindings(evidence_keys())

    def __init__(self, starting: Starting) -> None:
        """``starting``: the session and its first call, made since `e` was pressed."""
        super().__init__()
        self.path = starting.path
        self._fresh = starting.fresh
        self.preview: Preview | None = None
        self._starting: Starting | None = starting
        self.session = SessionLog()
        self.reading = False
        self.busy = False
        self._rows: list[Row] = []
        # Each result's size line once counted (by the Made's id: the session keeps them).
        self._sizes: dict[int, str] = {}
        self._agents: tuple[tuple[Agent, ...], str] | None = None  # the table, or why not

    def validate_sub_title(self, sub_title: str | None) -> str | None:
        return None if sub_title is None else escape_controls(sub_title)  # a file's name

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="ev-calls", markup=False)
        yield CallInput(placeholder='tool {"key": value}', id="ev-call")
        yield SaidLine("", id="ev-error", classes="error", markup=False)
        yield SaidLine("", id="ev-hint", markup=False)
        yield TextArea("", id="ev-view", read_only=True, soft_wrap=False)
        yield OptionList(id="ev-reading")
        yield PageImage(id="ev-image")
        yield KeyFooter(compact=True)  # rebuilt only when its keys change

    def on_mount(self) -> None:
        self.sub_title = f"evidence tools on {self.path.name} (root {self.path.parent})"
        self.query_one("#ev-reading").display = False
        for line in self.query(SaidLine):
            line.display = False
        self.query_one(PageImage).display = False
        self._show_calls()
        self.action_focus_view()  # keys act at once; `:` types a call
        self.make(*first_call(self.path))

    # ---------------------------------------------------------------- calls

    def make(self, tool: str, arguments: Any) -> None:
        """Make one call in the session (ignored while one runs)."""
        if self.busy:
            self.notify("A call is running; wait for its result.", severity="warning")
            return
        self.busy = True
        self.query_one("#ev-call", Input).value = call_text(tool, arguments)
        self._call_worker(tool, arguments)

    @work(thread=True, group="evidence", description="an evidence call")
    def _call_worker(self, tool: str, arguments: Any) -> None:
        starting, self._starting = self._starting, None
        if starting is not None and (tool, arguments) == starting.first:
            self.preview, result = starting.take()  # made since `e` was pressed
        else:
            if starting is not None:
                starting.close()
            with GIVE_WAY.waiting():
                if self.preview is None:
                    self.preview = self._fresh()
                result = self.preview.call(tool, arguments)
        pixels = png_pixels(result.png) if result.png else None  # decoded here, not on paint
        self.app.call_from_thread(self._made, Made(tool, arguments, result, pixels))

    def _made(self, made: Made) -> None:
        self.busy = False
        self.session.add(made)
        error = self.query_one("#ev-error", SaidLine)
        error.say(made.result.message if made.result.is_error else "")
        if not made.result.is_error:
            self._show()
        self._show_calls()
        # Counted once the result is on screen: the count's thread would hold it back.
        self.call_after_refresh(self._count_worker, made)

    @work(thread=True, group="evidence-sizes", description="counting a result's tokens")
    def _count_worker(self, made: Made) -> None:
        """The result's token line and agents' check, after it is shown (loading the
        vocabularies takes a second or two the first time)."""
        from siftui.core.agents import AgentsError
        from siftui.sources.agents_load import load_agents
        from siftui.sources.tokens import token_counts

        if self._agents is None:
            try:
                self._agents = (tuple(load_agents()), "")
            except AgentsError as error:
                self._agents = ((), str(error))
        counts = token_counts(measured_text(made.result))
        line = sizes_line(made.result, counts, *self._agents)
        self.app.call_from_thread(self._counted, made, line)

    def _counted(self, made: Made, line: str) -> None:
        self._sizes[id(made)] = line
        if self.session.current is made:
            self._show_sizes(made)

    def _show_sizes(self, made: Made) -> None:
        line = self._sizes.get(id(made)) or sizes_line(made.result, None)
        subtitle = Content(line)  # never markup
        self.query_one("#ev-view", TextArea).border_subtitle = subtitle
        self.query_one("#ev-reading", OptionList).border_subtitle = subtitle

    def _show_calls(self) -> None:
        self.query_one("#ev-calls", Static).update(self.session.calls_line())

    def _show(self) -> None:
        made = self.session.current
        if made is None:
            return
        view = self.query_one("#ev-view", TextArea)
        view.load_text(escape_lines(made.result.text))  # a PDF's ESC never reaches the tty
        view.border_title = Content(call_text(made.tool, made.arguments))  # never markup
        self._rows = reading_rows(made.tool, made.result, self.session.document_of(made))
        options = self.query_one("#ev-reading", OptionList)
        options.clear_options()
        options.add_options([Option(_styled(row), id=str(n)) for n, row in enumerate(self._rows)])
        # The first reference (else the first row) under the cursor: Enter and `x` act at once.
        first = next((n for n, row in enumerate(self._rows) if row.ref is not None), 0)
        options.highlighted = first if self._rows else None
        options.border_title = view.border_title
        self._show_sizes(made)
        self._show_image()

    def _show_image(self) -> None:
        made = self.session.current
        pixels = made.pixels if made is not None and self.reading else None
        self.query_one(PageImage).show(pixels)
        self.query_one("#ev-reading").set_class(pixels is not None, "with-image")

    @on(Input.Submitted, "#ev-call")
    def _submitted(self, event: Input.Submitted) -> None:
        parsed = parse_call_text(event.value)
        if isinstance(parsed, str):
            self.query_one("#ev-error", SaidLine).say(parsed)
            return
        self.make(*parsed)
        self.action_focus_view()

    @on(OptionList.OptionSelected, "#ev-reading")
    def _row_chosen(self, event: OptionList.OptionSelected) -> None:
        row = self._rows[int(event.option.id or 0)]
        if row.ref is not None and row.document is not None:
            self.make(EVIDENCE_READ.name, {"documentId": row.document, "refId": row.ref})

    # ----------------------------------------------------------------- keys

    def action_leave(self) -> None:
        self.app.pop_screen()

    def action_focus_call(self) -> None:
        self.query_one("#ev-call", Input).focus()

    def action_focus_view(self) -> None:
        self.query_one("#ev-reading" if self.reading else "#ev-view").focus()

    def action_next_call(self) -> None:
        made = self.session.current
        step = next_call(made) if made is not None else None
        if step is None:
            self.notify("The result names no next call.")
            return
        self.make(*step)

    def action_walk_back(self) -> None:
        self._walk(back=True)

    def action_walk_forward(self) -> None:
        self._walk(back=False)

    def _walk(self, *, back: bool) -> None:
        if self.session.walk(back=back) and (made := self.session.current) is not None:
            self.query_one("#ev-call", Input).value = call_text(made.tool, made.arguments)
            self.query_one("#ev-error", SaidLine).say("")
            self._show()
            self._show_calls()

    def action_help(self) -> None:
        from siftui.tui.screens.help import HelpScreen  # brings Textual's Markdown

        self.app.push_screen(HelpScreen(evidence_help_markdown()))

    def action_reading(self) -> None:
        self.reading = not self.reading
        self.query_one("#ev-view").display = not self.reading
        self.query_one("#ev-reading").display = self.reading
        self._show_image()
        self.action_focus_view()

    def action_narrow(self) -> None:
        """Read a reference narrowed to the selected text; with none, type the quote."""
        reading = self.reading
        if reading:
            quote = self.get_selected_text() or ""
        else:
            quote = self.query_one("#ev-view", TextArea).selected_text
        row = self._narrowed_row(quote)
        if row is None or row.ref is None:
            self.notify("No reference here to narrow: pick a piece or a hit.", severity="warning")
            return
        if row.document is None:
            self.notify("No document is named for this reference.", severity="warning")
            return
        arguments = {"documentId": row.document, "refId": row.ref, "quote": quote}
        if quote:
            self.make(EVIDENCE_READ.name, arguments)
            return
        text = call_text(EVIDENCE_READ.name, arguments)
        # The cursor between the empty quote's marks, where the user types it.
        self.query_one("#ev-call", CallInput).prefill(text, len(text) - 2)

    def _narrowed_row(self, quote: str) -> Row | None:
        if self.reading:
            highlighted = self.query_one("#ev-reading", OptionList).highlighted
            return self._rows[highlighted] if highlighted is not None else None
        # The JSON view names no row: the first reference whose text holds the quote.
        refs = [row for row in self._rows if row.ref is not None]
        return next((row for row in refs if quote and quote in row.text), refs[0] if refs else None)

    def _result(self) -> tuple[Made, Result] | None:
        made = self.session.current
        if made is None:
            self.notify("No result yet.", severity="warning")
            return None
        return made, made.result

    def action_copy(self) -> None:
        if (shown := self._result()) is not None:
            copy_text(self.app, shown[1].text, f"{shown[0].tool} result")

    def action_copy_json(self) -> None:
        if (shown := self._result()) is not None:
            self._copy_json(*shown)

    @work(thread=True, group="evidence-json", description="the MCP result as JSON")
    def _copy_json(self, made: Made, result: Result) -> None:
        # Made here, not with each result: the MCP types take a second to import.
        text = result.mcp()
        self.app.call_from_thread(copy_text, self.app, text, f"{made.tool} result as MCP JSON")

    def action_save_script(self) -> None:
        save_script(self.app, self.session.script(), Path.cwd() / f"{self.path.stem}.session.jsonl")

    def on_unmount(self) -> None:
        self.close_preview()

    def close_preview(self) -> None:
        starting, self._starting = self._starting, None
        if starting is not None:
            starting.close()
        preview, self.preview = self.preview, None
        if preview is not None:
            preview.close()


def _styled(row: Row) -> Text:
    shown, mark = _escaped_row(row)  # a PDF's ESC or bidi override never reaches the tty
    text = Text(shown, style=STYLES.get(row.role, ""), no_wrap=True, overflow="ellipsis")
    if mark is not None:
        text.stylize("bold reverse", *mark)
    return text


def _escaped_row(row: Row) -> tuple[str, tuple[int, int] | None]:
    """``row``'s text with every unsafe character made visible, and its mark moved to
    where the marked text is shown."""
    if row.mark is None:
        return escape_controls(row.text), None
    start, end = row.mark
    head = escape_controls(row.text[:start])
    marked = escape_controls(row.text[start:end])
    return head + marked + escape_controls(row.text[end:]), (len(head), len(head) + len(marked))
