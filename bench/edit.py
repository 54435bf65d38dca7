"""The edit tools on pgfmanual against bare PyMuPDF doing the same work.

Run by hand: ``python bench/edit.py [PDF] [--reps N]`` (default pgfmanual.pdf from
the corpus; the file is copied to a temporary folder, never written in place).

- highlight: ``pdf_annotation_create`` of a ref over two lines of a page (the
  placement on the page's glyphs, the overlap check, the transaction, the draft
  kept on disk) against ``page.add_highlight_annot`` of the same quads on the
  same bytes (the page loaded in both). "cold": the first ref of a page, whose
  glyphs are read then (MuPDF's text page of it); "warm": a page whose glyphs
  the working copy read before (``WorkingCopy.glyphs``, as a host warms the pages
  it issued refs on).
- save: ``WorkingCopy.save`` of a draft with 50 highlights (the re-checks, the
  incremental update written to memory, the whole file written beside the old
  one, flushed and renamed over, the copy started again from the saved bytes)
  against ``doc.saveIncr()`` of the same 50 highlights made with PyMuPDF (an
  append to the file in place, not flushed; the line after it adds an fsync of the
  file to the bare save, since ours must be on the disk before it answers). The
  file each starts from is on the disk already (flushed after it is copied in), as
  a person's file is: neither pays for flushing the benchmark's own copy.
- atomic floor: what any atomic write of the saved bytes costs on this machine,
  without MuPDF: the file's bytes copied beside it in the kernel, the update
  appended, the permission bits set, flushed, renamed over (the old file let go of
  after) and the folder flushed, as the save does them.

Targets: highlight <= 1.5x, save <= 2x. Medians of N runs, ratios printed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import CORPUS, load
from siftui.core.edit.tools_annotations import Create, annotation_create
from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.records import DocumentRead
from siftui.core.evidence.session import EvidenceSession
from siftui.sources.edit.documents import fingerprint, open_pdf
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.glyphs import page_matrix
from siftui.sources.edit.registry import WorkingCopies
from siftui.sources.edit.working_copy import WorkingCopy
from siftui.sources.pdf_open import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()
FIRST_PAGE = 200


def two_lines(text: str) -> tuple[int, int]:
    """Code-point range of the first line of 30+ characters and the start of the next."""
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        if len(line.strip()) >= 30 and text[end + 1 : end + 11].strip():
            return start, end + 11
        start = end + 1
    raise ValueError("no two lines of text on this page")


class Bench:
    def __init__(self, source: Path, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "bench.pdf"
        shutil.copyfile(source, self.path)
        self.data = self.path.read_bytes()
        with open_pdf(self.data) as document:
            self.page_count = document.page_count
            self.texts = [""] * self.page_count
            for page in range(FIRST_PAGE, FIRST_PAGE + 200):  # the pages the refs are on
                self.texts[page - 1] = document[page - 1].get_text()

    def start(self) -> tuple[EvidenceSession, WorkingCopy]:
        shutil.copyfile(self.path.with_name("original.pdf"), self.path)
        copies = WorkingCopies(DraftStore(Path(tempfile.mkdtemp(dir=self.folder))))
        seen = fingerprint(os.stat(self.path))
        copy = copies.open(str(self.path), self.data, seen=seen).copy
        session = EvidenceSession()
        session.pdf_open(
            path=str(self.path),
            read=DocumentRead(
                real_path=str(self.path),
                content_version=copy.content_version,
                title="",
                page_count=self.page_count,
                pages=self.texts,
            ),
        )
        return session, copy

    def ref(self, session: EvidenceSession, page: int) -> str:
        text = session.document("doc-1").texts[page - 1]
        first, last = two_lines(text.text)
        start, end = text.unit_of(first), text.unit_of(last)
        return session.issue_ref("doc-1", (Piece(page, start, end, text.slice(start, end)),))


def create(session: EvidenceSession, copy: WorkingCopy, ref_id: str) -> None:
    target = {"kind": "reference", "refId": ref_id}
    annotation_create(session, copy, "doc-1", Create(copy.revision, "Highlight", target))


def bare_highlight(document: Any, page_number: int, quads: tuple[tuple[float, ...], ...]) -> float:
    started = time.perf_counter()
    page = document[page_number - 1]
    to_page = page_matrix(page)
    page.add_highlight_annot(
        quads=[
            pymupdf.Quad(*(pymupdf.Point(q[i], q[i + 1]) * to_page for i in (0, 2, 4, 6)))
            for q in quads
        ]
    )
    return time.perf_counter() - started


def highlights(bench: Bench, reps: int) -> dict[str, list[float]]:
    session, copy = bench.start()
    bare_document = open_pdf(bench.data)
    found: dict[str, list[float]] = {"cold": [], "warm": [], "bare": []}
    for rep in range(reps):
        for kind, page in (("cold", FIRST_PAGE + 2 * rep), ("warm", FIRST_PAGE + 2 * rep + 1)):
            ref_id = bench.ref(session, page)
            if kind == "warm":
                copy.glyphs(page)
            started = time.perf_counter()
            create(session, copy, ref_id)
            found[kind].append(time.perf_counter() - started)
            quads = copy.annotations(page)[-1].quads
            found["bare"].append(bare_highlight(bare_document, page, quads))
    return found


def flush(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def restore(bench: Bench) -> None:
    """The benchmark's file as it was, on the disk."""
    shutil.copyfile(bench.path.with_name("original.pdf"), bench.path)
    flush(bench.path)
    flush(bench.folder)


