# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Small test documents made with PyMuPDF, written where the test says (tmp_path).

Each helper returns the path it wrote. Nothing here is a test: pytest collects
only ``test_*.py``.
"""

from __future__ import annotations

import csv
import fcntl
import os
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pymupdf
import pytest

from siftui.core.doc import Doc
from siftui.core.docjson import doc_from_json, doc_to_json
from siftui.sources.extract import extract
from support.same_bytes import save_pdf, zip_entry

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"

CORPUS_PASSWORDS = {"libreoffice-writer-password.pdf": "openpassword"}


def _manifest() -> list[dict[str, str]]:
    if not (CORPUS / "MANIFEST.tsv").is_file():
        return []
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


CORPUS_MANIFEST = _manifest()
"""The corpus's MANIFEST.tsv rows (file, pages, text_runes, ...); empty without the corpus."""
needs_corpus = pytest.mark.skipif(
    not CORPUS_MANIFEST, reason=f"the test corpus is missing: no {CORPUS / 'MANIFEST.tsv'}"
)

CJK_TEXT = "中文文本测试：页面三"
USER_PASSWORD = "user-pw"
OWNER_PASSWORD = "owner-pw"


def make_pdf(
    path: Path,
    pages: Sequence[str],
    *,
    title: str = "",
    toc: Sequence[tuple[int, str, int]] = (),
    fontname: str = "helv",
    stable: bool = False,
) -> Path:
    """A PDF with one page per text (lines split on "\\n"; "" = an empty page).
    Its bytes are the same on every run (support.same_bytes); ``stable``: also no file
    ID and an empty Info, as the pictures that show its contentVersion were drawn with."""
    document = pymupdf.open()
    for text in pages:
        page = document.new_page()
        if text:
            page.insert_text((72, 72), text, fontname=fontname, fontsize=11)
    if title or stable:
        document.set_metadata({"title": title})
    if toc:
        document.set_toc([list(item) for item in toc])
    if stable:
        document.save(path, no_new_id=True)
    else:
        save_pdf(document, path)
    document.close()
    return path


def make_rich_pdf(path: Path) -> Path:
    """Title, a nested outline with an unresolved entry, a CJK page, an empty page."""
    document = pymupdf.open()
    for number in (1, 2):
        document.new_page().insert_text(
            (72, 72), f"Latin page {number}\nsecond line {number}", fontname="helv"
        )
    document.new_page().insert_text((72, 72), CJK_TEXT, fontname="china-s", fontsize=14)
    document.new_page()  # page 4: no text at all
    document.new_page().insert_text((72, 72), "Last page", fontname="helv")
    document.set_metadata({"title": "  A  Rich\tTitle "})
    document.set_toc(
        [
            [1, "Part one", 1],
            [2, "Chapter 1.1", 2],
            [3, "Section 1.1.1", 3],
            [1, "Missing target", -1],
            [1, "Part two", 5],
        ]
    )
    save_pdf(document, path)
    document.close()
    return path


RICH_TOC = [
    (1, "Part one", 1),
    (2, "Chapter 1.1", 2),
    (3, "Section 1.1.1", 3),
    (1, "Missing target", -1),
    (1, "Part two", 5),
]


def make_square_pdf(path: Path) -> Path:
    """One white 200 x 200 pt page with a black square in its middle (50-150 pt each way)."""
    document = pymupdf.open()
    page = document.new_page(width=200, height=200)
    page.draw_rect(pymupdf.Rect(50, 50, 150, 150), color=(0, 0, 0), fill=(0, 0, 0))
    document.set_metadata({})  # no dates: the same bytes on every run
    document.save(path, no_new_id=True)
    document.close()
    return path


def make_encrypted_pdf(path: Path, text: str = "secret text") -> Path:
    """AES-256, user password USER_PASSWORD, owner password OWNER_PASSWORD."""
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), text, fontname="helv")
    document.save(
        path,
        encryption=pymupdf.mupdf.PDF_ENCRYPT_AES_256,
        user_pw=USER_PASSWORD,
        owner_pw=OWNER_PASSWORD,
    )
    document.close()
    return path


def make_zero_page_pdf(path: Path) -> Path:
    """A whole PDF whose page tree is empty (PyMuPDF cannot save one); with its
    cross-reference table, so MuPDF has nothing to repair."""
    head = b"%PDF-1.4\n"
    objects = [b"1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n"]
    objects.append(b"2 0 obj <</Type/Pages/Kids[]/Count 0>> endobj\n")
    offsets = [len(head), len(head) + len(objects[0])]
    xref = offsets[1] + len(objects[1])
    table = b"xref\n0 3\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    trailer = b"trailer <</Size 3/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % xref
    path.write_bytes(head + b"".join(objects) + table + trailer)
    return path


def make_cbz(path: Path, images: int) -> Path:
    """A comic book archive: a zip of PNG images, one page each."""
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    pixmap.clear_with(200)
    png = pixmap.tobytes("png")
    with zipfile.ZipFile(path, "w") as archive:
        for number in range(1, images + 1):
            archive.writestr(zip_entry(f"{number:03d}.png"), png)
    return path


class CorpusDocs:
    """Corpus files extracted at most once per test session, even under pytest-xdist.

    Each xdist worker is a pytest session of its own; the first one to need a
    file extracts it and leaves its Doc JSON in the run's shared temporary
    directory (under a lock), the others read that. pgfmanual.pdf takes ~3 s
    to extract and ~0.1 s to read back.
    """

    def __init__(self, shared: Path) -> None:
        self.shared = shared
        self.extracted: list[str] = []  # what this process extracted itself
        self._docs: dict[str, Doc] = {}

    def path(self, name: str) -> Path:
        return CORPUS / name

    def __getitem__(self, name: str) -> Doc:
        if name not in self._docs:
            self._docs[name] = self._load(name)
        return self._docs[name]

    def _load(self, name: str) -> Doc:
        cached = self.shared / f"{name}.doc.json"
        with open(self.shared / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if cached.exists():
                return doc_from_json(cached.read_text("utf-8", "surrogatepass"))
            doc = extract(CORPUS / name, password=CORPUS_PASSWORDS.get(name))
            self.extracted.append(name)
            partial = cached.with_suffix(".partial")
            partial.write_text(doc_to_json(doc), "utf-8", "surrogatepass")
            partial.replace(cached)
            return doc


def corpus_docs(factory: pytest.TempPathFactory) -> CorpusDocs:
    """The CorpusDocs of this run: shared between xdist workers, never between runs."""
    base = factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "corpus-docs"
    shared.mkdir(exist_ok=True)
    return CorpusDocs(shared)
