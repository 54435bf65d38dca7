# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""The save's write: the bytes MuPDF writes for the draft, whichever way the file's own
bytes reach the temporary file; a write that fails at any step leaves the file as it
was, no temporary file and no open descriptor behind; the permission bits kept."""

from __future__ import annotations

import os
import re
import shutil
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from support.editing import make_lines_pdf
from support.pdfs import USER_PASSWORD, make_encrypted_pdf

from siftui.core.edit.operations import AddAnnotation, Transaction
from siftui.sources.edit import save as save_module
from siftui.sources.edit import working_copy as working_copy_module
from siftui.sources.edit.documents import fingerprint, later
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.working_copy import WorkingCopy

KINDS = ["plain", "encrypted", "repaired", "repaired-encrypted"]


def note(name: str, page: int = 1) -> Transaction:
    add = AddAnnotation(
        page, "Text", (), (100, 100, 130, 130), "#ff0000", "n", name, "siftui agent", "D:1"
    )
    return Transaction((add,), "test")


def make(kind: str, path: Path) -> bytes:
    """A file of ``kind`` at ``path``; the bytes it holds."""
    if kind.endswith("encrypted"):
        make_encrypted_pdf(path)
    else:
        make_lines_pdf(path, pages=2)
    data = path.read_bytes()
    if kind.startswith("repaired"):  # startxref pointing nowhere: MuPDF repairs it on open
        data = data[: data.rfind(b"startxref")] + b"startxref\n999999\n%%EOF\n"
        path.write_bytes(data)
    return data


def opened(path: Path, data: bytes, store: DraftStore | None = None) -> WorkingCopy:
    seen = fingerprint(os.stat(path))
    copy = WorkingCopy(str(path), data, password=USER_PASSWORD, seen=seen, store=store)
    copy.commit(0, note("siftui-1-1"))
    return copy


def written_by_mupdf(copy: WorkingCopy, path: Path) -> bytes:
    """What MuPDF writes for the draft when it writes the file itself (incremental: it
    copies the bytes it was opened on, then appends the update)."""
    options = pymupdf.mupdf.PdfWriteOptions()
    options.do_encrypt = pymupdf.mupdf.PDF_ENCRYPT_KEEP
    with copy.reading() as document:
        if copy.rewrites_whole:
            options.do_garbage = 1
        else:
            options.do_incremental = 1
        output = pymupdf.mupdf.FzOutput(str(path), 0)
        try:
            pymupdf.mupdf.pdf_write_document(pymupdf._as_pdf_document(document), output, options)
        finally:
            output.fz_close_output()
    return path.read_bytes()


_PDF_STRING = rb"(?:<[0-9A-Fa-f]*>|\((?:[^()\\]|\\.)*\))"
"""A PDF string as MuPDF writes one: hexadecimal, or literal with its parentheses and
backslashes escaped."""


def without_new_id(data: bytes) -> bytes:
    """The bytes with the second half of /ID left out: MuPDF makes it anew, at random,
    each time it writes, as a hexadecimal string or, when its random bytes read better
    so, a literal one (about one save in a hundred: a byte or two shorter or longer)."""
    return re.sub(
        rb"(/ID\s*\[\s*" + _PDF_STRING + rb"\s*)" + _PDF_STRING, rb"\1", data, flags=re.DOTALL
    )


def objects(data: bytes) -> list[tuple[str, bytes | None]]:
    """Every object of the PDF, decrypted (AES strings and streams carry a random IV)."""
    with pymupdf.open(stream=data, filetype="pdf") as document:
        if document.needs_pass:
            assert document.authenticate(USER_PASSWORD)
        found = []
        for xref in range(1, document.xref_length()):
            found.append(
                (
                    re.sub(r"/ID\s*\[[^]]*\]", "", document.xref_object(xref, compressed=True)),
                    document.xref_stream_raw(xref) if document.xref_is_stream(xref) else None,
                )
            )
        return found


def descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def settled() -> None:
    """Waits for the edit family's background thread to finish what it was given."""
    done = threading.Event()
    later(done.set)
    assert done.wait(60)


