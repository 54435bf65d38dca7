"""A PDF's first extraction in a process of its own (siftui.sources.extract_process):
the same pages, unreadable pages and one-line errors as the loader in this process,
progress as pages are read, the cache written after the pages are handed over (never
with a password), and no process left behind by a caller that gives up."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest
from support.docx_build import p, write_docx
from support.pdfs import USER_PASSWORD, make_encrypted_pdf, make_pdf

from siftui.core.doc import Doc
from siftui.core.docjson import doc_to_json
from siftui.sources import extract_process
from siftui.sources.cache import DocCache, cache_key, cached_report
from siftui.sources.extract_process import ExtractionProcess, ProcessGone
from siftui.sources.filehash import file_sha256
from siftui.sources.helper import send
from siftui.sources.kinds import load_any
from siftui.sources.load import LoadError
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import NeedsPassword, WrongPassword

# More pages than PARALLEL_MIN_PAGES: the process shares them with its own helper.
TEXTS = [f"Page {n}\nwhat the agent reads on page {n}" if n % 9 else "" for n in range(1, 301)]


@pytest.fixture(scope="module")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("extract-process")
    return make_pdf(folder / "manual.pdf", TEXTS, title="Manual", toc=[(1, "Start", 1)])


def started(path: Path, password: str | None = None) -> ExtractionProcess:
    process = ExtractionProcess.start(path, password)
    assert process is not None, "no extraction process was started"
    return process


def load_error(path: Path, password: str | None = None) -> LoadError:
    with pytest.raises(LoadError) as raised:
        load_any(path, LoadOptions(password=password, use_cache=False))
    return raised.value


def wait_for(condition: object, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)


def test_the_same_extraction_as_the_loader_with_progress_to_the_end(manual: Path) -> None:
    seen: list[tuple[int, int]] = []
    found = started(manual).result(lambda done, total: seen.append((done, total)))
    expected = load_any(manual, LoadOptions(use_cache=False))
    assert found.doc == expected.doc and found.unreadable == expected.unreadable
    assert seen[-1] == (300, 300)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert {total for _, total in seen} == {300}


def test_the_cache_holds_the_pages_once_they_are_handed_over(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "fresh.pdf", TEXTS[:20], title="Fresh")
    assert cached_report(pdf) is None
    found = started(pdf).result(lambda done, total: None)
    wait_for(lambda: cached_report(pdf) is not None)
    hit = cached_report(pdf)
    assert hit is not None and hit.doc == found.doc


def test_a_password_is_used_and_nothing_is_cached(tmp_path: Path) -> None:
    pdf = make_encrypted_pdf(tmp_path / "locked.pdf", "the secret page")
    found = started(pdf, USER_PASSWORD).result(lambda done, total: None)
    assert found.doc == load_any(pdf, LoadOptions(password=USER_PASSWORD)).doc
    assert "the secret page" in found.doc.pages[0]
    time.sleep(0.5)  # time enough for a write, had there been one
    key = cache_key(file_sha256(pdf), None, name=pdf)
    assert not DocCache.default().entry(key).exists()


@pytest.mark.parametrize(("password", "reason"), [(None, NeedsPassword), ("not it", WrongPassword)])
def test_a_locked_file_fails_as_the_loader_says(
    tmp_path: Path, password: str | None, reason: type[Exception]
) -> None:
    pdf = make_encrypted_pdf(tmp_path / "locked.pdf")
    with pytest.raises(LoadError) as raised:
        started(pdf, password).result(lambda done, total: None)
    assert raised.value.reason is reason
    assert str(raised.value) == str(load_error(pdf, password))


def test_a_damaged_file_fails_in_the_loaders_own_words(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n")
    with pytest.raises(LoadError) as raised:
        started(damaged).result(lambda done, total: None)
    assert raised.value.reason is load_error(damaged).reason
    assert str(raised.value) == str(load_error(damaged))


def test_only_a_pdf_file_gets_a_process(tmp_path: Path) -> None:
    docx = write_docx(tmp_path / "terms.docx", p("Clause 1."))
    doc_json = tmp_path / "doc.json"
    doc_json.write_text(doc_to_json(Doc(title="", page_count=1, pages=("A",))))
    for path in (docx, doc_json, tmp_path / "missing.pdf", tmp_path):
        assert ExtractionProcess.start(path, None) is None


def test_a_process_that_dies_is_gone(monkeypatch: pytest.MonkeyPatch, manual: Path) -> None:
    monkeypatch.setattr(extract_process, "_CODE", "import sys; sys.exit(3)")
    with pytest.raises(ProcessGone):
        started(manual).result(lambda done, total: None)


def test_a_process_that_fails_otherwise_is_gone(
    monkeypatch: pytest.MonkeyPatch, manual: Path
) -> None:
    """Anything but the extraction's own errors: the caller reads the file itself, and
    so gets the real error with its traceback."""
    crash = (
        "import socket, sys; from siftui.sources.helper import send; "
        "send(socket.socket(fileno=int(sys.argv[1])), ('crashed', 'MemoryError'))"
    )
    monkeypatch.setattr(extract_process, "_CODE", crash)
    with pytest.raises(ProcessGone, match="MemoryError"):
        started(manual).result(lambda done, total: None)


def test_cancel_leaves_no_process(manual: Path) -> None:
    process = started(manual)
    process.cancel()
    assert process._process.poll() is not None


def test_a_caller_that_goes_away_leaves_no_process(tmp_path: Path) -> None:
    """The process notices at its next progress report that nobody listens, and ends
    (its own helper with it), writing nothing."""
    pdf = make_pdf(tmp_path / "left.pdf", TEXTS, title="Left")
    waiting = started(pdf)  # never asked for the pages
    reading = started(pdf)
    send(reading._conn, reading._opening)  # what result() sends first
    wait_for(lambda: reading._conn.recv(1, socket.MSG_PEEK))  # its first progress
    for process in (waiting, reading):
        os.close(process._conn.detach())  # gone without a word, as a killed caller is
    wait_for(lambda: all(each._process.poll() is not None for each in (waiting, reading)))
    time.sleep(0.5)
    assert cached_report(pdf) is None
