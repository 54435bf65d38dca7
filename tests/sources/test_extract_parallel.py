# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Parallel extraction: the same Doc as one process, progress, passwords, errors."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from support.pdfs import CORPUS, make_pdf

from siftui.core.doc import Doc
from siftui.sources import parallel as parallel_module
from siftui.sources.extract import extract_report
from siftui.sources.helper import readable, receive, send
from siftui.sources.load_options import LoadOptions
from siftui.sources.parallel import CHUNK_PAGES
from siftui.sources.pdf_open import (
    ExtractError,
    NeedsPassword,
    NotFound,
    PageProgress,
    TimedOut,
    WrongPassword,
)

PASSWORD = "pw-parallel"


def serial(path: Path, progress: PageProgress | None = None, **options: Any) -> Doc:
    return extract_report(path, LoadOptions(workers=1, **options), progress=progress).doc


def parallel(
    path: Path, workers: int = 2, progress: PageProgress | None = None, **options: Any
) -> Doc:
    load = LoadOptions(workers=workers, parallel_min_pages=1, **options)
    return extract_report(path, load, progress=progress).doc


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """90 pages (more than five chunks), a title and an outline."""
    path = tmp_path_factory.mktemp("parallel") / "many.pdf"
    texts = [f"Page {n}\nline two of {n}" if n % 7 else "" for n in range(1, 91)]
    return make_pdf(path, texts, title="Many", toc=[(1, "Start", 1), (1, "End", 90)])


@pytest.fixture(scope="module")
def locked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("parallel") / "locked.pdf"
    document = pymupdf.open()
    for number in range(1, 41):
        document.new_page().insert_text((72, 72), f"secret page {number}", fontname="helv")
    document.save(
        path,
        encryption=pymupdf.mupdf.PDF_ENCRYPT_AES_256,
        user_pw=PASSWORD,
        owner_pw="owner-" + PASSWORD,
    )
    document.close()
    return path


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"corpus file {name} not found at {CORPUS}")
    return path


@pytest.mark.parametrize("name", ["beameruserguide.pdf", "lshort-zh-cn.pdf", "ksp-thesis.pdf"])
def test_corpus_same_doc(name: str) -> None:
    path = corpus_file(name)
    assert parallel(path) == serial(path)


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_pgfmanual_same_doc_with_two_helpers() -> None:
    """The first 500 pages (the whole manual takes ~5 s each way on 2 quiet cores,
    much more on a loaded machine; bench/extract_parallel.py compares all 1,321)."""
    path = corpus_file("pgfmanual.pdf")
    one = serial(path, max_pages=500)
    assert len(one.pages) == 500 and one.page_count == 1321
    assert (
        extract_report(path, LoadOptions(max_pages=500, workers=3)).doc == one
    )  # the default threshold


def test_made_document_same_doc(many: Path) -> None:
    one = serial(many)
    assert one.title == "Many" and len(one.pages) == 90
    assert parallel(many) == one
    assert parallel(many, workers=4) == one
    assert parallel(many, max_pages=50) == serial(many, max_pages=50)
    assert parallel(many, max_pages=50).pages == one.pages[:50]


def wrong_counts(path: Path, pages: int, per_node: int) -> Path:
    """A PDF whose page tree holds its pages in nodes of ``per_node``, each node's /Count
    one too many or one too few in turn (the root's right): MuPDF's map of the tree
    finds every page, a walk down the counts another page or none."""
    made = make_pdf(path.with_suffix(".made.pdf"), [f"page {n}" for n in range(1, pages + 1)])
    document = pymupdf.open(made)
    root = int(document.xref_get_key(document.pdf_catalog(), "Pages")[1].split()[0])
    kids = [document.page_xref(number) for number in range(pages)]
    nodes = []
    for index, first in enumerate(range(0, pages, per_node)):
        node = document.get_new_xref()
        group = kids[first : first + per_node]
        count = len(group) + (1 if index % 2 == 0 else -1)
        refs = " ".join(f"{kid} 0 R" for kid in group)
        document.update_object(
            node, f"<</Type/Pages/Kids[{refs}]/Count {count}/Parent {root} 0 R>>"
        )
        for kid in group:
            document.xref_set_key(kid, "Parent", f"{node} 0 R")
        nodes.append(node)
    document.xref_set_key(root, "Kids", "[" + " ".join(f"{node} 0 R" for node in nodes) + "]")
    document.save(path)
    document.close()
    return path


def test_a_page_tree_with_wrong_counts_gives_the_same_doc(tmp_path: Path) -> None:
    """A helper finds its pages as this process's map of the tree does, even where a
    walk down the tree's counts would find others."""
    path = wrong_counts(tmp_path / "counts.pdf", 120, 10)
    with pymupdf.open(path) as walked, pymupdf.open(path) as mapped:
        pymupdf.mupdf.pdf_set_page_tree_cache(
            pymupdf.mupdf.pdf_document_from_fz_document(walked.this), 0
        )
        assert walked.page_xref(15) != mapped.page_xref(15)  # the damage is there
    one = serial(path)
    assert one.pages[15] == "page 16\n"

    helped: list[int] = []
    told = [0]

    def slowly(done: int, total: int) -> None:
        if done - told[0] > 1:  # a helper's chunk arrived (this process tells one page)
            helped.append(done)
        told[0] = done
        if not helped:  # slow this process down until a helper has read pages too
            time.sleep(0.05)

    assert parallel(path, progress=slowly) == one
    assert helped  # a helper found pages by its walk, checked against the map


