"""The pieces under the attack tests, deterministic: opening below a root when the
tree changed after the check (siftui.serve.access), and many threads sharing one Doc's
tables (siftui.core.grep and siftui.core.docindex, as the MCP server's calls do)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.pdfs import make_pdf

from siftui.core.doc import Doc
from siftui.core.docindex import index_of
from siftui.core.grep import grep
from siftui.serve.access import Refused, Roots, Unopenable
from siftui.sources.extract import ocr_unavailable_reason


class StaleRoots(Roots):
    """Roots whose check always answers what it saw before the swap: the race, frozen."""

    def __init__(self, root: Path, seen: dict[str, Path]) -> None:
        super().__init__([root])
        self.seen = seen

    def resolve(self, given: str) -> Path:
        return self.seen[given]


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    make_pdf(root / "a.pdf", ["inside"])
    make_pdf(root / "sub" / "b.pdf", ["inside"])
    make_pdf(outside / "a.pdf", ["outside"])
    make_pdf(outside / "b.pdf", ["outside"])
    yield root.resolve(), outside.resolve()


def test_open_refuses_what_became_a_symlink_after_the_check(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    roots = StaleRoots(root, {"a.pdf": root / "a.pdf", "sub/b.pdf": root / "sub" / "b.pdf"})
    opened = roots.open("a.pdf")
    assert os.fstat(opened.fd).st_ino == (root / "a.pdf").stat().st_ino
    opened.close()
    (root / "a.pdf").unlink()
    (root / "a.pdf").symlink_to(outside / "a.pdf")  # the swap, after the check
    with pytest.raises(Refused, match="moved while it was opened"):
        roots.open("a.pdf")
    os.rename(root / "sub", root / "sub.old")
    (root / "sub").symlink_to(outside, target_is_directory=True)  # a directory of the path
    with pytest.raises(Refused, match="moved while it was opened"):
        roots.open("sub/b.pdf")


def test_open_takes_only_regular_files(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    os.mkfifo(root / "fifo.pdf")  # opened without blocking, then refused
    roots = Roots([root])
    for name, reason in [
        ("fifo.pdf", "not a regular file"),
        ("sub", "is a directory, not a file"),
        ("missing.pdf", "no such file"),
        ("a.pdf/x", "Not a directory"),
    ]:
        with pytest.raises(Unopenable, match=reason):
            roots.open(name)
    with pytest.raises(Refused, match="outside"):
        roots.open("/dev/zero")


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_many_threads_grep_one_doc() -> None:
    """Eight threads grepping one Doc gave KeyError (the grep memo evicted without a
    lock); a tiny switch interval makes the interleaving that hit it common."""
    doc = Doc("t", 2, ("alpha one\nbeta", "alpha two"))
    errors: list[BaseException] = []
    barrier = threading.Barrier(16)

    def work(number: int) -> None:
        barrier.wait()
        try:
            for k in range(800):
                result = grep(index_of(doc), f"alpha|{number}x{k}", 1, 2, 1000)
                assert result.hits == 2
        except BaseException as error:
            errors.append(error)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors[:3]


def test_ocr_failure_says_what_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure to find Tesseract's data says what failed, not "not installed"."""
    from siftui.sources import pdf_open as pdf_open_module

    def broken() -> str:
        raise RuntimeError("TESSDATA_PREFIX names /nowhere, which does not exist")

    monkeypatch.setattr(pdf_open_module.quiet_pymupdf(), "get_tessdata", broken)
    reason = ocr_unavailable_reason()
    assert reason is not None and "TESSDATA_PREFIX names /nowhere" in reason
