"""OCR of pages without text: an explicit option, off by default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.pdfs import CORPUS

from siftui.sources import extract as extract_module
from siftui.sources import pdf_open as pdf_open_module
from siftui.sources.cache import DocCache, cached_extract_report
from siftui.sources.extract import OcrUnavailable, extract, extract_report, ocr_unavailable_reason
from siftui.sources.load_options import LoadOptions
from siftui.sources.sample import sample_path

MISSING = ocr_unavailable_reason()
needs_tesseract = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
SCAN = CORPUS / "c03-29.pdf"


@needs_tesseract
def test_ocr_reads_the_scanned_corpus_page() -> None:
    if not SCAN.is_file():
        pytest.skip(f"corpus not found at {CORPUS}")
    plain = extract(SCAN)
    assert plain.pages == ("",)
    read = extract_report(SCAN, LoadOptions(ocr=True)).doc
    assert read.page_count == 1 and read.title == plain.title
    text = read.pages[0]
    assert "Miss Watson" in text and "grease and clay" in text


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
@needs_tesseract
def test_only_pages_without_text_are_read_and_the_default_never_changes() -> None:
    plain = extract(sample_path())
    empty = [n for n, text in enumerate(plain.pages) if not text.strip()]
    assert empty, "the sample has an image-only page"
    read = extract_report(sample_path(), LoadOptions(ocr=True)).doc
    for number, (before, after) in enumerate(zip(plain.pages, read.pages, strict=True)):
        if number in empty:
            assert after.strip(), f"page {number + 1} was read by OCR"
        else:
            assert after == before
    assert extract(sample_path()) == plain


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
@needs_tesseract
def test_the_cache_keeps_ocr_and_plain_apart(tmp_path: Path) -> None:
    if not SCAN.is_file():
        pytest.skip(f"corpus not found at {CORPUS}")
    assert cached_extract_report(SCAN).doc.pages == ("",)
    assert "Watson" in cached_extract_report(SCAN, LoadOptions(ocr=True)).doc.pages[0]
    assert cached_extract_report(SCAN).doc.pages == ("",)


def test_without_tesseract_ocr_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_tesseract() -> str:
        raise RuntimeError("No tessdata specified and Tesseract is not installed")

    monkeypatch.setattr(pdf_open_module.quiet_pymupdf(), "get_tessdata", no_tesseract)
    reason = ocr_unavailable_reason()
    assert reason is not None and "tesseract-ocr" in reason
    with pytest.raises(OcrUnavailable) as raised:
        extract_report(sample_path(), LoadOptions(ocr=True))
    assert "\n" not in str(raised.value)


def test_cli_without_tesseract_exits_1(tmp_path: Path) -> None:
    # An empty PATH and TESSDATA_PREFIX pointing nowhere: PyMuPDF finds no Tesseract.
    env = {"PATH": "", "TESSDATA_PREFIX": str(tmp_path / "none"), "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "render", str(sample_path()), "--ocr", "--no-cache"],
        capture_output=True,
        env=env,
        timeout=120,
    )
    if done.returncode == 0:
        pytest.skip("Tesseract was found even so on this machine")
    assert done.returncode == 1
    assert done.stderr.decode().count("\n") == 1 and b"Traceback" not in done.stderr


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
@needs_tesseract
def test_tui_toggle_reads_pages_without_text() -> None:
    from support.tui_support import run, settle, wait_until
    from textual.pilot import Pilot

    from siftui.core.render import Options, render
    from siftui.tui.app import SiftApp

    plain = extract(sample_path())
    empty = tuple(n for n, text in enumerate(plain.pages, 1) if not text.strip())
    read = extract_report(sample_path(), LoadOptions(ocr=True)).doc

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("t")
        await wait_until(
            pilot, lambda: app.answer is not None and app.answer.ocr_pages == empty, 120
        )
        await settle(app, pilot)
        assert app.doc == read
        app.propose(Options(pages=str(empty[0])), call=True)
        await wait_until(
            pilot, lambda: app.answer is not None and app.answer.request.options != Options()
        )
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered == render(read, Options(pages=str(empty[0])))
        await pilot.press("t")
        await wait_until(pilot, lambda: app.answer is not None and not app.answer.ocr_pages, 60)
        await settle(app, pilot)
        assert app.doc == plain

    run(SiftApp(sample_path()), scenario)


INSTALLED = extract_module.installed_ocr_languages(
    pdf_open_module.quiet_pymupdf().get_tessdata() if MISSING is None else ""
)
needs_no_deu = pytest.mark.skipif(
    MISSING is not None or "deu" in INSTALLED, reason="needs Tesseract without deu"
)


@needs_no_deu
def test_a_missing_language_lists_what_is_installed() -> None:
    assert "eng" in INSTALLED
    assert ocr_unavailable_reason("eng") is None
    listed = ", ".join(INSTALLED)
    expected = (
        f'OCR language "deu" is not installed (installed: {listed}; '
        "Debian: apt-get install tesseract-ocr-deu)"
    )
    assert ocr_unavailable_reason("deu") == expected
    assert ocr_unavailable_reason("deu+eng") == expected
    with pytest.raises(OcrUnavailable, match=r'^OCR language "deu" is not installed'):
        extract_report(sample_path(), LoadOptions(ocr=True, ocr_language="deu+eng"))


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
@needs_tesseract
def test_the_cache_keeps_languages_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not SCAN.is_file():
        pytest.skip(f"corpus not found at {CORPUS}")
    asked: list[str] = []
    real = extract_module.extract_report

    def recording(path: Path, options: LoadOptions, **keywords: Any) -> object:
        asked.append(options.ocr_language)
        return real(path, options, **keywords)

    monkeypatch.setattr("siftui.sources.cache.extract_report", recording)
    cache = DocCache(tmp_path / "cache")
    read = cached_extract_report(SCAN, LoadOptions(ocr=True, ocr_language="eng"), cache=cache)
    again = cached_extract_report(SCAN, LoadOptions(ocr=True, ocr_language="eng"), cache=cache)
    assert read.doc == again.doc and asked == ["eng"]
    cached_extract_report(SCAN, LoadOptions(ocr=True, ocr_language="eng+osd"), cache=cache)
    assert asked == ["eng", "eng+osd"]
