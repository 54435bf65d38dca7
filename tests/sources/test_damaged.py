# mypy: disallow-untyped-calls=False
"""Damaged PDFs in the sources layer: read what can be read, say plainly why the rest cannot.

Every file is built here from raw PDF objects (tests/damaged.py).
"""

from __future__ import annotations

import json
import time
import zlib
from pathlib import Path

import pytest
from support.damaged import (
    NOT_A_PDF,
    cut_pdf,
    encrypted_attachment_pdf,
    no_pages_pdf,
    page_text,
    page_tree_pdf,
)

from siftui.core.doc import Doc
from siftui.core.render import Options, render
from siftui.core.unreadable import Extraction, UnreadablePage
from siftui.sources import parallel as parallel_module
from siftui.sources.cache import (
    MAGIC,
    DocCache,
    cached_extract_report,
    decode,
    decode_report,
    encode,
)
from siftui.sources.extract import extract, extract_report
from siftui.sources.helper import receive, send
from siftui.sources.load import LoadError, load_doc_report, load_source
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import (
    NeedsPassword,
    NoPages,
    NotReadable,
    WrongPassword,
    open_document,
)

CYCLE = "cycle in page tree"


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# --------------------------------------------------------------------------
# One bad page no longer refuses the document


def test_a_cycle_on_page_2_leaves_page_1_readable(tmp_path: Path) -> None:
    path = write(tmp_path, "cycle.pdf", page_tree_pdf(2, {2}))
    found = extract_report(path)
    assert found.doc == Doc("", 2, (page_text(1), ""))
    assert found.unreadable == (UnreadablePage(2, CYCLE),)
    assert found.unreadable_pages == frozenset({2})
    assert extract(path) == found.doc  # the contract's extract: the same Doc
    # the contract's string is unchanged: page 2's R1 block is its marker and "\n\n" + ""
    content = render(found.doc, Options()).content
    assert content == "--- page 1 ---\n\nPage 1 text\n\n--- page 2 ---\n\n"


def test_several_bad_pages_are_listed_in_order(tmp_path: Path) -> None:
    path = write(tmp_path, "holes.pdf", page_tree_pdf(6, {2, 3, 5}))
    found = extract_report(path)
    assert [item.page for item in found.unreadable] == [2, 3, 5]
    assert found.doc.pages == (page_text(1), "", "", page_text(4), "", page_text(6))
    short = extract_report(path, LoadOptions(max_pages=4))
    assert short.unreadable == found.unreadable[:2] and len(short.doc.pages) == 4


@pytest.mark.parametrize(
    ("pages", "bad", "max_pages", "message"),
    [
        (1, {1}, None, f"page 1 is damaged: {CYCLE}"),
        (3, {1, 2, 3}, None, f"none of its 3 pages can be read (page 1 is damaged: {CYCLE})"),
        (3, {1, 2}, 2, f"none of pages 1-2 can be read (page 1 is damaged: {CYCLE})"),
    ],
)
def test_refused_only_when_no_page_can_be_read(
    tmp_path: Path, pages: int, bad: set[int], max_pages: int | None, message: str
) -> None:
    path = write(tmp_path, "none.pdf", page_tree_pdf(pages, bad))
    with pytest.raises(NotReadable) as caught:
        extract_report(path, LoadOptions(max_pages=max_pages))
    assert str(caught.value) == f"{path}: {message}"
    with pytest.raises(LoadError) as loaded:
        load_doc_report(path, LoadOptions(max_pages=max_pages))
    assert str(loaded.value) == f"{path}: {message}"


def test_no_extracted_pages_is_not_a_refusal(tmp_path: Path) -> None:
    path = write(tmp_path, "none.pdf", page_tree_pdf(2, {1, 2}))
    assert extract_report(path, LoadOptions(max_pages=0)) == Extraction(Doc("", 2, ()), ())