def atomic_floor(path: Path, size: int, update: bytes) -> float:
    """One atomic write of ``path``'s first ``size`` bytes followed by ``update``, the
    way the save writes them, with no MuPDF: seconds."""
    temporary = path.with_name(f".{path.name}.floor.tmp")
    started = time.perf_counter()
    old = os.open(path, os.O_RDONLY)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    copied = 0
    while copied < size:
        copied += os.copy_file_range(old, descriptor, size - copied, copied, copied)
    os.pwrite(descriptor, update, size)
    os.fchmod(descriptor, 0o644)
    os.fsync(descriptor)
    os.close(descriptor)
    os.replace(temporary, path)
    flush(path.parent)
    finished = time.perf_counter() - started
    os.close(old)  # the save lets go of the old file after it answers
    return finished


def saves(bench: Bench, reps: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"save": [], "bare": [], "flushed": [], "floor": []}
    for _ in range(reps):
        session, copy = bench.start()
        flush(bench.path)
        flush(bench.folder)
        pages = []
        for page in range(FIRST_PAGE + 100, FIRST_PAGE + 200):
            try:
                create(session, copy, bench.ref(session, page))
            except ValueError:  # a page of pictures: no two lines to mark
                continue
            pages.append(page)
            if len(pages) == 50:
                break
        made = [(page, copy.annotations(page)[-1].quads) for page in pages]
        started = time.perf_counter()
        copy.save(copy.revision)
        found["save"].append(time.perf_counter() - started)
        update = copy.data[len(bench.data) :]
        restore(bench)
        found["floor"].append(atomic_floor(bench.path, len(bench.data), update))
        restore(bench)
        bare = pymupdf.open(bench.path)
        for page, quads in made:
            bare_highlight(bare, page, quads)
        started = time.perf_counter()
        bare.saveIncr()
        found["bare"].append(time.perf_counter() - started)
        descriptor = os.open(bench.path, os.O_RDONLY)
        os.fsync(descriptor)
        os.close(descriptor)
        found["flushed"].append(time.perf_counter() - started)
        bare.close()
    return found


def line(name: str, ours: list[float], bare: list[float]) -> str:
    mine, theirs = statistics.median(ours), statistics.median(bare)
    ratio = mine / theirs
    return f"{name:<16} {mine * 1000:8.1f} ms   bare {theirs * 1000:8.1f} ms   ratio {ratio:5.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", nargs="?", type=Path, default=CORPUS / "pgfmanual.pdf")
    parser.add_argument("--reps", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        shutil.copyfile(args.pdf, folder / "original.pdf")
        bench = Bench(args.pdf, folder)
        print(
            f"{args.pdf.name}: {bench.page_count} pages, {len(bench.data):,} bytes; load {load()}"
        )
        made = highlights(bench, args.reps)
        print(line("highlight cold", made["cold"], made["bare"]))
        print(line("highlight warm", made["warm"], made["bare"]))
        saved = saves(bench, max(3, args.reps // 2))
        print(line("save, 50 annots", saved["save"], saved["bare"]))
        print(line("  vs bare+fsync", saved["save"], saved["flushed"]))
        floor, ours = statistics.median(saved["floor"]), statistics.median(saved["save"])
        bare = statistics.median(saved["bare"])
        print(
            f"{'atomic floor':<16} {floor * 1000:8.1f} ms   save/floor {ours / floor:5.2f}x"
            f"   floor/bare {floor / bare:5.2f}x (no MuPDF: copy beside, fsync, rename)"
        )
        print(f"load {load()}")


if __name__ == "__main__":
    main()
