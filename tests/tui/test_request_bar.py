"""The request bar makes a Word document's fields the first time one is shown: a PDF's
start has only Pages and Grep; a Word document's fields then take their places, in
the order docs/WORD.md lists the arguments, each named by its tooltip."""

from __future__ import annotations

from pathlib import Path

from support.docx_build import p, write_docx
from support.pdfs import make_pdf
from support.tui_support import RecordingApp, run, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import Input

from siftui.tui.app import SiftApp
from siftui.tui.widgets.request_bar import RequestBar


def shown(app: SiftApp) -> list[str]:
    return [str(field.id) for field in app.query_one(RequestBar).query(Input) if field.display]


def test_pdf_start_has_no_word_fields_until_a_word_document_opens(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["first page", "second page"])
    docx = write_docx(tmp_path / "b.docx", "".join(p(f"Clause {n}.") for n in range(5)))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        bar = app.query_one(RequestBar)
        assert [str(field.id) for field in bar.query(Input)] == ["pages", "grep"]
        app.open_document(docx)
        await wait_until(pilot, lambda: app.doc is not None and app.opening is None)
        await settle(app, pilot)
        order = [str(field.id) for field in bar.query(Input)]
        assert order == ["pages", "range", "anchor", "window", "grep", "scope"]
        assert shown(app) == ["range", "anchor", "window", "grep", "scope"]
        assert [field.tooltip for field in bar.query(Input)] == [
            "Pages",
            "Range",
            "Anchor",
            "Window",
            "Grep",
            "Scope",
        ]
        app.open_document(pdf)
        await wait_until(pilot, lambda: app.doc is not None and app.opening is None)
        await settle(app, pilot)
        assert shown(app) == ["pages", "grep"]

    run(RecordingApp(pdf), scenario)