def test_the_cache_keeps_the_unreadable_pages(tmp_path: Path) -> None:
    path = write(tmp_path, "cycle.pdf", page_tree_pdf(3, {2}))
    store = DocCache(tmp_path / "cache")
    first = cached_extract_report(path, cache=store)
    assert first.unreadable == (UnreadablePage(2, CYCLE),)
    assert len(list(store.directory.glob("*.doc"))) == 1
    path_moved = write(tmp_path, "same-bytes.pdf", path.read_bytes())
    hit = cached_extract_report(path_moved, cache=store)  # same sha256: from the cache
    assert hit == first
    assert cached_extract_report(path, LoadOptions(max_pages=1), cache=store) == Extraction(
        Doc("", 3, (page_text(1),)), ()
    )  # the first page of the whole entry: page 2 is not among them
    assert (
        cached_extract_report(path, LoadOptions(max_pages=2), cache=store).unreadable
        == first.unreadable
    )


def test_a_whole_entry_cut_to_unreadable_pages_still_refuses(tmp_path: Path) -> None:
    path = write(tmp_path, "first-bad.pdf", page_tree_pdf(2, {1}))
    store = DocCache(tmp_path / "cache")
    assert cached_extract_report(path, cache=store).unreadable_pages == {1}
    with pytest.raises(NotReadable, match=r"page 1 is damaged: cycle in page tree$"):
        cached_extract_report(path, LoadOptions(max_pages=1), cache=store)


def test_cache_entry_round_trip_and_bad_entries() -> None:
    doc = Doc("t", 3, ("a", "", "c"))
    data = encode(doc, "k", (UnreadablePage(2, "why"),))
    assert decode_report(data, "k") == Extraction(doc, (UnreadablePage(2, "why"),))
    assert decode(data, "k") == doc
    assert decode_report(encode(doc, "k"), "k") == Extraction(doc)
    bad_lists: list[object] = [[[4, "past"]], [[2, "b"], [1, "a"]], [[True, "x"]], [[1, 2]], {}]
    for bad in bad_lists:
        header = {"key": "k", "title": "", "page_count": 3, "outline": [], "sizes": [1, 0, 1]}
        entry = json.dumps({**header, "unreadable": bad}).encode() + b"\nac"
        with pytest.raises(ValueError):
            decode_report(MAGIC + zlib.compress(entry), "k")


def test_parallel_extraction_reports_the_same_pages(tmp_path: Path) -> None:
    bad = {2, 20, 37, 50, 64}  # one in each 16-page chunk
    path = write(tmp_path, "many.pdf", page_tree_pdf(64, bad))
    serial = extract_report(path, LoadOptions(workers=1))
    assert serial.unreadable_pages == bad
    slow: list[int] = []

    def slowly(done: int, total: int) -> None:
        slow.append(done)
        if done < 20:
            time.sleep(0.05)  # let the helper start and take chunks of its own

    assert (
        extract_report(path, LoadOptions(workers=2, parallel_min_pages=1), progress=slowly)
        == serial
    )
    assert slow[-1] == 64


def test_a_helper_reports_the_pages_it_could_not_read(tmp_path: Path) -> None:
    path = write(tmp_path, "helper.pdf", page_tree_pdf(20, {3, 17}))
    process, sock = parallel_module._start_helper()
    try:
        send(sock, (str(path), None, 20))
        assert receive(sock) == ("ready",)
        send(sock, (16, 32))  # a chunk (start, end): its pages past the 20th are none
        kind, start, texts, failed = receive(sock)
        assert (kind, start, failed) == ("pages", 16, [(17, CYCLE)])
        assert texts == ["", page_text(18), page_text(19), page_text(20)]
        send(sock, (-1, -1))
    finally:
        sock.close()
        process.wait(30)


def test_ocr_leaves_unreadable_pages_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from siftui.sources import extract as extract_module

    path = write(tmp_path, "cycle.pdf", page_tree_pdf(2, {2}))
    monkeypatch.setattr(extract_module, "ocr_unavailable_reason", lambda language: None)
    found = extract_report(
        path, LoadOptions(ocr=True)
    )  # page 1 has text: only page 2 would be OCR'd
    assert found.doc.pages == (page_text(1), "") and found.unreadable_pages == {2}


def test_extract_records_them_in_the_source_info(tmp_path: Path) -> None:
    path = write(tmp_path, "cycle.pdf", page_tree_pdf(2, {2}))
    source = json.loads(load_source(path))["source"]
    assert source["unreadable_pages"] == [{"page": 2, "reason": CYCLE}]
    healthy = write(tmp_path, "healthy.pdf", page_tree_pdf(2, set()))
    assert json.loads(load_source(healthy))["source"]["unreadable_pages"] == []


