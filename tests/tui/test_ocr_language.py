"""`siftui FILE --ocr-lang LANG`: the languages `t` (OCR of pages without text) reads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.pdfs import make_pdf
from support.tui_support import RecordingApp, run, settle, wait_until
from textual.pilot import Pilot

from siftui.sources import extract as extract_module
from siftui.sources import pdf_open as pdf_open_module
from siftui.sources.extract import ocr_unavailable_reason
from siftui.sources.kinds import Loaded
from siftui.sources.load_options import LoadOptions
from siftui.tui.app import SiftApp
from siftui.tui.preload import load_any
from siftui.tui.widgets import loader as loader_module
from siftui.tui.widgets.view import ContentView

MISSING = ocr_unavailable_reason()
needs_tesseract = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def test_a_malformed_language_is_a_usage_error_before_the_screen(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "scan.pdf", ["a page", ""])
    done = subprocess.run(
        [sys.executable, "-m", "siftui", str(pdf), "--ocr-lang", "deu eng"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().split("\n")
    assert 'invalid OCR language "deu eng"' in lines[-1]
    assert "\x1b" not in done.stderr  # no screen was drawn


@needs_tesseract
def test_t_says_when_the_language_is_not_installed(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "scan.pdf", ["a page", ""])
    installed = extract_module.installed_ocr_languages(
        pdf_open_module.quiet_pymupdf().get_tessdata()
    )
    absent = next(code for code in ("zul", "yor", "xho") if code not in installed)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        assert isinstance(app, RecordingApp)
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("t")
        await wait_until(pilot, lambda: any("not installed" in seen for seen in app.seen))
        said = next(seen for seen in app.seen if "not installed" in seen)
        assert said.startswith(f'OCR language "{absent}" is not installed (installed: ')
        assert app.ocr is False

    run(RecordingApp(pdf, ocr_language=f"eng+{absent}"), scenario)


@needs_tesseract
def test_t_opens_the_document_again_reading_in_the_language_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = make_pdf(tmp_path / "scan.pdf", ["a page", ""])
    asked: list[tuple[bool, str]] = []
    real = load_any  # the one the loader calls

    def recording(path: Path, options: LoadOptions, **keywords: Any) -> Loaded:
        asked.append((options.ocr, options.ocr_language))
        return real(path, options, **keywords)

    monkeypatch.setattr(loader_module, "load_any", recording)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        assert isinstance(app, RecordingApp)
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("t")
        await wait_until(pilot, lambda: app.ocr and app.opening is None, 120)
        await settle(app, pilot)
        assert asked[-1] == (True, "eng")
        assert "OCR on (eng): reading pages without text ..." in app.seen
        assert app.answer is not None and app.answer.request.source is not None
        assert app.answer.request.source.ocr

    run(RecordingApp(pdf, ocr_language="eng"), scenario)
