"""What the app's keys do: :class:`Keys` works each one out for the app's ``action_*``.

Each key acts on the answer shown (copy, save, the walk, the hidden-text list),
moves the focus, opens a screen, or proposes a request (``Held.propose``, as the
controls do). A key that changes the app's state otherwise returns the value
(:meth:`Keys.travel`'s request, :meth:`Keys.toggled_ocr`'s setting) and the app
makes it; none reads options back out of a widget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App

from siftui.core.budget import check_unit
from siftui.core.kinds import AnyCall, kind_of
from siftui.core.unreachable import Unreachable
from siftui.tui.display import plural
from siftui.tui.extras import Extras
from siftui.tui.history import CallHistory
from siftui.tui.kinds import AnyOptions, anchor_call, first_call, next_call_any, page_call
from siftui.tui.state import Answer, Held, Request
from siftui.tui.widgets.counter import counter_text
from siftui.tui.widgets.tokens import tokens_text

if TYPE_CHECKING:
    from siftui.tui.exporting import Exports


class Keys:
    """The keys of an app (``app``: Textual's services; ``held``: its state, to read)."""

    def __init__(
        self, app: App[Any], held: Held, exports: Callable[[], Exports], extras: Extras
    ) -> None:
        self.app, self.held, self._exports, self.extras = app, held, exports, extras

    def acting_on(self, doing: str) -> Answer | None:
        """The answer shown, or None with a message saying why there is none to act on."""
        app, held = self.app, self.held
        if held.opening is not None:
            app.notify(
                f"Still opening {held.opening.name} …; {doing} once it is open.",
                severity="warning",
            )
            return None
        if held.answer is None:
            app.notify(f"Nothing to {doing}: no document is open.", severity="warning")
            return None
        return held.answer

    def copy(self, *, as_json: bool = False) -> None:
        if (answer := self.acting_on("copy")) is not None:
            self._exports().copy(answer, as_json=as_json)

    def save(self) -> None:
        if (answer := self.acting_on("save")) is not None:
            self._exports().save(answer)

    def details(self) -> None:
        """`d`: the counter and the token line of the answer shown, in full."""
        answer = self.acting_on("show details of")
        if answer is None:
            return
        details = counter_text(answer)
        details.append("\n\n")
        details.append_text(tokens_text(len(answer.rendered.content), answer.counts))
        from siftui.tui.screens.details import DetailsScreen

        self.app.push_screen(DetailsScreen(f"{answer.name} · {answer.label()}", details))

    def map(self) -> None:
        self.held.propose(first_call(self.held.request.options), call=True)

    def follow(self) -> None:
        answer = self.acting_on("follow the note")
        if answer is None or answer.doc is None:
            return
        call = next_call_any(answer.options, answer.rendered, answer.doc)
        if call is None:
            self.app.notify("Nothing to follow: this answer names no next call.")
            return
        self.held.propose(call, call=True)

    def travel(self, history: CallHistory, *, back: bool) -> Request | None:
        """`b` / `f`: the call before or after the one shown (None at either end, said)."""
        if self.acting_on("go back" if back else "go forward") is None:
            return None
        request = history.back() if back else history.forward()
        if request is None:
            self.app.notify(f"Already at {'the first call' if back else 'the newest call'}.")
        return request

    def line_chosen(self, unit: int) -> None:
        """A paragraph chosen in the view of a Word answer: ask for its window."""
        answer = self.held.answer
        if answer is not None and answer.doc is not None:
            call = anchor_call(self.held.request.options, answer.doc, unit)
            if call is not None:
                self.held.propose(call, call=True)

    def walk(self) -> None:
        """Every call an agent makes to read the document shown (for a PDF, also the text
        no pages= call shows), in a worker; then the lists, whose choice is proposed."""
        app, held = self.app, self.held
        answer = self.acting_on("walk")
        if answer is None:
            return
        doc, request = answer.doc, answer.request
        if doc is None:
            app.notify("The walk needs the document open; this answer is only logged.")
            return
        out_cap = request.options.out_cap

        def work() -> None:
            calls: Sequence[AnyCall]
            kind = kind_of(doc)
            calls = kind.walk(doc, request.options)
            scope = getattr(request.options, "scope", "body") or "body"
            found: Unreachable | None = answer.unreachable  # the counter's, when known
            if found is None:
                found = kind.unreachable(doc, out_cap, scope, check_unit(request.options.unit))
            app.call_from_thread(show, calls, found)

        def show(calls: Sequence[AnyCall], found: Unreachable | None) -> None:
            if held.request.source != request.source or held.opening is not None:
                return  # another document since: this walk is not of the one shown

            def chosen(options: AnyOptions | None) -> None:
                if options is not None and held.request.source == request.source:
                    held.propose(options, call=True)

            from siftui.tui.screens.walk import WalkScreen

            unit = check_unit(request.options.unit)
            app.push_screen(WalkScreen(calls, out_cap, found, unit), chosen)

        app.run_worker(work, thread=True, exclusive=True, group="walk", description="walk")

    def open(self) -> None:
        def chosen(target: str | None) -> None:
            if target is not None:
                self.held.open_document(Path(target))

        title = "Open a document (PDF, EPUB, XPS, ..., Word .docx, or their JSON)"
        from siftui.tui.screens.path import PathScreen

        self.app.push_screen(PathScreen(title, str(Path.cwd()) + "/"), chosen)

    def toggled_ocr(self) -> bool | None:
        """`t`: OCR of pages without text (Tesseract) turned on or off, for the app to
        open the document again with; None (said why) when it stays as it is."""
        app, ocr = self.app, self.held.ocr
        if self.acting_on("read pages with OCR") is None or not self.pdf_only("OCR"):
            return None
        if self.held.opened is None:
            return None
        from siftui.sources.extract import ocr_unavailable_reason

        language = self.held.ocr_language
        if not ocr and (reason := ocr_unavailable_reason(language)) is not None:
            app.notify(reason, title="OCR", severity="error", timeout=8)
            return None
        app.notify(f"OCR on ({language}): reading pages without text ..." if not ocr else "OCR off")
        return not ocr

    def pdf_only(self, what: str) -> bool:
        """True for a PDF; for a Word document, a message saying ``what`` is for PDFs."""
        opened = self.held.opened
        if opened is not None and not kind_of(opened.doc).has_pages:
            self.app.notify(f"{what} is for PDFs: a Word document's text is its XML, read as is.")
            return False
        return True

    def hidden(self) -> None:
        """`h`: the hidden-text findings of the document open (and, apart, the hidden text
        the extraction does not hold), or why there is no list; Enter asks for the
        finding's page, as an agent would (``pages=P``)."""
        if self.acting_on("list hidden text") is None or not self.pdf_only("Hidden text"):
            return
        app, held = self.app, self.held
        opened, inspection = held.opened, self.extras.inspection
        if opened is None:
            return
        if inspection is None:
            app.notify(self.extras.hidden_note or "Hidden text is not known for this document.")
            return
        if not inspection.findings and not inspection.unextracted:
            app.notify(
                f"No hidden text in {opened.source.name}: "
                f"{plural(inspection.pages_inspected, 'page')} inspected."
            )
            return

        def chosen(page: int | None) -> None:
            call = None if page is None else page_call(held.request.options, page)
            if call is not None and held.opened is opened:
                held.propose(call, call=True)

        from siftui.tui.screens.findings import FindingsScreen  # its modules: at the first `h`

        app.push_screen(FindingsScreen(opened.source.name, inspection), chosen)

    def help(self) -> None:
        from siftui.tui.screens.help import HelpScreen  # brings Textual's Markdown

        self.app.push_screen(HelpScreen())
