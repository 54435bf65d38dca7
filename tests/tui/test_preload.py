"""`siftui FILE` loads the file and answers its first call before Textual starts
(siftui.tui.preload); the app shows that answer only when it answers the request the
app holds, and it is the answer the render worker would have made, byte for byte."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from support.docx_build import p, write_docx
from support.pdfs import make_encrypted_pdf, make_pdf
from support.tui_support import RecordingApp, idle, run, settle, wait_until
from textual import events
from textual.dom import DOMNode
from textual.pilot import Pilot

from siftui.core.doc import Doc
from siftui.core.render import Options, render
from siftui.core.word.model import DocxDoc
from siftui.core.word.render import DocxOptions, render_docx
from siftui.sources.extract_process import ExtractionProcess, ProcessGone
from siftui.sources.kinds import load_any
from siftui.sources.load import LoadError
from siftui.sources.pdf_open import NeedsPassword
from siftui.tui import app as app_module
from siftui.tui import preload
from siftui.tui.app import SiftApp
from siftui.tui.preload import Preload
from siftui.tui.state import Outcome, Request, Source, answer_request, opening_request
from siftui.tui.widgets.view import ContentView

PAGES = [
    "\n".join(f"Page {n}, line {line}: the budget decides what it reads." for line in range(50))
    for n in range(1, 9)
]


def started(path: Path) -> Preload:
    """The preload of ``path``, begun and finished (as it is when a warm cache beats
    Textual's start), left for the app to take."""
    preload.start(path, None)
    found = preload._pending
    assert found is not None
    deadline = time.monotonic() + 60
    while not found.finished:
        assert time.monotonic() < deadline, "the preload did not finish"
        time.sleep(0.01)
    return found


def pdf_of(path: Path) -> Doc:
    doc = load_any(path).doc
    assert isinstance(doc, Doc)
    return doc


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[Request]:
    """The requests the app's render worker answered."""
    seen: list[Request] = []
    real = answer_request  # the one siftui.tui.app calls

    def counting(request: Request, *args: object) -> Outcome:
        seen.append(request)
        return real(request, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(app_module, "answer_request", counting)
    return seen


def test_the_preload_answers_the_first_call_as_the_render_worker_would(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "manual.pdf", PAGES, title="Manual")
    docx = write_docx(tmp_path / "terms.docx", "".join(p(f"Clause {n}. " * 30) for n in range(60)))
    for path in (pdf, docx):
        found = started(path)
        digest, _ = found.wait(lambda done, total: None)
        first = found.first
        assert first is not None and first.answer is not None and first.error == ""
        assert first.request == opening_request(Source(path, digest))
        assert first.answer.request == first.request
        fresh = load_any(path).doc
        if isinstance(fresh, Doc):
            expected = render(fresh, Options())
        else:
            assert isinstance(fresh, DocxDoc)
            expected = render_docx(fresh, DocxOptions())
        assert first.answer.rendered == expected
        assert preload.take(path, None, False) is found
    assert preload.take(pdf, None, False) is None  # taken once


def test_the_app_shows_the_preloaded_answer_and_copies_it_exactly(
    tmp_path: Path, clipboard: list[str], renders: list[Request]
) -> None:
    pdf = make_pdf(tmp_path / "manual.pdf", PAGES * 6, title="Manual")
    found = started(pdf)
    expected = render(pdf_of(pdf), Options())
    assert expected.content.startswith("# Manual")  # a map: the file is over 100,000 runes

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None and found.first is not None
        assert app.answer.rendered is found.first.answer.rendered  # type: ignore[union-attr]
        assert renders == []  # the render worker never ran for it
        assert len(app.calls.calls) == 1  # opening the document is the agent's first call
        app.query_one(ContentView).focus()
        await pilot.press("c")
        await wait_until(pilot, lambda: clipboard)
        assert clipboard == [expected.content]
        await pilot.press("right_square_bracket")  # the next request is the worker's
        await settle(app, pilot)
        assert [request.options.out_cap for request in renders] == [120_000]

    run(SiftApp(pdf), scenario)


def test_a_preloaded_answer_to_another_request_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renders: list[Request]
) -> None:
    """Should the preload answer a request the app does not make (here OutCap 500), the
    app renders its own request: it never shows an answer to another request."""
    pdf = make_pdf(tmp_path / "manual.pdf", PAGES, title="Manual")
    monkeypatch.setattr(
        preload, "opening_request", lambda source: Request(source, Options(out_cap=500))
    )
    found = started(pdf)
    assert found.first is not None and found.first.request.options.out_cap == 500

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.options == Options()
        assert app.answer.rendered == render(pdf_of(pdf), Options())
        assert [request.options for request in renders] == [Options()]

    run(SiftApp(pdf), scenario)


def test_a_bug_in_the_preloaded_answer_leaves_the_first_call_to_the_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renders: list[Request]
) -> None:
    pdf = make_pdf(tmp_path / "manual.pdf", PAGES, title="Manual")

    def broken(source: Source) -> Request:
        raise RuntimeError("a bug")

    monkeypatch.setattr(preload, "opening_request", broken)
    found = started(pdf)
    assert found.first is None
    assert found.wait(lambda done, total: None)[1].doc == load_any(pdf).doc

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered == render(pdf_of(pdf), Options())
        assert [request.options for request in renders] == [Options()]

    run(SiftApp(pdf), scenario)


