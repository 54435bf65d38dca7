# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""What the evidence tools need of a PDF beyond its text: metadata, page images, OCR.

Each function takes the bytes the server read from the file's descriptor (the
same bytes whose SHA-256 is the contentVersion), never a path, so what is
described, drawn or recognized is the version the agent opened. Images are
bounded in pixels before anything is drawn (``fit_dpi``); OCR runs Tesseract
as a child process with a time limit, on the PNG the agent was handed.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.tools_documents import fit_dpi
from siftui.core.evidence.tools_ocr import NO_TESSERACT
from siftui.core.messages import one_line
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE, missing_languages
from siftui.sources.pdf_open import quiet_pymupdf

OCR_SECONDS = 60.0
"""A page image Tesseract has not read in this time is refused, not waited for."""
OCR_LANGUAGE = DEFAULT_OCR_LANGUAGE
_VERSION = re.compile(r"tesseract\s+v?(\d[\w.\-]*)", re.IGNORECASE)


@dataclass(frozen=True)
class RenderedPage:
    png: bytes
    width: int
    height: int
    dpi: int
    lowered: bool


def _open(data: bytes) -> Any:
    try:
        return quiet_pymupdf().open(stream=data, filetype="pdf")
    except Exception as error:  # MuPDF raises bare RuntimeErrors and ValueErrors
        raise EvidenceError(f"cannot open the PDF: {one_line(error)}") from None


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def pdf_facts(data: bytes) -> dict[str, object]:
    """E1's fields after path, bytes, sha256 and contentVersion, in EVIDENCE.md's order."""
    document = _open(data)
    try:
        encrypted = bool(document.is_encrypted) or bool(_text(document.metadata.get("encryption")))
        if document.needs_pass:
            return {"encrypted": True, "needsPassword": True}
        metadata = document.metadata or {}
        version = _text(metadata.get("format"))
        return {
            "pages": document.page_count,
            "title": _text(metadata.get("title")),
            "encrypted": encrypted,
            "pdfVersion": version.removeprefix("PDF ").strip(),
            "producer": _text(metadata.get("producer")),
            "creator": _text(metadata.get("creator")),
            "created": _text(metadata.get("creationDate")),
            "modified": _text(metadata.get("modDate")),
            "outlineItems": len(document.get_toc(simple=True)),
        }
    finally:
        document.close()


def render_page(data: bytes, page: int, dpi: int) -> RenderedPage:
    """Page ``page`` (1-based) as a PNG at ``dpi``, lowered to stay within E8's pixel bound."""
    document = _open(data)
    try:
        if document.needs_pass:
            raise EvidenceError("the PDF needs a password")
        drawn = document[page - 1]
        rect = drawn.rect

        def pixels_at(candidate: int) -> tuple[int, int]:
            scale = candidate / 72
            return max(1, round(rect.width * scale)), max(1, round(rect.height * scale))

        used, lowered = fit_dpi(dpi, pixels_at)
        pixmap = drawn.get_pixmap(dpi=used, alpha=False)
        return RenderedPage(pixmap.tobytes("png"), pixmap.width, pixmap.height, used, lowered)
    except EvidenceError:
        raise
    except Exception as error:
        raise EvidenceError(f"page {page} cannot be drawn: {one_line(error)}") from None
    finally:
        document.close()


@functools.cache
def tesseract_engine() -> str | None:
    """``"tesseract 5.3.0"``, or None when no Tesseract runs here."""
    program = shutil.which("tesseract")
    if program is None:
        return None
    try:
        done = subprocess.run(
            [program, "--version"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    found = _VERSION.search(done.stdout + done.stderr)
    return f"tesseract {found.group(1)}" if found else None


def ocr_language_reason(language: str) -> str | None:
    """Why ocr_recognize cannot read ``language`` (Tesseract's codes joined by ``+``)
    here: no Tesseract, or a language `tesseract --list-langs` does not list; None
    when it can."""
    program = shutil.which("tesseract")
    if program is None or tesseract_engine() is None:
        return NO_TESSERACT
    try:
        done = subprocess.run(
            [program, "--list-langs"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"OCR could not run: {one_line(error)}"
    # The first line names the directory ("List of available languages in ...").
    installed = sorted(line.strip() for line in done.stdout.splitlines()[1:] if line.strip())
    return missing_languages(language, installed)


def recognize_png(png: bytes, *, language: str = OCR_LANGUAGE) -> tuple[str, str]:
    """(text, engine) Tesseract reads in ``png``; EvidenceError when it cannot."""
    engine = tesseract_engine()
    program = shutil.which("tesseract")
    if engine is None or program is None:
        raise EvidenceError(NO_TESSERACT)
    try:
        done = subprocess.run(
            [program, "stdin", "stdout", "-l", language],
            input=png,
            capture_output=True,
            timeout=OCR_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise EvidenceError(f"OCR took over {OCR_SECONDS:.0f} s and was stopped") from None
    except OSError as error:
        raise EvidenceError(f"OCR could not run: {one_line(error)}") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise EvidenceError(f"OCR failed: {why[-1] if why else f'exit {done.returncode}'}")
    return done.stdout.decode("utf-8", "replace"), engine
