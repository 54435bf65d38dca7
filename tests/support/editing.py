# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""What the edit tests share: PDFs with rotated pages or a MediaBox off 0,0, a session
and a working copy over a file, and the text a saved annotation's quads cover.

Nothing here is a test: pytest collects only ``test_*.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.records import DocumentRead
from siftui.core.evidence.session import EvidenceSession
from siftui.core.evidence.utf16 import Utf16Text
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.glyphs import page_matrix
from siftui.sources.edit.registry import WorkingCopies
from siftui.sources.edit.working_copy import WorkingCopy

CORPUS_EDIT = Path(__file__).resolve().parents[3] / "shared" / "corpus-edit"

LINES = ("Alpha beta gamma", "delta epsilon zeta", "eta theta iota")


def make_lines_pdf(
    path: Path, *, pages: int = 2, rotation: int = 0, origin: tuple[float, float] = (0, 0)
) -> Path:
    """``pages`` pages of LINES (page n's words end in n), each rotated by ``rotation``
    and with its MediaBox moved to start at ``origin`` (the text moves with it)."""
    document = pymupdf.open()
    for number in range(1, pages + 1):
        page = document.new_page(width=612, height=792)
        text = "\n".join(f"{line} {number}" for line in LINES)
        page.insert_text((72, 100), text, fontname="helv", fontsize=12)
        if origin != (0, 0):
            x, y = origin
            document.xref_set_key(page.xref, "MediaBox", f"[{x} {y} {612 + x} {792 + y}]")
            # the content moves with the box: a cm before it
            contents = page.get_contents()
            for xref in contents:
                stream = document.xref_stream(xref)
                document.update_stream(xref, f"1 0 0 1 {x} {y} cm\n".encode() + stream)
        if rotation:
            page.set_rotation(rotation)
    document.save(path)
    document.close()
    return path


@dataclass
class Editing:
    """A session with one document open (``doc-1``) and its working copy."""

    session: EvidenceSession
    copies: WorkingCopies
    copy: WorkingCopy
    path: Path

    def ref(self, page: int, text: str, occurrence: int = 0) -> str:
        """A native ref for ``text`` on ``page`` (its ``occurrence``-th place)."""
        document = self.session.document("doc-1")
        page_text = document.texts[page - 1]
        index = -1
        for _ in range(occurrence + 1):
            index = page_text.text.index(text, index + 1)
        start = page_text.unit_of(index)
        end = page_text.unit_of(index + len(text))
        return self.session.issue_ref("doc-1", (Piece(page, start, end, text),))

    def ref_over(self, pieces: list[tuple[int, str]]) -> str:
        """A native ref of several pages' texts, each found once on its page."""
        document = self.session.document("doc-1")
        made = []
        for page, text in pieces:
            page_text = document.texts[page - 1]
            index = page_text.text.index(text)
            made.append(
                Piece(page, page_text.unit_of(index), page_text.unit_of(index + len(text)), text)
            )
        return self.session.issue_ref("doc-1", tuple(made))


def open_editing(path: Path, drafts: Path) -> Editing:
    data = path.read_bytes()
    copies = WorkingCopies(DraftStore(drafts))
    opened = copies.open(str(path), data)
    session = EvidenceSession()
    with pymupdf.open(stream=data, filetype="pdf") as document:
        texts = [page.get_text() for page in document]
    session.pdf_open(
        path=str(path),
        read=DocumentRead(
            real_path=str(path),
            content_version=opened.copy.content_version,
            title="",
            page_count=len(texts),
            pages=texts,
        ),
    )
    return Editing(session, copies, opened.copy, path)


def text_under_quads(path: Path, annotation_id: str) -> str:
    """The text of the file at ``path`` whose glyphs' centres lie in the quads of
    annotation ``annotation_id`` (its raw /QuadPoints, read back from the file), white
    space left out."""
    with pymupdf.open(path) as document:
        for page in document:
            for xref in page.annot_xrefs():
                kind, name = document.xref_get_key(xref[0], "NM")
                if kind == "string" and name == annotation_id:
                    return _covered(document, page, xref[0])
    raise AssertionError(f"no annotation {annotation_id} in {path}")


def _covered(document: pymupdf.Document, page: pymupdf.Page, xref: int) -> str:
    _, value = document.xref_get_key(xref, "QuadPoints")
    numbers = [float(n) for n in re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)", value)]
    user_to_page = page_matrix(page)
    boxes = []
    for start in range(0, len(numbers), 8):
        points = [
            pymupdf.Point(numbers[start + k], numbers[start + k + 1]) * user_to_page
            for k in range(0, 8, 2)
        ]
        boxes.append(pymupdf.Quad(*points).rect)
    found = []
    raw = page.get_text("rawdict", flags=pymupdf.TEXTFLAGS_TEXT)
    for block in raw["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                for char in span["chars"]:
                    x0, y0, x1, y1 = char["bbox"]
                    centre = pymupdf.Point((x0 + x1) / 2, (y0 + y1) / 2)
                    if not char["c"].isspace() and any(centre in box for box in boxes):
                        found.append(char["c"])
    return "".join(found)


def without_space(text: str) -> str:
    return "".join(text.split())


def page_text(path: Path, page: int) -> Utf16Text:
    with pymupdf.open(path) as document:
        return Utf16Text(document[page - 1].get_text())
