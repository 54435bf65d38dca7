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

from dataclasses import dataclass
from typing import Any

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.tools_documents import fit_dpi
from siftui.core.messages import one_line
from siftui.sources.pdf_open import quiet_pymupdf


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
