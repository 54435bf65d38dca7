"""The evidence preview's session answers with the document the app has open (no second
read of its file) while the file holds the same bytes, with the bytes `siftui session`
prints; a changed file, or another one, is read as `siftui session` reads it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from support.evidence_session import session_lines
from support.pdfs import make_pdf
from support.tui_support import run, settle, wait_until
from textual.pilot import Pilot

from siftui.cli.evidence_preview import HostPreview, preview_factory
from siftui.core.kinds import paged_doc
from siftui.serve import loading
from siftui.serve.limits import WorkerJob
from siftui.sources.filehash import file_sha256
from siftui.sources.kinds import load_any
from siftui.sources.load_options import LoadOptions
from siftui.tui.app import SiftApp
from siftui.tui.evidence.flow import open_document
from siftui.tui.evidence.model import OpenDocument
from siftui.tui.evidence.screen import EvidenceScreen
from siftui.tui.factory import create_app
from siftui.tui.state import Opened, Source

PAGES = ["Alpha beta gamma", "delta beta epsilon", "zeta eta theta"]
READ = {"documentId": "doc-1", "page": 1, "lastPage": 3, "maxChars": 40}
SEARCH = {"documentId": "doc-1", "query": "beta"}


def preview_lines(preview: HostPreview, calls: list[tuple[str, Any]]) -> list[str]:
    return [line for tool, arguments in calls for line in preview.call(tool, arguments).lines]


@pytest.fixture
def worker_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files the preview's store has a worker read, in order (each
    worker's job names its file)."""
    names: list[str] = []

    def job(name: str, *args: Any, **kwargs: Any) -> WorkerJob:
        names.append(Path(name).name)
        return WorkerJob(name, *args, **kwargs)

    monkeypatch.setattr(loading, "WorkerJob", job)
    return names


def the_document(path: Path) -> OpenDocument:
    """The file's document as the app opens it (its loader's load_any, no OCR)."""
    loaded = load_any(path, LoadOptions())
    return OpenDocument(path, file_sha256(path), paged_doc(loaded.doc), loaded.unreadable)


def test_e_answers_with_the_open_document_as_session_does(
    tmp_path: Path, worker_reads: list[str]
) -> None:
    pdf = make_pdf(tmp_path / "notes.pdf", PAGES, title="Notes")
    calls: list[tuple[str, Any]] = [
        ("pdf_open", {"path": pdf.name}),
        ("pdf_page_read", READ),
        ("pdf_keyword_search", SEARCH),
    ]
    lines: list[str] = []

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen))
        screen = app.screen
        assert isinstance(screen, EvidenceScreen)
        await wait_until(pilot, lambda: len(screen.session.made) == 1 and not screen.busy, 60)
        lines.extend(screen.session.made[0].result.lines)
        preview = screen.preview
        assert isinstance(preview, HostPreview)
        lines.extend(preview_lines(preview, calls[1:]))  # later calls of the same session

    run(create_app(pdf, evidence=preview_factory), scenario)
    assert worker_reads == []  # the app's document: the file was not read again
    assert lines == session_lines(tmp_path, calls)


def test_a_changed_file_and_another_file_are_read_again(
    tmp_path: Path, worker_reads: list[str]
) -> None:
    pdf = make_pdf(tmp_path / "notes.pdf", PAGES)
    document = the_document(pdf)
    shutil.copyfile(pdf, tmp_path / "copy.pdf")  # the same bytes under another name
    make_pdf(pdf, ["rewritten since the app opened it", *PAGES])
    calls: list[tuple[str, Any]] = [
        ("pdf_open", {"path": pdf.name}),
        ("pdf_page_read", READ),
        ("pdf_open", {"path": "copy.pdf"}),
    ]
    preview = preview_factory(tmp_path, document)
    try:
        lines = preview_lines(preview, calls)
    finally:
        preview.close()
    assert worker_reads == ["notes.pdf", "copy.pdf"]
    assert lines == session_lines(tmp_path, calls)
    assert "rewritten since the app opened it" in lines[1]


def test_the_unchanged_file_is_not_read_again(tmp_path: Path, worker_reads: list[str]) -> None:
    pdf = make_pdf(tmp_path / "notes.pdf", PAGES)
    calls: list[tuple[str, Any]] = [("pdf_open", {"path": pdf.name}), ("pdf_page_read", READ)]
    preview = preview_factory(tmp_path, the_document(pdf))
    try:
        lines = preview_lines(preview, calls)
    finally:
        preview.close()
    assert worker_reads == []
    assert lines == session_lines(tmp_path, calls)


def test_a_document_read_otherwise_than_the_server_reads_it_is_not_handed_over(
    tmp_path: Path,
) -> None:
    pdf = make_pdf(tmp_path / "notes.pdf", PAGES)
    document = the_document(pdf)
    source = Source(pdf, document.sha256)
    plain = Opened(source, document.doc, None, document.unreadable)
    assert open_document(plain) == document
    assert open_document(Opened(Source(pdf, document.sha256, ocr=True), document.doc, None)) is None
    assert open_document(Opened(source, document.doc, "secret")) is None
    assert open_document(Opened(Source(pdf, ""), document.doc, None)) is None
