# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""The save of encrypted and repaired files, a write that fails half way, and two
writers at once."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pymupdf
import pytest
from support.editing import make_lines_pdf
from support.pdfs import USER_PASSWORD, make_encrypted_pdf

from siftui.core.edit.operations import AddAnnotation, Transaction
from siftui.core.evidence.errors import EvidenceError
from siftui.sources.edit.documents import later
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.save import REPAIRED
from siftui.sources.edit.working_copy import WorkingCopy


def note(name: str, left: float = 100) -> Transaction:
    add = AddAnnotation(
        1, "Text", (), (left, 100, left + 30, 130), "#ff0000", "n", name, "siftui agent", "D:1"
    )
    return Transaction((add,), "test")


def broken_xref(path: Path) -> bytes:
    """The file with its startxref pointing nowhere: MuPDF repairs it on open."""
    data = path.read_bytes()
    data = data[: data.rfind(b"startxref")] + b"startxref\n999999\n%%EOF\n"
    path.write_bytes(data)
    return data


def test_an_encrypted_file_stays_encrypted(tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "locked.pdf")
    before = path.read_bytes()
    copy = WorkingCopy(str(path), before, password=USER_PASSWORD)
    copy.commit(0, note("siftui-1-1"))
    saved = copy.save(1)
    assert not saved.whole and path.read_bytes().startswith(before)
    with pymupdf.open(path) as document:
        assert document.needs_pass and document.authenticate(USER_PASSWORD)
        assert [a.info["id"] for a in document[0].annots()] == ["siftui-1-1"]


@pytest.mark.parametrize("encrypted", [False, True])
def test_a_repaired_file_is_rewritten_whole_and_says_so(tmp_path: Path, encrypted: bool) -> None:
    if encrypted:
        path = make_encrypted_pdf(tmp_path / "r.pdf")
    else:
        path = make_lines_pdf(tmp_path / "r.pdf", pages=1)
    copy = WorkingCopy(str(path), broken_xref(path), password=USER_PASSWORD)
    assert copy.rewrites_whole == REPAIRED
    copy.commit(0, note("siftui-1-1"))
    saved = copy.save(1)
    assert (saved.whole, saved.reason) == (True, REPAIRED)
    with pymupdf.open(path) as document:
        assert not document.is_repaired and document.needs_pass == encrypted
        if encrypted:
            assert document.authenticate(USER_PASSWORD)
        assert bool(document.metadata.get("encryption")) == encrypted
        assert [a.info["id"] for a in document[0].annots()] == ["siftui-1-1"]


def test_a_write_that_fails_leaves_the_old_file_and_the_draft(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_lines_pdf(tmp_path / "a.pdf", pages=1)
    before = path.read_bytes()
    copy = WorkingCopy(str(path), before, store=DraftStore(tmp_path / "drafts"))
    copy.commit(0, note("siftui-1-1"))

    def dies(*_: object) -> None:
        raise OSError("killed between the write and the rename")

    monkeypatch.setattr(os, "replace", dies)
    with pytest.raises(OSError):
        copy.save(1)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["a.pdf", "drafts"]  # no temporary file left
    assert copy.unsaved and copy.revision == 1
    assert len(list((tmp_path / "drafts").glob("*.json"))) == 1


def test_two_writers_at_once_one_wins(tmp_path: Path) -> None:
    path = make_lines_pdf(tmp_path / "a.pdf", pages=1)
    copy = WorkingCopy(str(path), path.read_bytes())
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def write(name: str, left: float) -> None:
        start.wait()
        try:
            copy.commit(0, note(name, left))
            outcomes.append("won")
        except EvidenceError as refused:
            outcomes.append(str(refused))

    threads = [threading.Thread(target=write, args=(f"siftui-1-{n}", 100 + 50 * n)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == [
        "revision is 1, not 0: list again to see what changed",
        "won",
    ]
    assert copy.revision == 1 and len(copy.annotations()) == 1


def test_pages_warmed_in_the_background_have_their_glyphs(tmp_path: Path) -> None:
    path = make_lines_pdf(tmp_path / "a.pdf", pages=3)
    copy = WorkingCopy(str(path), path.read_bytes())
    copy.warm([3, 1, 9])  # a page past the end is left out
    done = threading.Event()
    later(done.set)  # the background thread runs its tasks in order
    assert done.wait(60)
    assert copy._pages.glyph_pages() == [1, 3]
    assert copy.glyphs(3).text.startswith("Alpha beta gamma 3\n")
