"""A Word document in the TUI: the request bar, the view, the counter, the
strip, anchors, n / m / b / f, the walk, copy and save, each agreeing byte for byte
with render_docx (what `siftui render FILE.docx` prints and read_docx serves)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.docx_build import NS, notes, p, read, t, tbl, write_docx
from support.pdfs import make_pdf
from support.tui_support import RecordingApp, idle, run, settle, wait_until, word_options
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from siftui.core.layout import Role
from siftui.core.render import Options
from siftui.core.word.index import index_story
from siftui.core.word.model import DocxDoc
from siftui.core.word.render import DocxOptions, render_docx
from siftui.core.word.walk import walk_docx
from siftui.tui.app import SiftApp
from siftui.tui.screens import WalkScreen
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.pagestrip import PageStrip
from siftui.tui.widgets.view import ContentView

FOOTNOTE_REF = '<w:r><w:footnoteReference w:id="1"/></w:r>'


def body() -> str:
    """A contract-like body: headings, 40 clauses, a table, a footnote reference."""
    parts = [p("Master Services Agreement", style="Heading1")]
    for section in range(1, 5):
        parts.append(p(f"Section {section}", style="Heading2"))
        for clause in range(1, 11):
            text = f"Clause {section}.{clause}: the parties agree on item {section * 100 + clause}."
            parts.append(p(text))
        if section == 2:
            parts.append(tbl(["Term", "Value"], ["Fee", "10"]))
    parts.append(p("Signed by both parties.", FOOTNOTE_REF))
    return "".join(parts)


FOOTNOTES = notes("footnote", (1, p(t("Governing law: the law of the seat."))))


def contract(folder: Path) -> Path:
    return write_docx(folder / "contract.docx", body(), footnotes=FOOTNOTES, title="MSA")


def model() -> DocxDoc:
    return read(body(), footnotes=FOOTNOTES, title="MSA")


def view_text(app: SiftApp) -> str:
    return "\n".join(app.query_one(ContentView).lines)


def text_of(app: SiftApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def ask(app: SiftApp, pilot: Pilot[int], options: DocxOptions) -> None:
    app.propose(options, call=True)
    await wait_until(pilot, lambda: app.answer is not None and app.answer.options == options)
    await idle(app, pilot)


def test_opening_a_docx_shows_its_map_and_the_word_request_bar(tmp_path: Path) -> None:
    path = contract(tmp_path)
    doc = model()

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.request.options == DocxOptions()
        expected = render_docx(doc, DocxOptions())
        assert app.answer is not None and app.answer.rendered == expected
        assert view_text(app) == expected.content
        # The request bar: Range / Anchor / Window / Grep / Scope, not Pages.
        for name in ("range", "anchor", "window", "grep", "scope"):
            assert app.query_one(f"#{name}", Input).display, name
        assert not app.query_one("#pages", Input).display
        counter = text_of(app, "#counter")
        assert f"{len(expected.content):,} / 100,000 runes" in counter
        story = doc.body
        shown = index_story(story).shown
        assert f"doc: {story.count} paragraphs ({shown} shown) · 1 table · full text" in counter

    run(SiftApp(path), scenario)


def test_typed_range_anchor_window_grep_scope_are_render_docx(tmp_path: Path) -> None:
    path = contract(tmp_path)
    doc = model()
    anchor = f"P12#{doc.body.paragraphs[11].hash}"

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 600
        for field, text, options in (
            ("range", "P3..P30", DocxOptions(range="P3..P30", out_cap=600)),
            ("grep", "item 2", DocxOptions(range="P3..P30", grep="item 2", out_cap=600)),
            ("range", "", DocxOptions(grep="item 2", out_cap=600)),
            ("grep", "", DocxOptions(out_cap=600)),
            ("anchor", anchor, DocxOptions(anchor=anchor, out_cap=600)),
            ("window", "1", DocxOptions(anchor=anchor, window=1, out_cap=600)),
            ("anchor", "", DocxOptions(window=1, out_cap=600)),
            ("scope", "footnotes", DocxOptions(window=1, scope="footnotes", out_cap=600)),
        ):
            app.query_one(f"#{field}", Input).value = text
            await wait_until(pilot, lambda o=options: app.request.options == o)  # type: ignore[misc]
            await settle(app, pilot)
            expected = render_docx(doc, options)
            assert app.answer is not None and app.answer.options == options
            assert app.answer.rendered == expected, (field, text)
            assert view_text(app) == expected.content
            assert text_of(app, "#request-error") == ""
        assert "Governing law" in view_text(app)

    run(SiftApp(path), scenario)


def test_refused_word_options_say_one_line_and_keep_the_answer(tmp_path: Path) -> None:
    path = contract(tmp_path)
    doc = model()

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        for field, text, error in (
            ("range", "P900", "range out of range (P1..P"),
            ("range", "3-5", 'invalid range "3-5": use "Pa..Pb", "Pa" or "Pa.."'),
            ("anchor", "P2#0000", "stale anchor P2#0000: P2 is now P2#"),
            ("scope", "margins", 'unknown scope "margins"'),
        ):
            app.query_one(f"#{field}", Input).value = text
            await wait_until(pilot, lambda e=error: e in text_of(app, "#request-error"))  # type: ignore[misc]
            assert app.answer is not None
            assert app.answer.rendered == render_docx(doc, word_options(app.answer.options))
            app.query_one(f"#{field}", Input).value = ""
            await wait_until(pilot, lambda: text_of(app, "#request-error") == "")
        # A window is checked with an anchor (as siftui render checks --window), and a
        # number of 5,000 digits never reaches int().
        anchor = f"P2#{doc.body.paragraphs[1].hash}"
        app.query_one("#anchor", Input).value = anchor
        app.query_one("#window", Input).value = "9" * 5000
        await wait_until(pilot, lambda: "window must be 0-50" in text_of(app, "#request-error"))
        app.query_one("#window", Input).value = "0"
        await wait_until(pilot, lambda: text_of(app, "#request-error") == "")
        await settle(app, pilot)
        alone = DocxOptions(anchor=anchor, window=0)
        assert app.answer is not None and app.answer.options == alone
        assert app.answer.rendered == render_docx(doc, alone)

    run(SiftApp(path), scenario)


def test_note_next_map_back_forward_and_copy(tmp_path: Path) -> None:
    path = contract(tmp_path)
    doc = model()

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 500
        await wait_until(pilot, lambda: app.request.options == DocxOptions(out_cap=500))
        await settle(app, pilot)
        calls = walk_docx(doc, 500)
        assert len(calls) > 3
        app.query_one(ContentView).focus()
        for call in calls[1:4]:
            await pilot.press("n")
            await wait_until(pilot, lambda c=call: app.request.options == c.options)  # type: ignore[misc]
            await settle(app, pilot)
            assert app.answer is not None and app.answer.rendered == call.answer
            assert text_of(app, "#note") == call.answer.note
        await pilot.press("b")
        await wait_until(pilot, lambda: app.request.options == calls[2].options)
        await pilot.press("f")
        await wait_until(pilot, lambda: app.request.options == calls[3].options)
        await settle(app, pilot)
        await pilot.press("c")
        await wait_until(pilot, lambda: app.last_copy is not None)
        assert app.clipboard == calls[3].answer.content
        await pilot.press("m")
        await wait_until(pilot, lambda: app.request.options == DocxOptions(out_cap=500))
        await settle(app, pilot)
        assert app.answer is not None and app.answer.rendered == calls[0].answer

    run(RecordingApp(path), scenario)


def test_clicking_an_anchor_asks_for_its_window(tmp_path: Path) -> None:
    path = contract(tmp_path)
    doc = model()

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.propose(DocxOptions(range="P20..P40", window=2), call=True)
        await settle(app, pilot)
        answer = app.answer
        assert answer is not None
        layout = answer.layout
        line = next(i for i, role in enumerate(layout.roles) if role is Role.ANCHOR and i > 2)
        number = layout.line_pages[line]
        view = app.query_one(ContentView)
        # The view's border and padding: the content starts one cell in, plus padding.
        await pilot.click(ContentView, offset=(4, 1 + line))
        anchor = f"P{number}#{doc.body.paragraphs[number - 1].hash}"
        await wait_until(pilot, lambda: word_options(app.request.options).anchor == anchor)
        await settle(app, pilot)
        expected = render_docx(doc, DocxOptions(anchor=anchor, window=2))
        assert app.answer is not None and app.answer.rendered == expected
        # Enter: the first anchor in view.
        view.focus()
        first = next(i for i, role in enumerate(app.answer.layout.roles) if role is Role.ANCHOR)
        top = app.answer.layout.line_pages[first]
        await pilot.press("enter")
        top_anchor = f"P{top}#{doc.body.paragraphs[top - 1].hash}"
        await wait_until(pilot, lambda: word_options(app.request.options).anchor == top_anchor)

    run(SiftApp(path), scenario, size=(120, 40))


def test_strip_shows_paragraph_blocks_and_selects_a_range(tmp_path: Path) -> None:
    path = contract(tmp_path)
    doc = model()

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        strip = app.query_one(PageStrip)
        cells = strip.current_cells()
        assert cells[0].first == 1 and cells[-1].last == doc.body.count
        strip.focus()
        await pilot.press("right", "enter")
        second = cells[1]
        asked = (
            f"P{second.first}"
            if second.first == second.last
            else (f"P{second.first}..P{second.last}")
        )
        await wait_until(pilot, lambda: app.request.options == DocxOptions(range=asked))
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered == render_docx(doc, DocxOptions(range=asked))

    run(SiftApp(path), scenario)


def test_walk_lists_the_word_calls(tmp_path: Path) -> None:
    path = contract(tmp_path)
    doc = model()

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 500
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WalkScreen))
        table = app.screen.query_one("#walk-table", DataTable)
        calls = walk_docx(doc, 500)
        assert table.row_count == len(calls)
        title = app.screen.query_one("#unreachable-title", Static)
        assert str(title.render()) == "Nothing is unreachable by range= or anchor= at OutCap 500."
        table.move_cursor(row=2)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.request.options == calls[2].options)
        await settle(app, pilot)
        assert app.answer is not None and app.answer.rendered == calls[2].answer

    run(SiftApp(path), scenario)


@pytest.mark.parametrize("key", ["t", "h"])
def test_pdf_only_keys_say_so(tmp_path: Path, key: str) -> None:
    path = contract(tmp_path)

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press(key)
        await wait_until(pilot, lambda: any("is for PDFs" in seen for seen in app.seen))
        assert app.answer is not None and app.answer.options == DocxOptions()

    run(RecordingApp(path), scenario)


def test_a_broken_docx_is_one_line_and_a_pdf_after_it_is_asked_by_pages(tmp_path: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    path = contract(tmp_path)
    raw = write_docx(tmp_path / "raw.docx", "", raw_document=f"<w:document {NS}><w:body>")

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        for bad in (broken, raw):
            app.open_document(bad)
            await wait_until(pilot, lambda b=bad: any(b.name in seen for seen in app.seen))  # type: ignore[misc]
            await settle(app, pilot)
            # Back to the document shown before, asked the Word way.
            assert app.answer is not None and app.answer.request.source is not None
            assert app.answer.request.source.path == path
            assert isinstance(app.request.options, DocxOptions)
        pdf = make_pdf(tmp_path / "after.pdf", ["first page", "second page"])
        app.open_document(pdf)
        await wait_until(pilot, lambda: app.doc is not None and app.opening is None)
        await settle(app, pilot)
        assert app.request.options == Options()
        assert app.query_one("#pages", Input).display
        assert not app.query_one("#range", Input).display
        assert app.answer is not None and app.answer.label() == "full text"

    run(RecordingApp(path), scenario)


def test_what_the_reader_left_out_is_said_and_the_rest_is_exact(tmp_path: Path) -> None:
    """A broken styles part is left out (as siftui render says on stderr): a warning names
    it, and the answer is render_docx of what was read."""
    path = write_docx(tmp_path / "partly.docx", p("Kept text.", style="Heading1"), styles="<w:x")
    doc = read(p("Kept text.", style="Heading1"), styles="<w:x")
    assert doc.notes

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await wait_until(pilot, lambda: any(doc.notes[0] in seen for seen in app.seen))
        assert app.answer is not None and app.answer.rendered == render_docx(doc, DocxOptions())

    run(RecordingApp(path), scenario)


def test_a_zip_bomb_and_a_word_json_file(tmp_path: Path) -> None:
    """A part inflating past the limit is one line and the app keeps running; the JSON
    `siftui extract FILE.docx` writes opens as the same projection."""
    import zipfile

    from siftui.core.word.docjson import docx_to_json

    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr(
            "word/document.xml",
            f"<w:document {NS}><w:body>" + " " * (65 * 1024 * 1024) + "</w:body></w:document>",
        )
    saved = tmp_path / "contract.json"
    saved.write_text(docx_to_json(model()), encoding="utf-8")

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: any("zip bomb" in seen for seen in app.seen), 60)
        assert app.is_running and app.answer is None
        app.open_document(saved)
        await wait_until(pilot, lambda: app.doc is not None and app.opening is None)
        await settle(app, pilot)
        assert isinstance(app.request.options, DocxOptions)
        assert app.answer is not None
        assert app.answer.rendered == render_docx(model(), DocxOptions())

    run(RecordingApp(bomb), scenario)


def test_a_narrow_terminal_keeps_every_word_field_on_screen(tmp_path: Path) -> None:
    path = contract(tmp_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        for name in ("range", "anchor", "window", "grep", "scope"):
            field = app.query_one(f"#{name}", Input)
            assert field.region.width >= 3 and field.region.right <= 60, (name, field.region)
            assert field.tooltip == name.capitalize()

    run(SiftApp(path), scenario, size=(60, 16))


def test_n_after_a_map_that_cut_p1_asks_for_p1(tmp_path: Path) -> None:
    # P1 fits OutCap 1,000 but not the map's quarter of it: `n` reads it whole.
    opening = "Recitals: " + "the parties recite their intent at length. " * 12
    parts = [p(opening), *(p(f"Clause {n}: " + "terms apply. " * 8) for n in range(1, 30))]
    path = write_docx(tmp_path / "long-p1.docx", "".join(parts), title="Long P1")
    doc = read("".join(parts), title="Long P1")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 1000
        await wait_until(pilot, lambda: app.request.options == DocxOptions(out_cap=1000))
        await settle(app, pilot)
        assert app.answer is not None and app.answer.rendered.map
        app.query_one(ContentView).focus()
        await pilot.press("n")
        asked = DocxOptions(range="P1..", out_cap=1000)
        await wait_until(pilot, lambda: app.request.options == asked)
        await settle(app, pilot)
        assert app.answer is not None and app.answer.rendered == render_docx(doc, asked)
        assert app.answer.rendered.content.startswith(index_story(doc.body).block_text(1))

    run(SiftApp(path), scenario)


def test_an_empty_body_says_where_the_text_is(tmp_path: Path) -> None:
    footnotes = notes("footnote", (1, p(t("The text is here."))))
    path = write_docx(tmp_path / "blank.docx", p() + p(), footnotes=footnotes)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None and app.answer.rendered.content == ""
        note = 'the body is empty; text is in scope="footnotes" (1 paragraph)'
        assert text_of(app, "#note") == note

    run(SiftApp(path), scenario)