@pytest.mark.parametrize("kind", KINDS)
def test_the_saved_bytes_are_those_mupdf_writes(tmp_path: Path, kind: str) -> None:
    path, other = tmp_path / "a.pdf", tmp_path / "b.pdf"
    before = make(kind, path)
    shutil.copyfile(path, other)
    expected = written_by_mupdf(opened(other, before), tmp_path / "mupdf.pdf")
    copy = opened(path, before)
    saved = copy.save(1)
    data = path.read_bytes()
    assert saved.whole == kind.startswith("repaired")
    assert saved.bytes == len(data)  # the size said is the file's (the /ID's may differ)
    if not saved.whole:
        assert data.startswith(before)
    if kind.endswith("encrypted"):
        assert objects(data) == objects(expected)
    else:
        assert without_new_id(data) == without_new_id(expected)
    settled()
    assert copy.data == data  # the copy starts again from the saved bytes


@pytest.mark.parametrize("way", ["no copy_file_range", "copy cut short", "file changed"])
def test_the_file_s_bytes_come_from_memory_when_the_kernel_copy_cannot_be_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    path = tmp_path / "a.pdf"
    before = make("plain", path)
    copy = opened(path, before)
    kernel_copy = os.copy_file_range
    calls: list[int] = []

    def copy_range(source: int, target: int, count: int, *offsets: int) -> int:
        calls.append(count)
        if way == "no copy_file_range":
            raise OSError(18, "Invalid cross-device link")
        if way == "copy cut short":
            return kernel_copy(source, target, min(count, 100), *offsets) if len(calls) == 1 else 0
        with open(path, "r+b") as writer:  # another program writes while the kernel copies
            writer.write(b"%XDF")
        return kernel_copy(source, target, count, *offsets)

    monkeypatch.setattr(os, "copy_file_range", copy_range)
    copy.save(1)
    data = path.read_bytes()
    assert calls and data.startswith(before)
    assert without_new_id(data)[len(before) :].count(b"siftui-1-1") == 1


def test_the_file_s_bytes_are_copied_in_the_kernel_when_the_file_shows_its_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.pdf"
    before = make("plain", path)
    copy = opened(path, before)
    kernel_copy = os.copy_file_range
    copied: list[int] = []

    def copy_range(source: int, target: int, count: int, *offsets: int) -> int:
        done = kernel_copy(source, target, count, *offsets)
        copied.append(done)
        return done

    written: list[int] = []
    write = os.pwrite

    def pwrite(descriptor: int, data: Any, at: int) -> int:
        written.append(at)
        return write(descriptor, data, at)

    monkeypatch.setattr(os, "copy_file_range", copy_range)
    monkeypatch.setattr(os, "pwrite", pwrite)
    copy.save(1)
    assert sum(copied) == len(before) and written == [len(before)]  # only the update
    assert path.read_bytes().startswith(before)


def _fails(*_: object) -> Any:
    raise OSError(28, "No space left on device")


def _no_copy(patch: pytest.MonkeyPatch) -> None:  # neither in the kernel nor from memory
    patch.setattr(os, "copy_file_range", _fails)
    patch.setattr(os, "pwrite", _fails)


STEPS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "mupdf": lambda patch: patch.setattr(save_module, "_mupdf_bytes", _fails),
    "copy": _no_copy,
    "update": lambda patch: patch.setattr(os, "pwrite", _fails),
    "chmod": lambda patch: patch.setattr(os, "fchmod", _fails),
    "fsync": lambda patch: patch.setattr(os, "fsync", _fails),
    "rename": lambda patch: patch.setattr(os, "replace", _fails),
}


@pytest.mark.parametrize("kind", ["plain", "repaired"])
@pytest.mark.parametrize("step", sorted(STEPS))
def test_a_save_that_fails_at_any_step_leaves_the_file_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, kind: str
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    path = folder / "a.pdf"
    before = make(kind, path)
    copy = opened(path, before, DraftStore(tmp_path / "drafts"))
    settled()
    open_before = descriptors()
    with monkeypatch.context() as patch:
        STEPS[step](patch)
        with pytest.raises(OSError):
            copy.save(1)
    assert path.read_bytes() == before
    assert os.listdir(folder) == ["a.pdf"]  # no temporary file left
    assert descriptors() == open_before  # the old file let go of
    assert copy.unsaved and copy.revision == 1
    assert copy.save(1).revision == 2  # the draft is kept: saved once the disk takes it