def test_a_preload_that_failed_is_said_in_one_line(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7\nnot a PDF at all\n")
    found = started(damaged)
    assert found.first is None

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        assert isinstance(app, RecordingApp)
        await wait_until(pilot, lambda: app.seen)
        await idle(app, pilot)
        assert app.answer is None
        assert len(app.seen) == 1 and "\n" not in app.seen[0]
        assert "damaged.pdf" in app.seen[0]

    run(RecordingApp(damaged), scenario)


@pytest.fixture
def processes(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files the preload started an extraction process for."""
    seen: list[Path] = []
    real = ExtractionProcess.start.__func__  # type: ignore[attr-defined]

    def recording(cls: type[ExtractionProcess], path: Path, password: str | None) -> object:
        seen.append(path)
        return real(cls, path, password)

    monkeypatch.setattr(ExtractionProcess, "start", classmethod(recording))
    return seen


def test_a_pdf_the_cache_lacks_is_read_in_a_process_of_its_own(
    tmp_path: Path, processes: list[Path]
) -> None:
    """So the interface, starting meanwhile in this process, never takes turns with
    MuPDF for Python's lock; what is loaded is what load_any loads."""
    pdf = make_pdf(tmp_path / "cold.pdf", PAGES, title="Cold")
    found = started(pdf)
    assert processes == [pdf]
    assert found.wait(lambda done, total: None)[1].doc == load_any(pdf).doc
    assert found.first is not None and found.first.answer is not None


def test_a_pdf_the_cache_holds_starts_no_process(tmp_path: Path, processes: list[Path]) -> None:
    pdf = make_pdf(tmp_path / "warm.pdf", PAGES, title="Warm")
    load_any(pdf)  # now in the cache
    found = started(pdf)
    assert processes == []
    assert found.wait(lambda done, total: None)[1].doc == load_any(pdf).doc


def test_a_word_document_is_read_here(tmp_path: Path, processes: list[Path]) -> None:
    docx = write_docx(tmp_path / "terms.docx", p("Clause 1."))
    found = started(docx)
    assert found.wait(lambda done, total: None)[1].doc == load_any(docx).doc
    assert processes == [docx]  # asked, and refused: a Word document is read here


def test_a_process_that_is_gone_leaves_the_reading_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, processes: list[Path]
) -> None:
    def gone(self: ExtractionProcess, progress: object) -> None:
        self.cancel()
        raise ProcessGone("killed")

    monkeypatch.setattr(ExtractionProcess, "result", gone)
    pdf = make_pdf(tmp_path / "orphan.pdf", PAGES, title="Orphan")
    found = started(pdf)
    assert processes == [pdf]
    assert found.wait(lambda done, total: None)[1].doc == load_any(pdf).doc


def test_a_locked_file_asks_for_its_password_as_before(
    tmp_path: Path, processes: list[Path]
) -> None:
    locked = make_encrypted_pdf(tmp_path / "locked.pdf")
    found = started(locked)
    assert processes == [locked]
    with pytest.raises(LoadError) as raised:
        found.wait(lambda done, total: None)
    assert raised.value.reason is NeedsPassword
    with pytest.raises(LoadError) as directly:
        load_any(locked)
    assert str(raised.value) == str(directly.value)


class RestyleRecordingApp(SiftApp):
    """The app, keeping each node Textual restyled with its descendants."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.restyled: list[object] = []

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        self.restyled.append(node)
        super().update_styles(node, animate)


def test_the_first_frame_is_styled_once_and_later_resumes_restyle(tmp_path: Path) -> None:
    """Every widget is styled as it mounts; the whole screen is not restyled again before
    its first frame (a twentieth of the start), but it is on any later resume that asks."""
    pdf = make_pdf(tmp_path / "manual.pdf", PAGES, title="Manual")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        assert isinstance(app, RestyleRecordingApp)
        await settle(app, pilot)
        main = app.screen
        assert main not in app.restyled
        main.post_message(events.ScreenResume())
        await wait_until(pilot, lambda: main in app.restyled)

    run(RestyleRecordingApp(pdf), scenario)
