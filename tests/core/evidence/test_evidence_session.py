"""Sessions: E2-E5, staleness, bounds, E8's handle, E9's text part, E11, purity."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support.evidence_session import open_session, wire

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import DocumentRead, Image, RenderedPage
from siftui.core.evidence.schemas import SCHEMAS
from siftui.core.evidence.session import EvidenceSession
from siftui.core.evidence.store import Limits
from siftui.core.evidence.tools_documents import Capability, fit_dpi


def open_other(session: EvidenceSession, version: str = "v-other", path: str = "b.pdf") -> Any:
    return wire(
        session.pdf_open(
            path=path,
            read=DocumentRead(
                real_path="/roots/" + path,
                content_version=version,
                title="B",
                page_count=2,
                pages=("b1", "b2"),
            ),
        )
    )


def test_open_again_is_the_same_document_and_current_lists_in_order() -> None:
    session = open_session()
    assert open_other(session)["documentId"] == "doc-2"
    again = wire(
        session.pdf_open(
            path="./doc.pdf",
            read=DocumentRead(
                real_path="/roots/doc.pdf",
                content_version="v-0123456789ab",
                title="A title",
                page_count=3,
                pages=(),
            ),
        )
    )
    assert again == {
        "documentId": "doc-1",
        "contentVersion": "v-0123456789ab",
        "pages": 3,
        "title": "A title",
        "reopened": True,
    }
    current = wire(session.pdf_current())
    assert [(d["documentId"], d["path"]) for d in current["documents"]] == [
        ("doc-1", "doc.pdf"),
        ("doc-2", "b.pdf"),
    ]
    assert open_other(session, version="v-new")["documentId"] == "doc-3"


def test_close_forgets_the_documents_identities() -> None:
    session = open_session()
    session.pdf_page_read(document_id="doc-1", page=1)
    session.pdf_keyword_search(document_id="doc-1", query="a", max_results=1)
    assert wire(session.pdf_close(document_id="doc-1")) == {"documentId": "doc-1", "closed": True}
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: session.pdf_page_read(document_id="doc-1", page=1), 'unknown documentId "doc-1"'),
        (
            lambda: session.pdf_keyword_search(search_id="search-1"),
            'unknown searchId "search-1": search again with pdf_keyword_search',
        ),
        (lambda: session.pdf_close(document_id="doc-1"), 'unknown documentId "doc-1"'),
    ]
    for call, message in calls:
        with pytest.raises(EvidenceError) as raised:
            call()
        assert raised.value.message == message
    assert len(session.refs) == 0
    assert open_other(session)["documentId"] == "doc-2"  # counters only grow


def test_stale_documents_refuse_but_status_and_close_answer() -> None:
    session = open_session()
    session.mark_stale("doc-1")
    with pytest.raises(EvidenceError) as raised:
        session.pdf_page_read(document_id="doc-1", page=1)
    assert raised.value.message == (
        "doc-1 is stale: doc.pdf changed since it was opened; open it again"
    )
    capabilities = {
        name: Capability(True, True)
        for name in ("pageRead", "keywordSearch", "evidenceRead", "bookmarkList", "pageRender")
    }
    capabilities["ocr"] = Capability(True, False, "Tesseract is not installed")
    status = wire(
        session.pdf_status(document_id="doc-1", source_changed=True, capabilities=capabilities)
    )
    assert list(status) == [
        "documentId",
        "contentVersion",
        "sourceChanged",
        "stale",
        "pages",
        "capabilities",
    ]
    assert status["stale"] is True
    # Every call of a stale document answers as stale: nothing of it is available.
    assert status["capabilities"]["pageRead"] == {
        "supported": True,
        "available": False,
        "reason": "doc.pdf changed since it was opened; open it again",
    }
    assert status["capabilities"]["ocr"] == {
        "supported": True,
        "available": False,
        "reason": "Tesseract is not installed",
    }
    back = wire(  # the bytes are back: not changed now, still stale (E5)
        session.pdf_status(document_id="doc-1", source_changed=False, capabilities=capabilities)
    )
    assert (back["sourceChanged"], back["stale"]) == (False, True)
    current = wire(session.pdf_current())["documents"]
    assert [(d["documentId"], d["stale"]) for d in current] == [("doc-1", True)]
    assert list(current[0])[-1] == "stale"
    assert status["capabilities"]["semanticSearch"] == {
        "supported": False,
        "available": False,
        "reason": "no embedding engine is configured",
    }
    assert wire(session.pdf_close(document_id="doc-1"))["closed"] is True


def test_past_a_bound_the_oldest_are_forgotten() -> None:
    session = open_session(("a a a a",), limits=Limits(refs=2, searches=1))
    session.pdf_keyword_search(document_id="doc-1", query="a", max_results=1)
    session.pdf_keyword_search(document_id="doc-1", query="a", max_results=3)
    with pytest.raises(EvidenceError, match="unknown searchId"):
        session.pdf_keyword_search(search_id="search-1")
    assert list(session.refs) == ["ref-3", "ref-4"]
    with pytest.raises(EvidenceError, match="unknown refId"):
        session.pdf_evidence_read(document_id="doc-1", ref_id="ref-1")


def test_outcap_failure_issues_no_identity() -> None:
    session = open_session()
    session.out_cap = 40
    with pytest.raises(EvidenceError) as raised:
        open_other(session)
    assert raised.value.message == "OutCap 40 is too small for this result"
    assert session.counters.peek("doc") == "doc-2"


def image_session(text: str, engine: str = "tesseract 5.3.0") -> tuple[EvidenceSession, list[int]]:
    session = open_session()
    handle = wire(
        session.pdf_page_render(
            document_id="doc-1", page=2, image=RenderedPage(b"", 10, 20, 96, False)
        )
    )
    assert handle == {
        "imageHandle": "img-1",
        "documentId": "doc-1",
        "page": 2,
        "dpi": 96,
        "width": 10,
        "height": 20,
    }
    runs: list[int] = []

    def recognize(image: Image) -> tuple[str, str]:
        runs.append(image.page)
        return text, engine

    session.ocr_recognize(image_handle="img-1", max_chars=3, recognize=recognize)
    return session, runs


def test_ocr_text_is_kept_and_read_in_pieces() -> None:
    session, runs = image_session("ab\U0001f600cd")
    result = wire(session.ocr_recognize(result_id="ocr-1", offset=2))
    assert list(result) == [
        "resultId",
        "imageHandle",
        "documentId",
        "page",
        "engine",
        "derived",
        "offset",
        "nextOffset",
        "text",
        "refId",
    ]
    assert (result["offset"], result["text"], result["nextOffset"]) == (2, "\U0001f600c", 5)
    last = wire(session.ocr_recognize(result_id="ocr-1", offset=5))
    assert (last["text"], last["nextOffset"], last["refId"]) == ("d", None, "ref-3")
    second = wire(session.ocr_recognize(image_handle="img-1", recognize=lambda image: ("x", "y")))
    assert (second["resultId"], second["text"], second["engine"]) == (
        "ocr-2",
        "ab\U0001f600cd",
        "tesseract 5.3.0",
    )
    assert runs == [2]
    evidence = wire(
        session.pdf_evidence_read(document_id="doc-1", ref_id="ref-2", quote="\U0001f600")
    )
    assert (evidence["source"], evidence["pages"][0]["text"]) == ("ocr", "\U0001f600")


def test_ocr_refusals_and_empty_text() -> None:
    session, _ = image_session("")
    empty = wire(session.ocr_recognize(image_handle="img-1"))
    assert (empty["text"], empty["refId"], empty["nextOffset"]) == ("", None, None)
    for arguments, message in [
        (
            {"result_id": "ocr-1", "max_chars": 3, "offset": 0},
            "a continuation takes {resultId, offset} alone",
        ),
        ({"result_id": "ocr-9", "offset": 0}, 'unknown resultId "ocr-9"'),
        ({"image_handle": "img-9"}, 'unknown imageHandle "img-9"'),
        ({"result_id": "ocr-1", "offset": 1}, "offset out of range (0-0)"),
    ]:
        with pytest.raises(EvidenceError) as raised:
            session.ocr_recognize(**arguments)  # type: ignore[arg-type]
        assert raised.value.message == message
    fresh = open_session()
    fresh.pdf_page_render(document_id="doc-1", page=1, image=RenderedPage(b"", 1, 1, 96, False))
    with pytest.raises(EvidenceError) as raised:
        fresh.ocr_recognize(image_handle="img-1")
    assert raised.value.message == "OCR is not available: Tesseract is not installed"


def test_fit_dpi_lowers_to_the_largest_whole_dpi_that_fits() -> None:
    def pixels(dpi: int) -> tuple[int, int]:
        return dpi * 10, dpi * 15

    assert fit_dpi(96, pixels) == (96, False)
    assert fit_dpi(300, pixels) == (163, True)


OUTLINE = ((1, " Intro \n x", 1), (2, "Sub", 0), (1, "End", 3))


def test_bookmarks_page_with_cursors_that_keep_the_limit() -> None:
    session = open_session(outline=OUTLINE)
    first = wire(session.pdf_bookmark_list(document_id="doc-1", limit=2))
    assert first == {
        "documentId": "doc-1",
        "total": 3,
        "items": [
            {"outlineId": "ol-1", "level": 1, "title": "Intro x", "page": 1},
            {"outlineId": "ol-2", "level": 2, "title": "Sub", "page": None},
        ],
        "nextCursor": "cur-1",
    }
    rest = wire(session.pdf_bookmark_list(document_id="doc-1", cursor="cur-1"))
    assert [item["outlineId"] for item in rest["items"]] == ["ol-3"]
    assert rest["nextCursor"] is None
    for arguments, message in [
        (
            {"cursor": "cur-1", "limit": 1},
            "a continuation takes {documentId, cursor} alone (the cursor keeps the limit)",
        ),
        ({"cursor": "cur-7"}, 'unknown cursor "cur-7": list again'),
    ]:
        with pytest.raises(EvidenceError) as raised:
            session.pdf_bookmark_list(document_id="doc-1", **arguments)  # type: ignore[arg-type]
        assert raised.value.message == message
    open_other(session)
    with pytest.raises(EvidenceError, match="unknown cursor"):
        session.pdf_bookmark_list(document_id="doc-2", cursor="cur-1")


def test_schemas_are_strict_objects() -> None:
    assert len(SCHEMAS) == 11
    for schema in SCHEMAS.values():
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert set(schema["required"]) <= set(schema["properties"])
    assert SCHEMAS["pdf_page_read"]["properties"]["maxChars"]["maximum"] == 20000