def test_a_folder_that_cannot_be_flushed_after_the_rename_does_not_undo_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rename is done when the folder's flush fails: the save happened, and the
    draft's next save is not refused as a change on disk of its own bytes."""
    path = tmp_path / "a.pdf"
    before = make("plain", path)
    copy = opened(path, before)
    file_fsync = os.fsync

    def files_only(descriptor: int) -> None:
        if stat.S_ISDIR(os.fstat(descriptor).st_mode):
            raise OSError(22, "Invalid argument")
        file_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", files_only)
    saved = copy.save(1)
    assert saved.revision == 2 and not copy.unsaved
    assert saved.bytes == len(path.read_bytes()) > len(before)
    copy.commit(2, note("siftui-1-2", page=2))
    assert copy.save(3).revision == 4
    with pymupdf.open(path) as document:
        names = [a.info["id"] for page in document.pages() for a in page.annots()]
    assert names == ["siftui-1-1", "siftui-1-2"]


@pytest.mark.parametrize("kind", ["plain", "repaired", "encrypted"])
@pytest.mark.parametrize("mode", [0o600, 0o644, 0o640])
def test_the_permission_bits_are_kept(tmp_path: Path, kind: str, mode: int) -> None:
    path = tmp_path / "a.pdf"
    before = make(kind, path)
    os.chmod(path, mode)
    copy = opened(path, before)
    copy.save(1)
    assert stat.S_IMODE(os.stat(path).st_mode) == mode


def test_the_old_file_is_let_go_of_after_the_save(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    before = make("plain", path)
    copy = opened(path, before)
    settled()
    open_before = descriptors()
    copy.save(1)
    settled()
    assert descriptors() == open_before
    copy.commit(2, note("siftui-1-2", page=2))  # the next draft opens the saved bytes
    copy.save(3)
    with pymupdf.open(path) as document:
        names = [a.info["id"] for page in document.pages() for a in page.annots()]
    assert names == ["siftui-1-1", "siftui-1-2"]


def test_a_document_opened_on_other_bytes_is_saved_from_mupdf_s_own_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's bytes go beside first only when MuPDF opened those very bytes; else
    all of what MuPDF wrote is taken (and nothing from the file)."""
    path = tmp_path / "a.pdf"
    before = make("plain", path)
    monkeypatch.setattr(os, "copy_file_range", _fails)
    document = pymupdf.open(stream=bytes(bytearray(before)), filetype="pdf")
    document[0].add_text_annot((100, 100), "n")
    written = save_module.write_beside(str(path), document, before, fingerprint(os.stat(path)))
    written.replace()
    data = path.read_bytes()
    assert data.startswith(before) and len(data) == written.bytes.size > len(before)
    with pymupdf.open(path) as saved:
        assert [a.info["content"] for a in saved[0].annots()] == ["n"]


def test_a_save_without_the_kernel_s_write_out_hint_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.pdf"
    before = make("plain", path)
    monkeypatch.setattr(save_module, "_sync_file_range", lambda: None)  # not Linux
    opened(path, before).save(1)
    with pymupdf.open(path) as saved:
        assert [a.info["id"] for a in saved[0].annots()] == ["siftui-1-1"]


def test_a_check_of_the_encryption_that_fails_leaves_the_file_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    path = folder / "a.pdf"
    before = make("encrypted", path)
    copy = opened(path, before, DraftStore(tmp_path / "drafts"))
    settled()
    open_before = descriptors()
    with monkeypatch.context() as patch:
        patch.setattr(working_copy_module, "still_encrypted", _fails)
        with pytest.raises(OSError):
            copy.save(1)
    assert path.read_bytes() == before
    assert os.listdir(folder) == ["a.pdf"]  # no temporary file left
    assert descriptors() == open_before  # the old file let go of
    assert copy.unsaved and copy.revision == 1
    assert copy.save(1).revision == 2
