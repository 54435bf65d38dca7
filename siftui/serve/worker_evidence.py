"""The evidence tools' PyMuPDF calls, run in a worker process as extraction is.

``pdf_info`` and ``pdf_page_render`` open the PDF with MuPDF, which a hostile
file can keep busy for minutes or make allocate gigabytes. So the server never
runs them itself: it hands a worker (siftui.serve.worker) the file's descriptor
and one of these tasks, with the time, memory and process limits of an
extraction, and gets back the result and the sha256 of the bytes the worker read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from siftui.core.evidence.records import RenderedPage
from siftui.sources import evidence_pdf

__all__ = ["Describe", "Draw", "Task"]


class Task(Protocol):
    @property
    def doing(self) -> str:
        """What the task does, for its messages ("drawing page 3 took longer than ...")."""
        ...

    def run(self, name: str, data: bytes, password: str | None) -> object:
        """The task on ``data``, the bytes of the file ``name`` (whose suffix is the type
        MuPDF is told when the bytes are no PDF's, as for its extraction), an encrypted
        PDF opened with ``password`` (the person's, from the reader; None: none given)."""
        ...


@dataclass(frozen=True)
class Describe:
    """E1's fields read from the PDF (after path, bytes, sha256 and contentVersion)."""

    @property
    def doing(self) -> str:
        return "reading its metadata"

    def run(self, name: str, data: bytes, password: str | None) -> dict[str, object]:
        return evidence_pdf.pdf_facts(name, data, password)


@dataclass(frozen=True)
class Draw:
    """E8's image of one page (1-based) at a dpi, lowered to the pixel bound."""

    page: int
    dpi: int

    @property
    def doing(self) -> str:
        return f"drawing page {self.page}"

    def run(self, name: str, data: bytes, password: str | None) -> RenderedPage:
        return evidence_pdf.render_page(name, data, self.page, self.dpi, password)
