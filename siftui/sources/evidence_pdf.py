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

from typing import Any

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import RenderedPage
from siftui.core.evidence.tools_documents import MAX_RENDER_PIXELS, fit_dpi
from siftui.core.messages import one_line
from siftui.sources.damage import open_failure
from siftui.sources.detect import mupdf_type
from siftui.sources.pdf_open import quiet_pymupdf
from siftui.sources.word.kind import PDF_HEADER_WITHIN


def _open(name: str, data: bytes) -> Any:
    """The bytes of the file ``name`` opened as every reader of siftui opens them (the
    type siftui.sources.detect gives MuPDF), or why MuPDF cannot, in its words."""
    pymupdf = quiet_pymupdf()
    filetype = mupdf_type(name, data[:PDF_HEADER_WITHIN])
    pymupdf.TOOLS.reset_mupdf_warnings()
    try:
        return pymupdf.open(stream=data, filetype=filetype)
    except Exception as error:  # MuPDF raises bare RuntimeErrors and ValueErrors
        notes = str(pymupdf.TOOLS.mupdf_warnings())
        reason = open_failure(error, name, notes, filetype)
        raise EvidenceError(f"cannot open the PDF: {reason}") from None


def _locked(document: Any, password: str | None) -> bool:
    """Whether the open document stays encrypted to us: it needs a password and
    ``password`` (None: none given) does not open it. MuPDF's ``needs_pass`` stays
    true once a password has opened it."""
    return bool(document.needs_pass) and (password is None or not document.authenticate(password))


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def pdf_facts(name: str, data: bytes, password: str | None = None) -> dict[str, object]:
    """E1's fields after path, bytes, sha256 and contentVersion, in EVIDENCE.md's order
    (``pdfVersion`` "" for a document MuPDF opened that is no PDF); an encrypted PDF
    ``password`` opens is described whole (still ``encrypted``)."""
    document = _open(name, data)
    try:
        encrypted = bool(document.is_encrypted) or bool(_text(document.metadata.get("encryption")))
        if _locked(document, password):
            return {"encrypted": True, "needsPassword": True}
        metadata = document.metadata or {}
        version = _text(metadata.get("format"))
        is_pdf = version.startswith("PDF ")  # MuPDF reads other kinds too (text, images)
        return {
            "pages": document.page_count,
            "title": _text(metadata.get("title")),
            "encrypted": encrypted,
            "pdfVersion": version.removeprefix("PDF ").strip() if is_pdf else "",
            "producer": _text(metadata.get("producer")),
            "creator": _text(metadata.get("creator")),
            "created": _text(metadata.get("creationDate")),
            "modified": _text(metadata.get("modDate")),
            "outlineItems": len(document.get_toc(simple=True)),
        }
    finally:
        document.close()


def render_page(
    name: str, data: bytes, page: int, dpi: int, password: str | None = None
) -> RenderedPage:
    """Page ``page`` (1-based) as a PNG at ``dpi``, lowered to stay within E8's pixel
    bound (an encrypted PDF opened with ``password``)."""
    document = _open(name, data)
    try:
        if _locked(document, password):
            raise EvidenceError("the PDF needs a password")
        drawn = document[page - 1]
        rect = drawn.rect
        pymupdf = quiet_pymupdf()

        def pixels_at(candidate: int) -> tuple[int, int]:
            # MuPDF's own pixmap size: the scaled page rounded outwards (a 1,000,000 x
            # 10 pt page is 7 pixels high at 46 dpi, not round(6.4) = 6).
            box = (rect * pymupdf.Matrix(candidate / 72, candidate / 72)).irect
            return max(1, box.width), max(1, box.height)

        used, lowered = fit_dpi(dpi, pixels_at)
        width, height = pixels_at(used)
        if width * height > MAX_RENDER_PIXELS:  # not even 1 dpi fits: never over the cap
            raise EvidenceError(
                f"page {page} is too large to draw ({rect.width:.0f} x {rect.height:.0f} pt "
                f"is over {MAX_RENDER_PIXELS} pixels even at 1 dpi)"
            )
        pixmap = drawn.get_pixmap(dpi=used, alpha=False)
        return RenderedPage(pixmap.tobytes("png"), pixmap.width, pixmap.height, used, lowered)
    except EvidenceError:
        raise
    except Exception as error:
        raise EvidenceError(f"page {page} cannot be drawn: {one_line(error)}") from None
    finally:
        document.close()
