"""The OutCap rule in bytes: with ``--unit bytes`` every evidence tool's result is at
most OutCap UTF-8 bytes of JSON text; lists and texts that continue give less and
continue to the end, the others fit whole or say the OutCap is too small.

The texts, paths, titles and OCR text are mostly not ASCII, so a budget counted in
code points would overrun every one of these byte budgets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.evidence_session import open_session, wire

from siftui.core.budget import BYTES, utf8_size
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.page_read import read_pages
from siftui.core.evidence.records import DocumentRead, Image, RenderedPage
from siftui.core.evidence.session import EvidenceSession
from siftui.core.evidence.tools_documents import CAPABILITY_NAMES, Capability
from siftui.core.evidence.tools_read import _reading_result
from siftui.core.evidence.utf16 import Utf16Text
from siftui.core.evidence.wire import dumps

PAGES = (
    "Déjà vu — naïve café, beta\n" * 12,
    "文字の検索 \U0001f600 beta ☃\n" * 10,
    "scientiﬁc beta-\nend ü\n" * 8,
)
OUTLINE = tuple((1 + i % 2, f"Chapitre {i} — été 文書", 1 + i % 3) for i in range(1, 30))
PATH = "dossier/résumé-文書.pdf"
OCR_TEXT = "Überschrift: 日本語のテキスト \U0001f600 und mehr.\n" * 6
ROOMY = 10**6
CAPS = st.integers(1, 2500)


def session_at(out_cap: int) -> EvidenceSession:
    """A session with the document open (doc-1), a page read (ref-1, ref-2), a page
    image (img-1) and its OCR text kept, then held to ``out_cap`` bytes."""
    session = open_session(PAGES, outline=OUTLINE, path=PATH, unit=BYTES, out_cap=ROOMY)
    session.pdf_page_read(document_id="doc-1", page=1, last_page=2)
    session.pdf_page_render(document_id="doc-1", page=2, image=RenderedPage(b"", 10, 20, 96, False))
    session.ocr_recognize(image_handle="img-1", max_chars=1, recognize=_recognize)
    session.out_cap = out_cap
    return session


def _recognize(image: Image) -> tuple[str, str]:
    return OCR_TEXT, "tesseract 5.3.0 (ü)"


def size(result: object) -> int:
    return utf8_size(dumps(result))


def too_small(out_cap: int) -> str:
    return f"OutCap {out_cap} is too small for this result"


CAPABILITIES = {
    name: Capability(True, name != "ocr", "Tesseract n'est pas installé")
    for name in CAPABILITY_NAMES
}

WHOLE: dict[str, Callable[[EvidenceSession], dict[str, object]]] = {
    "pdf_open": lambda s: s.pdf_open(
        path="autre/été.pdf",
        read=DocumentRead(
            real_path="/roots/autre/été.pdf",
            content_version="v-ffffffffffff",
            title="Un titre — 題名",
            page_count=1,
            pages=("ü",),
            outline=(),
        ),
    ),
    "pdf_open reopened": lambda s: s.pdf_open(
        path=PATH,
        read=DocumentRead(
            real_path="/roots/" + PATH,
            content_version="v-0123456789ab",
            title="A title",
            page_count=len(PAGES),
            pages=PAGES,
            outline=OUTLINE,
        ),
    ),
    "pdf_current": lambda s: s.pdf_current(),
    "pdf_status": lambda s: s.pdf_status(
        document_id="doc-1", source_changed=False, capabilities=CAPABILITIES
    ),
    "pdf_page_render": lambda s: s.pdf_page_render(
        document_id="doc-1", page=1, image=RenderedPage(b"", 10, 20, 96, False)
    ),
    "pdf_evidence_read ref": lambda s: s.pdf_evidence_read(document_id="doc-1", ref_id="ref-2"),
    "pdf_evidence_read quote": lambda s: s.pdf_evidence_read(
        document_id="doc-1", ref_id="ref-2", quote=PAGES[1]
    ),
    "pdf_evidence_read ocr": lambda s: s.pdf_evidence_read(
        document_id="doc-1", ref_id="ref-3", quote="Ü"
    ),
    "pdf_evidence_read range": lambda s: s.pdf_evidence_read(
        document_id="doc-1",
        range={"start": {"page": 1, "quote": PAGES[0]}, "end": {"page": 3, "quote": PAGES[2]}},
    ),
    "pdf_close": lambda s: s.pdf_close(document_id="doc-1"),
}


@pytest.mark.parametrize("tool", list(WHOLE))
@given(st.data())
@settings(max_examples=40, deadline=None)
def test_a_result_without_a_continuation_fits_whole_in_bytes_or_fails(
    tool: str, data: st.DataObject
) -> None:
    whole = WHOLE[tool](session_at(ROOMY))
    # Any cap, or one between the result's code points and its bytes (where a budget
    # counted in code points would let it through).
    near = st.integers(max(1, len(dumps(whole)) - 2), size(whole) + 2)
    out_cap = data.draw(st.one_of(CAPS, near), label="out_cap")
    try:
        result = WHOLE[tool](session_at(out_cap))
    except EvidenceError as error:
        assert error.message == too_small(out_cap)
        assert size(whole) > out_cap
        return
    assert size(result) <= out_cap
    assert result == whole


def _read_all(session: EvidenceSession, out_cap: int) -> str | None:
    """Every unit of pages 1-3 by following ``next``, each result within the cap (None
    when the first piece cannot fit)."""
    position: dict[str, Any] = {"page": 1, "offset": 0}
    read = ""
    while True:
        try:
            result = session.pdf_page_read(
                document_id="doc-1", page=position["page"], last_page=3, offset=position["offset"]
            )
        except EvidenceError as error:
            assert error.message == too_small(out_cap)
            return None
        assert size(result) <= out_cap
        answer = wire(result)
        read += "".join(piece["text"] for piece in answer["pages"])
        if answer["next"] is None:
            return read
        position = answer["next"]


@given(CAPS)
@settings(max_examples=80, deadline=None)
def test_page_reads_fit_in_bytes_and_following_next_reads_everything(out_cap: int) -> None:
    read = _read_all(session_at(out_cap), out_cap)
    if read is not None:
        assert read == "".join(PAGES)


@given(CAPS)
@settings(max_examples=80, deadline=None)
def test_searches_fit_in_bytes_and_continue_to_the_last_hit(out_cap: int) -> None:
    session = session_at(out_cap)
    try:
        first = session.pdf_keyword_search(document_id="doc-1", query="BETA", match="normalized")
    except EvidenceError as error:
        assert error.message == too_small(out_cap)
        return
    assert size(first) <= out_cap
    answer = wire(first)
    seen = list(answer["hits"])
    while answer["hasMore"]:
        try:
            result = session.pdf_keyword_search(search_id=answer["searchId"])
        except EvidenceError as error:  # a hit with its context that cannot fit alone
            assert error.message == too_small(out_cap)
            return
        assert size(result) <= out_cap
        answer = wire(result)
        seen += answer["hits"]
    assert len({(hit["page"], hit["start"]) for hit in seen}) == len(seen) == answer["total"] == 30


@given(CAPS)
@settings(max_examples=80, deadline=None)
def test_bookmark_lists_fit_in_bytes_and_continue_to_the_last_item(out_cap: int) -> None:
    session = session_at(out_cap)
    try:
        listing = session.pdf_bookmark_list(document_id="doc-1")
    except EvidenceError as error:
        assert error.message == too_small(out_cap)
        return
    assert size(listing) <= out_cap
    items = list(wire(listing)["items"])
    while listing["nextCursor"] is not None:
        try:
            listing = session.pdf_bookmark_list(document_id="doc-1", cursor=listing["nextCursor"])
        except EvidenceError as error:  # a longer title that cannot fit alone
            assert error.message == too_small(out_cap)
            return
        assert size(listing) <= out_cap
        items += wire(listing)["items"]
    assert [item["title"] for item in items] == [title for _, title, _ in OUTLINE]


@given(CAPS)
@settings(max_examples=80, deadline=None)
def test_ocr_text_fits_in_bytes_and_continues_to_its_end(out_cap: int) -> None:
    session = session_at(out_cap)
    try:
        result = session.ocr_recognize(image_handle="img-1", recognize=_recognize)
    except EvidenceError as error:
        assert error.message == too_small(out_cap)
        return
    text = ""
    while True:
        assert size(result) <= out_cap
        answer = wire(result)
        text += answer["text"]
        if answer["nextOffset"] is None:
            break
        try:
            result = session.ocr_recognize(
                result_id=answer["resultId"], offset=answer["nextOffset"]
            )
        except EvidenceError as error:  # the next character alone cannot fit
            assert error.message == too_small(out_cap)
            return
    assert text == OCR_TEXT


ESCAPY = st.text(st.sampled_from('ab"\\\n\t\x00\x1f\u2028\U0001f600\ud800é文 '), max_size=60)


@given(ESCAPY, st.data())
@settings(max_examples=300, deadline=None)
def test_a_slice_json_size_in_bytes_is_what_dumps_writes(text: str, data: st.DataObject) -> None:
    page = Utf16Text(text)
    start = page.start_at(data.draw(st.integers(0, page.length)))
    end = page.end_at(data.draw(st.integers(start, page.length)))
    assert page.json_length(start, end, BYTES) == size(page.slice(start, end)) - 2


@given(
    st.lists(st.one_of(ESCAPY, st.just(""), st.just(" \n")), min_size=1, max_size=10),
    st.integers(1, 400),
    st.integers(0, 10**6),
)
@settings(max_examples=300, deadline=None)
def test_a_page_read_measures_its_bytes_exactly(
    pages: list[str], max_chars: int, refs_before: int
) -> None:
    session = open_session(pages, unit=BYTES)
    session.counters._issued["ref"] = refs_before  # refIds of many digits
    document = session.documents.get("doc-1")
    assert document is not None
    reading = read_pages(document.texts, 1, len(pages), 0, max_chars)
    hidden = {1: 3} if len(pages) > 1 else None
    result, length = _reading_result(session, document, reading, hidden)
    assert length == size(result)


@given(st.lists(ESCAPY, min_size=1, max_size=4), st.integers(1, 200), st.data())
@settings(max_examples=300, deadline=None)
def test_a_page_read_is_the_longest_that_fits_in_bytes(
    pages: list[str], max_chars: int, data: st.DataObject
) -> None:
    def read(budget: int, cap: int) -> dict[str, object]:
        return open_session(pages, out_cap=cap, unit=BYTES).pdf_page_read(
            document_id="doc-1", page=1, last_page=len(pages), max_chars=budget
        )

    out_cap = data.draw(st.integers(1, size(read(max_chars, ROOMY))))
    try:
        result = read(max_chars, out_cap)
    except EvidenceError as error:
        assert error.message == too_small(out_cap)
        assert size(read(1, ROOMY)) > out_cap
        return
    assert size(result) <= out_cap
    got = wire(result)["units"]
    for more in (1, 2):  # two: one more unit may end inside a pair and read nothing more
        if got + more <= max_chars:
            bigger = read(got + more, ROOMY)
            if wire(bigger)["units"] > got:
                assert size(bigger) > out_cap
                break
