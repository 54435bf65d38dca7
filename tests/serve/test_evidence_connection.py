"""The evidence tools with their files: roots, staleness, images, OCR, sessions, bounds.

Driven in process through the tool host (what the server and ``siftui session``
share: the argument checker, the table's entries, the log); the real server over
stdio is test_evidence_stdio.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.evidence_host import Driver, connect, said, text_of
from support.hidden_pdfs import HIDDEN, make_hidden_pdf
from support.pdfs import make_encrypted_pdf, make_pdf

from siftui.core.doc import Doc
from siftui.core.docjson import doc_to_json
from siftui.core.evidence.script import call_line
from siftui.core.evidence.store import SERVED_LIMITS, Limits
from siftui.serve.access import Roots
from siftui.serve.docstore import DocStore
from siftui.serve.evidence.script import answer_lines, run_script
from siftui.serve.host import ToolHost
from siftui.serve.limits import StoreLimits
from siftui.serve.tool_api import ImageBlock, ServedOptions, Session, TextBlock

WORKED_PAGES = ("Alpha beta\n", "gamma \U0001f600 delta\n", "beta-\nend\n")


def worked_doc(folder: Path) -> Path:
    path = folder / "worked.json"
    path.write_text(doc_to_json(Doc("Worked", 3, WORKED_PAGES)), encoding="utf-8")
    return path


def version_of(path: Path) -> str:
    return "v-" + hashlib.sha256(path.read_bytes()).hexdigest()[:12]


@pytest.fixture
def store() -> Iterator[DocStore]:
    made = DocStore(StoreLimits(workers=1))
    yield made
    made.shutdown()


def test_the_worked_example_through_the_files(tmp_path: Path, store: DocStore) -> None:
    path = worked_doc(tmp_path)
    connection = connect(tmp_path, store)
    opened = json.loads(text_of(connection, "pdf_open", {"path": "worked.json"}))
    assert opened == {
        "documentId": "doc-1",
        "contentVersion": version_of(path),
        "pages": 3,
        "title": "Worked",
        "reopened": False,
    }
    read = text_of(
        connection,
        "pdf_page_read",
        {"documentId": "doc-1", "page": 1, "lastPage": 3, "maxChars": 18},
    )
    assert read == (
        '{"documentId":"doc-1","contentVersion":"' + version_of(path) + '","pages":'
        '[{"page":1,"start":0,"end":11,"text":"Alpha beta\\n","refId":"ref-1"},'
        '{"page":2,"start":0,"end":6,"text":"gamma ","refId":"ref-2"}],'
        '"next":{"page":2,"offset":6},"units":17}'
    )
    found = json.loads(
        text_of(
            connection,
            "pdf_keyword_search",
            {"documentId": "doc-1", "query": "BETAEND", "match": "normalized"},
        )
    )
    assert [(hit["page"], hit["start"], hit["end"]) for hit in found["hits"]] == [(3, 0, 9)]


def test_a_rewritten_file_makes_the_document_stale(tmp_path: Path, store: DocStore) -> None:
    path = make_pdf(tmp_path / "a.pdf", ["first page", "second page"])
    connection = connect(tmp_path, store)
    text_of(connection, "pdf_open", {"path": "a.pdf"})
    text_of(connection, "pdf_page_read", {"documentId": "doc-1", "page": 1})
    make_pdf(tmp_path / "b.pdf", ["other text"])
    os.replace(tmp_path / "b.pdf", path)
    stale = "doc-1 is stale: a.pdf changed since it was opened; open it again"
    for tool, arguments in [
        ("pdf_page_read", {"documentId": "doc-1", "page": 1}),
        ("pdf_keyword_search", {"documentId": "doc-1", "query": "page"}),
        ("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1"}),
        ("pdf_bookmark_list", {"documentId": "doc-1"}),
        ("pdf_page_render", {"documentId": "doc-1", "page": 1}),
    ]:
        answer = connection.call(tool, arguments)
        assert (answer.is_error, said(answer)) == (True, stale), tool
    status = json.loads(text_of(connection, "pdf_status", {"documentId": "doc-1"}))
    assert status["sourceChanged"] is True
    reopened = json.loads(text_of(connection, "pdf_open", {"path": "a.pdf"}))
    assert reopened["documentId"] == "doc-2"
    assert reopened["contentVersion"] == version_of(path)
    assert text_of(connection, "pdf_close", {"documentId": "doc-1"})


def test_staleness_follows_the_path_the_document_was_opened_by(
    tmp_path: Path, store: DocStore
) -> None:
    """Reopened by a symlink to the same file, doc-1 still names a.pdf: a.pdf unchanged,
    it is fresh whatever the link now points to; opened by the link first, it follows
    the link. (It followed the last path it was opened by.)"""
    make_pdf(tmp_path / "a.pdf", ["first page"])
    make_pdf(tmp_path / "other.pdf", ["another file"])
    link = tmp_path / "link.pdf"
    for first, then in (("a.pdf", "link.pdf"), ("link.pdf", "a.pdf")):
        link.unlink(missing_ok=True)
        link.symlink_to("a.pdf")
        connection = connect(tmp_path, store)
        text_of(connection, "pdf_open", {"path": first})
        again = json.loads(text_of(connection, "pdf_open", {"path": then}))
        assert (again["documentId"], again["reopened"]) == ("doc-1", True)
        link.unlink()
        link.symlink_to("other.pdf")
        answer = connection.call("pdf_page_read", {"documentId": "doc-1", "page": 1})
        status = json.loads(text_of(connection, "pdf_status", {"documentId": "doc-1"}))
        if first == "a.pdf":
            assert not answer.is_error and status["sourceChanged"] is False
        else:
            stale = "doc-1 is stale: link.pdf changed since it was opened; open it again"
            assert said(answer) == stale and status["sourceChanged"] is True


def test_asking_the_status_does_not_make_a_stale_document_fresh(
    tmp_path: Path, store: DocStore
) -> None:
    """A file changed then restored: the document stays stale until reopened, whether
    or not pdf_status was asked in between (it made it fresh)."""
    path = make_pdf(tmp_path / "a.pdf", ["first page"])
    opened_bytes = path.read_bytes()
    stale = "doc-1 is stale: a.pdf changed since it was opened; open it again"
    for ask_status in (False, True):
        connection = connect(tmp_path, store)
        text_of(connection, "pdf_open", {"path": "a.pdf"})
        make_pdf(tmp_path / "b.pdf", ["other text"])
        os.replace(tmp_path / "b.pdf", path)
        assert said(connection.call("pdf_page_read", {"documentId": "doc-1", "page": 1})) == stale
        path.write_bytes(opened_bytes)
        if ask_status:
            status = json.loads(text_of(connection, "pdf_status", {"documentId": "doc-1"}))
            assert status["sourceChanged"] is False  # what is observed now
        answer = connection.call("pdf_page_read", {"documentId": "doc-1", "page": 1})
        assert said(answer) == stale, ask_status
        reopened = json.loads(text_of(connection, "pdf_open", {"path": "a.pdf"}))
        assert (reopened["documentId"], reopened["reopened"]) == ("doc-1", True)
        assert not connection.call("pdf_page_read", {"documentId": "doc-1", "page": 1}).is_error


def test_a_touched_but_unchanged_file_stays_fresh(tmp_path: Path, store: DocStore) -> None:
    path = make_pdf(tmp_path / "a.pdf", ["first page"])
    connection = connect(tmp_path, store)
    text_of(connection, "pdf_open", {"path": "a.pdf"})
    os.utime(path, (1, 1))
    text_of(connection, "pdf_page_read", {"documentId": "doc-1", "page": 1})


def test_a_removed_file_or_a_symlink_out_of_the_roots_is_stale(
    tmp_path: Path, store: DocStore
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    outside = make_pdf(tmp_path / "outside.pdf", ["secret"])
    make_pdf(root / "a.pdf", ["first page"])
    make_pdf(root / "b.pdf", ["second file"])
    connection = connect(root, store)
    text_of(connection, "pdf_open", {"path": "a.pdf"})
    text_of(connection, "pdf_open", {"path": "b.pdf"})
    (root / "a.pdf").unlink()
    (root / "b.pdf").unlink()
    (root / "b.pdf").symlink_to(outside)
    for document in ("doc-1", "doc-2"):
        answer = connection.call("pdf_page_read", {"documentId": document, "page": 1})
        assert answer.is_error and "is stale" in said(answer)
    refused = connection.call("pdf_open", {"path": "b.pdf"})
    assert refused.is_error and "secret" not in said(refused)


def test_files_outside_the_roots_word_files_and_passwords_are_refused(
    tmp_path: Path, store: DocStore
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    make_pdf(tmp_path / "outside.pdf", ["secret"])
    make_encrypted_pdf(root / "locked.pdf")
    (root / "letter.docx").write_bytes(b"PK\x03\x04")
    connection = connect(root, store)
    for tool in ("pdf_open", "pdf_info"):
        answer = connection.call(tool, {"path": "../outside.pdf"})
        assert answer.is_error and "\n" not in said(answer)
    word = connection.call("pdf_open", {"path": "letter.docx"})
    # This host serves the evidence tools alone: the refusal names no tool it lacks.
    assert word.is_error and said(word).endswith(
        "a Word document, not a PDF (this server serves no tool that reads it)"
    )
    locked = connection.call("pdf_open", {"path": "locked.pdf"})
    assert locked.is_error and "password" in said(locked)
    info = json.loads(text_of(connection, "pdf_info", {"path": "locked.pdf"}))
    assert list(info) == [
        "path", "bytes", "sha256", "contentVersion", "encrypted", "needsPassword"
    ]  # fmt: skip
    assert info["needsPassword"] is True
    assert json.loads(text_of(connection, "pdf_current", {})) == {"documents": []}


def test_pdf_info_names_the_file_without_issuing_an_identity(
    tmp_path: Path, store: DocStore
) -> None:
    path = make_pdf(tmp_path / "a.pdf", ["one", "two"])
    connection = connect(tmp_path, store)
    info = json.loads(text_of(connection, "pdf_info", {"path": "a.pdf"}))
    assert list(info) == [
        "path", "bytes", "sha256", "contentVersion", "pages", "title", "encrypted",
        "pdfVersion", "producer", "creator", "created", "modified", "outlineItems",
    ]  # fmt: skip
    assert info["bytes"] == path.stat().st_size
    assert info["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert (info["pages"], info["encrypted"]) == (2, False)
    assert json.loads(text_of(connection, "pdf_open", {"path": "a.pdf"}))["documentId"] == "doc-1"


def test_two_sessions_do_not_share_identities(tmp_path: Path, store: DocStore) -> None:
    make_pdf(tmp_path / "a.pdf", ["first page"])
    one, two = connect(tmp_path, store), connect(tmp_path, store)
    text_of(one, "pdf_open", {"path": "a.pdf"})
    text_of(one, "pdf_page_read", {"documentId": "doc-1", "page": 1})
    assert said(two.call("pdf_page_read", {"documentId": "doc-1", "page": 1})) == (
        'unknown documentId "doc-1"'
    )
    text_of(two, "pdf_open", {"path": "a.pdf"})
    assert said(two.call("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1"})) == (
        'unknown refId "ref-1"'
    )


def test_page_images_are_bounded_and_ocr_runs_once(tmp_path: Path, store: DocStore) -> None:
    make_pdf(tmp_path / "a.pdf", ["Hello evidence"])
    runs: list[bytes] = []

    def recognize(png: bytes) -> tuple[str, str]:
        runs.append(png)
        return "Hello evidence\n", "tesseract 9.9.9"

    connection = connect(tmp_path, store, recognize_png=recognize)
    text_of(connection, "pdf_open", {"path": "a.pdf"})
    answer = connection.call("pdf_page_render", {"documentId": "doc-1", "page": 1, "dpi": 300})
    image, block = answer.blocks
    assert isinstance(image, ImageBlock) and image.data.startswith(b"\x89PNG")
    assert isinstance(block, TextBlock)
    shown = json.loads(block.text)
    assert shown["width"] * shown["height"] <= 4_000_000
    assert answer_lines(answer)[0].startswith(f"image: {shown['width']}x{shown['height']} png ")
    first = json.loads(
        text_of(connection, "ocr_recognize", {"imageHandle": "img-1", "maxChars": 6})
    )
    assert (first["text"], first["nextOffset"], first["engine"]) == ("Hello ", 6, "tesseract 9.9.9")
    rest = json.loads(text_of(connection, "ocr_recognize", {"resultId": "ocr-1", "offset": 6}))
    assert (rest["text"], rest["nextOffset"]) == ("eviden", 12)  # the first call's maxChars
    again = json.loads(text_of(connection, "ocr_recognize", {"imageHandle": "img-1"}))
    assert again["resultId"] == "ocr-2"
    assert len(runs) == 1


def test_without_tesseract_ocr_is_refused_and_status_says_why(
    tmp_path: Path, store: DocStore
) -> None:
    make_pdf(tmp_path / "a.pdf", ["Hello"])

    def missing(png: bytes) -> tuple[str, str]:
        raise AssertionError("OCR must not run")

    connection = connect(tmp_path, store, recognize_png=missing, tesseract=lambda: None)
    text_of(connection, "pdf_open", {"path": "a.pdf"})
    status = json.loads(text_of(connection, "pdf_status", {"documentId": "doc-1"}))
    assert status["capabilities"]["ocr"] == {
        "supported": True,
        "available": False,
        "reason": "Tesseract is not installed",
    }
    assert status["capabilities"]["semanticSearch"]["supported"] is False


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed")
def test_real_tesseract_reads_a_rendered_page(tmp_path: Path, store: DocStore) -> None:
    make_pdf(tmp_path / "a.pdf", ["EVIDENCE"])
    connection = connect(tmp_path, store)
    text_of(connection, "pdf_open", {"path": "a.pdf"})
    connection.call("pdf_page_render", {"documentId": "doc-1", "page": 1, "dpi": 200})
    result = json.loads(text_of(connection, "ocr_recognize", {"imageHandle": "img-1"}))
    assert result["engine"].startswith("tesseract ") and result["derived"] is True
    assert "EVIDENCE" in result["text"]


def test_the_session_forgets_the_oldest_past_its_bounds(tmp_path: Path, store: DocStore) -> None:
    make_pdf(tmp_path / "a.pdf", ["alpha alpha alpha"])
    connection = connect(tmp_path, store, limits=Limits(refs=2, searches=1))
    text_of(connection, "pdf_open", {"path": "a.pdf"})
    for _ in range(3):
        text_of(connection, "pdf_page_read", {"documentId": "doc-1", "page": 1})
    assert said(
        connection.call("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1"})
    ) == ('unknown refId "ref-1"')
    text_of(connection, "pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-3"})
    assert SERVED_LIMITS.images < SERVED_LIMITS.refs


DOC = {"documentId": "doc-1"}
BAD_CALLS = [
    ("pdf_nothing", {}, 'unknown tool "pdf_nothing"'),
    ("pdf_current", {"x": 1}, 'unknown argument "x" (pdf_current takes no arguments)'),
    ("pdf_page_read", DOC, 'missing argument "page"'),
    ("pdf_page_read", {**DOC, "page": 1.0}, 'argument "page" must be an integer'),
    ("pdf_page_read", {**DOC, "page": True}, 'argument "page" must be an integer'),
    ("pdf_page_read", {**DOC, "page": 1, "maxChars": 0}, 'argument "maxChars" must be 1-20000'),
    ("pdf_page_read", [1], "arguments must be an object"),
    (
        "pdf_keyword_search",
        {"searchId": "search-9"},
        'unknown searchId "search-9": search again with pdf_keyword_search',
    ),
    ("pdf_keyword_search", {**DOC, "query": "\ud800"}, 'argument "query" is not valid text'),
]


@pytest.mark.parametrize(("tool", "arguments", "message"), BAD_CALLS)
def test_bad_calls_get_one_line_and_the_session_goes_on(
    tmp_path: Path, store: DocStore, tool: str, arguments: Any, message: str
) -> None:
    make_pdf(tmp_path / "a.pdf", ["first page"])
    connection = connect(tmp_path, store)
    text_of(connection, "pdf_open", {"path": "a.pdf"})
    answer = connection.call(tool, arguments)
    assert (answer.is_error, said(answer)) == (True, message)
    text_of(connection, "pdf_page_read", {"documentId": "doc-1", "page": 1})


def test_a_script_prints_the_lines_of_its_calls(tmp_path: Path, store: DocStore) -> None:
    worked_doc(tmp_path)
    connection = connect(tmp_path, store)
    script = [
        call_line("pdf_open", {"path": "worked.json"}),
        "",
        "not json",
        '{"tool": 5}',
        call_line("pdf_keyword_search", {"documentId": "doc-1", "query": "beta"}),
        call_line("pdf_close", {"documentId": "doc-9"}),
    ]
    lines = list(run_script(script, connection.call))
    assert lines[1:3] == ["error: line 3: not a call", "error: line 4: not a call"]
    assert json.loads(lines[3])["total"] == 2
    assert lines[4] == 'error: unknown documentId "doc-9"'
    assert len(lines) == 5


def test_warn_hidden_adds_a_warning_per_page_with_hidden_text(tmp_path: Path) -> None:
    make_hidden_pdf(tmp_path / "h.pdf")
    make_pdf(tmp_path / "blank.pdf", ["Some text", ""])
    store = DocStore(StoreLimits(workers=1, inspect_hidden=True))
    try:
        host = ToolHost(
            Roots([tmp_path]), ServedOptions(warn_hidden=True), store=store, families={"evidence"}
        )
        driver = Driver(host)
        text_of(driver, "pdf_open", {"path": "h.pdf"})
        read = json.loads(
            text_of(driver, "pdf_page_read", {"documentId": "doc-1", "page": 8, "lastPage": 10})
        )
        # page 8 hides text under a rectangle; page 9's OCR layer and page 10 raise no alarm
        assert HIDDEN[8][0][0] == "covered" and HIDDEN[9][0][0] == "ocr_layer" and 10 not in HIDDEN
        assert read["warnings"] == [{"page": 8, "kind": "hidden_text", "spans": 1}]
        text_of(driver, "pdf_open", {"path": "blank.pdf"})
        blank = json.loads(
            text_of(driver, "pdf_page_read", {"documentId": "doc-2", "page": 1, "lastPage": 2})
        )
        assert blank["warnings"] == [{"page": 2, "kind": "no_text"}]
    finally:
        store.shutdown()


def test_ocr_recognize_reads_the_server_s_ocr_language(
    tmp_path: Path, store: DocStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_pdf(tmp_path / "a.pdf", ["Hallo"])
    languages: list[str] = []

    def recognize(png: bytes, language: str) -> tuple[str, str]:
        languages.append(language)
        return "Hallo\n", "tesseract 9.9.9"

    monkeypatch.setattr(store.ocr, "recognize", recognize)
    host = ToolHost(
        Roots([tmp_path]), ServedOptions(ocr_language="deu+eng"), store=store, families={"evidence"}
    )
    assert not host.call({"path": "a.pdf"}, "pdf_open").is_error
    assert not host.call({"documentId": "doc-1", "page": 1}, "pdf_page_render").is_error
    answer = host.call({"imageHandle": "img-1"}, "ocr_recognize")
    assert not answer.is_error, answer.message
    assert languages == ["deu+eng"]


def test_pdf_info_refuses_what_read_pdf_refuses_in_its_words(
    tmp_path: Path, store: DocStore
) -> None:
    """EVIDENCE.md: read_pdf's file errors, with the same words. pdf_info said 'cannot
    open the PDF: ...', and described a Word file as a one-page 'Office document'."""
    from support.docx_build import p, write_docx

    (tmp_path / "text.pdf").write_bytes(b"just some text, no PDF")
    (tmp_path / "empty.pdf").write_bytes(b"")
    write_docx(tmp_path / "doc.docx", p("a Word paragraph"))
    worked_doc(tmp_path)
    host = ToolHost(
        Roots([tmp_path]),
        ServedOptions(out_cap=100_000),
        store=store,
        families={"read", "evidence"},
    )
    driver = Driver(host)
    for name in ("text.pdf", "empty.pdf", "doc.docx"):
        read = host.call({"path": name}, "read_pdf", Session())
        info = driver.call("pdf_info", {"path": name})
        assert read.is_error and info.is_error and info.message == read.message, name
    json_info = driver.call("pdf_info", {"path": "worked.json"})
    assert json_info.message == (
        f"{tmp_path / 'worked.json'}: a Doc JSON (siftui extract), not a PDF: pdf_open "
        "reads its text, but it has no PDF metadata or pages to draw"
    )


def test_a_doc_json_document_says_it_has_no_page_images(tmp_path: Path, store: DocStore) -> None:
    worked_doc(tmp_path)
    connection = connect(tmp_path, store)
    text_of(connection, "pdf_open", {"path": "worked.json"})
    status = json.loads(text_of(connection, "pdf_status", {"documentId": "doc-1"}))
    none = "no page images: it was opened from a Doc JSON (siftui extract), not a PDF"
    assert status["capabilities"]["pageRender"] == {
        "supported": True,
        "available": False,
        "reason": none,
    }
    assert status["capabilities"]["ocr"]["available"] is False
    drawn = connection.call("pdf_page_render", {"documentId": "doc-1", "page": 1})
    assert drawn.is_error and drawn.message == f"doc-1 has {none}"
    assert not connection.call("pdf_page_read", {"documentId": "doc-1", "page": 1}).is_error
