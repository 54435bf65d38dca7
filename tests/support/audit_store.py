"""A small document store for `siftui audit` tests: corpus files read in place (through
links), PDFs and a Word document made here, damaged, encrypted and empty files, a
file that is not a document and a directory loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from siftui.sources.audit.store import read_records
from support.damaged import cut_pdf
from support.docx_build import p, write_docx
from support.hidden_pdfs import make_hidden_pdf
from support.pdfs import CORPUS, make_encrypted_pdf, make_pdf

CORPUS_FILES = ("ksp-thesis.pdf", "c03-29.pdf", "libreoffice-writer-password.pdf")


def long_pages(count: int) -> list[str]:
    return ["\n".join(f"page {n} line {k} of some text" for k in range(40)) for n in range(count)]


def make_store(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    make_pdf(root / "a.pdf", ["alpha one", "alpha two", "alpha three"], title="A")
    make_pdf(root / "sub" / "big.pdf", long_pages(12))
    make_hidden_pdf(root / "hidden.pdf")
    write_docx(root / "b.docx", p("Hello") + p("World"))
    (root / "empty.pdf").write_bytes(b"")
    (root / "cut.pdf").write_bytes(cut_pdf())
    make_encrypted_pdf(root / "locked.pdf")
    (root / "notes.txt").write_text("not a document")
    (root / "sub" / "loop").symlink_to(root)  # a directory loop
    for name in CORPUS_FILES:  # read in place, through a link
        if (CORPUS / name).is_file():
            (root / name).symlink_to(CORPUS / name)
    return root


def untimed(path: Path) -> list[dict[str, Any]]:
    """The records of an audit file, sorted by path, without the time each took."""
    return sorted(
        ({k: v for k, v in r.items() if k != "seconds"} for r in read_records(str(path))),
        key=lambda r: r["path"],
    )