def test_a_doc_json_brings_its_unreadable_pages_back(tmp_path: Path) -> None:
    path = write(tmp_path, "cycle.pdf", page_tree_pdf(3, {2}))
    saved = tmp_path / "doc.json"
    saved.write_text(load_source(path), encoding="utf-8")
    assert load_doc_report(saved) == extract_report(path)
    assert load_doc_report(saved, LoadOptions(max_pages=1)).unreadable == ()


# --------------------------------------------------------------------------
# Damaged, attachments-only encryption, not a document


def test_a_cut_file_is_told_it_is_damaged(tmp_path: Path) -> None:
    path = write(tmp_path, "cut.pdf", cut_pdf(0.5))
    with pytest.raises(NoPages) as caught:
        extract(path)
    assert str(caught.value) == (
        f"{path}: damaged or truncated: MuPDF repaired it and found no pages"
    )


def test_an_undamaged_file_without_pages_says_so(tmp_path: Path) -> None:
    path = write(tmp_path, "empty-tree.pdf", no_pages_pdf())
    with pytest.raises(NoPages) as caught:
        extract(path)
    assert str(caught.value) == f"{path}: the document has no pages"


ATTACHMENTS = (
    "only its attachments are encrypted, and MuPDF cannot open such files without the password"
)


def test_attachments_only_encryption(tmp_path: Path) -> None:
    path = write(tmp_path, "attached.pdf", encrypted_attachment_pdf())
    with pytest.raises(NeedsPassword) as caught:
        extract(path)
    assert str(caught.value) == f"{path}: {ATTACHMENTS}"
    with pytest.raises(WrongPassword) as wrong:
        extract(path, password="")
    assert str(wrong.value) == f"{path}: wrong password ({ATTACHMENTS})"


def test_whole_document_encryption_still_asks_for_the_password(tmp_path: Path) -> None:
    path = write(tmp_path, "locked.pdf", encrypted_attachment_pdf(only_attachments=False))
    with pytest.raises(NeedsPassword) as caught:
        extract(path)
    assert str(caught.value) == f"{path}: needs a password (use --password)"


def test_not_a_document_names_no_path_twice(tmp_path: Path) -> None:
    path = write(tmp_path, "text.pdf", NOT_A_PDF)
    with pytest.raises(NotReadable) as caught:
        extract(path)
    message = str(caught.value)
    assert message == (
        f"{path}: not a document siftui can read "
        "(MuPDF cannot open it as a PDF: cannot find version marker)"
    )
    assert message.count(str(path)) == 1


def test_a_file_without_a_suffix_is_not_called_a_dot(tmp_path: Path) -> None:
    """MuPDF says "as type ." when the name gives no type and the bytes no header."""
    path = write(tmp_path, "notes", NOT_A_PDF)
    with pytest.raises(NotReadable) as caught:
        extract(path)
    assert str(caught.value) == (
        f"{path}: not a document siftui can read (MuPDF cannot tell what kind of document it is)"
    )


@pytest.mark.parametrize("name", ["report.docx", "report", "report.txt"])
def test_a_damaged_pdf_is_called_a_pdf_whatever_its_name(tmp_path: Path, name: str) -> None:
    """Its bytes make it a PDF (the kind table's rule): MuPDF's reason is a PDF's, read
    from the file and from bytes given (the server's worker)."""
    damaged = b"%PDF-1.7\n1 0 obj\n"
    path = write(tmp_path, name, damaged)
    expected = (
        f"{path}: not a document siftui can read "
        "(MuPDF cannot open it as a PDF: syntax error in object (1 0 R))"
    )
    with pytest.raises(NotReadable) as caught:
        extract(path)
    assert str(caught.value) == expected

    def refusal(named: Path) -> str:
        with pytest.raises(NotReadable) as given:
            open_document(named, data=damaged)
        return str(given.value).replace(str(named), "X")

    assert refusal(path) == refusal(path.with_name("named.pdf"))