def test_progress_is_monotonic_and_ends_at_e(many: Path) -> None:
    calls: list[tuple[int, int]] = []
    doc = parallel(many, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (90, 90)
    assert all(total == 90 for _, total in calls)
    dones = [done for done, _ in calls]
    assert dones == sorted(set(dones))  # strictly increasing
    assert doc == serial(many)


def test_progress_with_max_pages(many: Path) -> None:
    calls: list[tuple[int, int]] = []
    parallel(many, max_pages=40, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (40, 40)


def test_below_the_threshold_stays_in_one_process(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_helpers() -> None:
        raise AssertionError("a helper was started")

    monkeypatch.setattr(parallel_module, "_start_helper", no_helpers)
    assert extract_report(many, LoadOptions(workers=2, parallel_min_pages=91)).doc == serial(many)
    assert extract_report(
        many, LoadOptions(workers=2, max_pages=2 * CHUNK_PAGES - 1, parallel_min_pages=1)
    ).doc.pages
    assert extract_report(many, LoadOptions(workers=1, parallel_min_pages=1)).doc == serial(many)


def test_password_in_parallel_mode(locked: Path) -> None:
    doc = parallel(locked, password=PASSWORD)
    assert doc == serial(locked, password=PASSWORD)
    assert doc.pages[39].strip() == "secret page 40"
    with pytest.raises(NeedsPassword):
        parallel(locked)
    with pytest.raises(WrongPassword):
        parallel(locked, password="wrong")


def test_helper_error_comes_back_as_the_same_family(many: Path, tmp_path: Path) -> None:
    """The file disappears after this process opened it: the helper cannot open it."""
    path = make_pdf(tmp_path / "vanishing.pdf", [f"page {n}" for n in range(200)])

    def remove_on_first_page(done: int, total: int) -> None:
        if path.exists():
            path.unlink()
        time.sleep(0.02)  # slow this process down: the helper must start before the end

    with pytest.raises(ExtractError) as caught:
        parallel(path, progress=remove_on_first_page)
    assert isinstance(caught.value, NotFound)
    assert "\n" not in str(caught.value)
    assert str(caught.value).endswith("vanishing.pdf: no such file")


def test_a_helper_that_dies_leaves_its_pages_to_the_parent(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel_module, "_HELPER_CODE", "import os; os._exit(3)")
    calls: list[int] = []
    doc = parallel(many, progress=lambda done, total: calls.append(done))
    assert doc == serial(many)
    assert calls[-1] == 90


def test_helper_reports_errors_in_one_line(tmp_path: Path) -> None:
    process, sock = parallel_module._start_helper()
    send(sock, (str(tmp_path / "missing\nname.pdf"), None, 10))
    kind, name, message = receive(sock)
    sock.close()
    process.wait(30)
    assert (kind, name) == ("error", "NotFound")
    assert "\n" not in message and "missing\\nname.pdf: no such file" in message


def test_timeout(many: Path) -> None:
    with pytest.raises(TimedOut, match=r"took longer than 1e-09 s; stopped"):
        parallel(many, timeout=1e-9)
    with pytest.raises(TimedOut):
        serial(many, timeout=1e-9)
    with pytest.raises(ValueError):
        serial(many, timeout=0)
    assert parallel(many, timeout=60) == serial(many)


def test_from_a_thread(many: Path) -> None:
    """The TUI extracts in a worker thread: helpers start from there too."""
    results: list[Doc] = []
    thread = threading.Thread(target=lambda: results.append(parallel(many)))
    thread.start()
    thread.join(60)
    assert results == [serial(many)]


def test_unguarded_main_script_runs_once(many: Path, tmp_path: Path) -> None:
    """Helpers are not multiprocessing children: a script without the
    ``if __name__ == "__main__"`` guard is not run again by each of them."""
    script = tmp_path / "script.py"
    script.write_text(
        "from siftui.sources.extract import extract_report\n"
        "from siftui.sources.load_options import LoadOptions\n"
        "options = LoadOptions(workers=2, parallel_min_pages=1)\n"
        f"doc = extract_report({str(many)!r}, options).doc\n"
        "print(len(doc.pages))\n"
    )
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, timeout=60, check=False
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, b"90\n", b"")


def test_neither_this_process_nor_a_helper_imports_multiprocessing(
    many: Path, tmp_path: Path
) -> None:
    """Helpers speak siftui.sources.helper's framing: multiprocessing's connections
    cost 12 ms of import, here and in each helper."""
    seen = tmp_path / "helper-imported"
    watch = (  # the helper's first imports of these, as it makes them
        "import sys; sys.addaudithook(lambda event, args: event == 'import' and "
        "args[0].startswith(('multiprocessing', 'siftui.sources.helper')) and "
        f"open({str(seen)!r}, 'a').write(args[0] + ' '))"
    )
    code = (
        "import sys, time; from siftui.sources import parallel as p; "
        f"p._HELPER_CODE = {watch!r} + '; ' + p._HELPER_CODE; "
        "from siftui.sources.extract import extract_report; "
        "from siftui.sources.load_options import LoadOptions; "
        f"doc = extract_report({str(many)!r}, LoadOptions(workers=2, parallel_min_pages=1), "
        "progress=lambda done, total: time.sleep(0.02)).doc; "  # time for the helper to serve
        "print(len(doc.pages), 'multiprocessing' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["90", "False"]
    assert seen.read_text().split() == ["siftui.sources.helper"]  # it served, without it


def test_readable_says_which_pairs_have_something_to_read() -> None:
    first, first_peer = socket.socketpair()
    second, second_peer = socket.socketpair()
    with first, first_peer, second, second_peer:
        assert readable([first, second], 0) == []
        send(second_peer, ("ready",))
        assert readable([first, second], 5) == [second]
        assert receive(second) == ("ready",)
        first_peer.close()  # the other end gone is something to read: its end
        assert readable([first, second], 5) == [first]
        with pytest.raises(EOFError):
            receive(first)
