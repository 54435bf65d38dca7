"""--ocr-lang: OCR's languages as Tesseract's codes, checked, and a missing one named
with what is installed (the machine's Tesseract has eng, not deu)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.docx_build import p, t, write_docx

from siftui.core.ocr_language import check_ocr_language, missing_languages
from siftui.sources import extract as extract_module
from siftui.sources import pdf_open as pdf_open_module
from siftui.sources.ocr_runner import ocr_language_reason
from siftui.sources.sample import sample_path

MISSING = extract_module.ocr_unavailable_reason()
INSTALLED = (
    extract_module.installed_ocr_languages(pdf_open_module.quiet_pymupdf().get_tessdata())
    if MISSING is None
    else []
)
needs_no_deu = pytest.mark.skipif(
    MISSING is not None or "deu" in INSTALLED, reason="needs Tesseract without deu"
)
USE = "use Tesseract's codes, such as eng or deu+eng"
NOT_INSTALLED = (
    f'OCR language "deu" is not installed (installed: {", ".join(INSTALLED)}; '
    "Debian: apt-get install tesseract-ocr-deu)"
)


def siftui(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def one_line(done: subprocess.CompletedProcess[str], code: int) -> str:
    assert (done.returncode, done.stdout) == (code, ""), done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("siftui: error: ")
    return done.stderr.removeprefix("siftui: error: ").rstrip("\n")


def test_codes_are_checked() -> None:
    for good in ("eng", "deu+eng", "chi_sim", "chi_sim+eng+fra"):
        assert check_ocr_language(good) == good
    for bad in ("", "de u", "eng+", "+eng", "../eng", "e" * 41, "+".join(["eng"] * 11)):
        with pytest.raises(ValueError, match=r"^invalid OCR language "):
            check_ocr_language(bad)
    assert missing_languages("deu+eng+chi_sim", ["eng", "osd"]) == (
        'OCR language "deu", "chi_sim" are not installed (installed: eng, osd; '
        "Debian: apt-get install tesseract-ocr-deu tesseract-ocr-chi-sim)"
    )
    assert missing_languages("eng", ["eng"]) is None


@needs_no_deu
@pytest.mark.parametrize("command", ["render", "walk", "extract"])
def test_a_missing_language_is_one_line_naming_what_is_installed(command: str) -> None:
    done = siftui(command, sample_path(), "--ocr", "--ocr-lang", "deu+eng", "--no-cache")
    assert one_line(done, 1) == NOT_INSTALLED


@needs_no_deu
@pytest.mark.parametrize("command", ["mcp", "session"])
def test_the_servers_check_it_at_start(command: str, tmp_path: Path) -> None:
    done = siftui(command, "--root", tmp_path, "--ocr-lang", "deu")
    assert one_line(done, 2) == f"--ocr-lang deu: {NOT_INSTALLED}"
    assert ocr_language_reason("eng") is None
    assert ocr_language_reason("deu") == NOT_INSTALLED


def test_usage_errors(tmp_path: Path) -> None:
    assert one_line(siftui("render", sample_path(), "--ocr-lang", "eng"), 2) == (
        "--ocr-lang needs --ocr"
    )
    said = one_line(siftui("render", sample_path(), "--ocr", "--ocr-lang", "de u"), 2)
    assert said.endswith(
        'invalid OCR language "de u": use Tesseract\'s codes, such as eng or deu+eng'
    )
    said = one_line(siftui("mcp", "--root", tmp_path, "--ocr-lang", "x;y"), 2)
    assert said.endswith(
        'invalid OCR language "x;y": use Tesseract\'s codes, such as eng or deu+eng'
    )
    word = write_docx(tmp_path / "a.docx", p(t("Hello")))
    assert one_line(siftui("render", word, "--ocr-lang", "eng"), 2) == (
        "--ocr-lang is for PDFs, not Word documents"
    )
