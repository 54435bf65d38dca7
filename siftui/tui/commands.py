"""Keys that act on the answer shown with more than one step: the walk and the OCR toggle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from siftui.core.kinds import kind_of
from siftui.core.unreachable import Unreachable
from siftui.core.walk import Call
from siftui.core.word.walk import DocxCall
from siftui.tui.kinds import AnyOptions
from siftui.tui.screens import WalkScreen
from siftui.tui.state import Answer

if TYPE_CHECKING:
    from siftui.tui.app import SiftApp


def walk(app: SiftApp, answer: Answer) -> None:
    """Every call an agent makes to read the document shown (for a PDF, also the text
    no pages= call shows), in a worker; then the lists."""
    doc, request = answer.doc, answer.request
    if doc is None:
        app.notify("The walk needs the document open; this answer is only logged.")
        return
    out_cap = request.options.out_cap

    def work() -> None:
        calls: list[Call] | list[DocxCall]
        found: Unreachable | None = None
        kind = kind_of(doc)
        calls = kind.walk(doc, request.options)
        found = kind.unreachable(doc, out_cap)
        app.call_from_thread(show, calls, found)

    def show(calls: list[Call] | list[DocxCall], found: Unreachable | None) -> None:
        if app.request.source != request.source or app.opening is not None:
            return  # another document since: this walk is not of the one shown

        def chosen(options: AnyOptions | None) -> None:
            if options is not None and app.request.source == request.source:
                app.propose(options, call=True)

        app.push_screen(WalkScreen(calls, out_cap, found), chosen)

    app.run_worker(work, thread=True, exclusive=True, group="walk", description="walk")


def toggle_ocr(app: SiftApp) -> None:
    """Read pages without text with Tesseract (on / off): the document is opened again."""
    opened = app.opened
    if opened is None:
        return
    from siftui.sources.extract import ocr_unavailable_reason

    if not app.ocr and (reason := ocr_unavailable_reason()) is not None:
        app.notify(reason, title="OCR", severity="error", timeout=8)
        return
    app.ocr = not app.ocr
    app.notify("OCR on: reading pages without text ..." if app.ocr else "OCR off")
    app.open_document(opened.source.path, opened.password, options=app.request.options)
