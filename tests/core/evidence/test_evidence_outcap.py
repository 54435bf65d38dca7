"""The OutCap rule: every result fits, and a cut result still continues correctly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.evidence_session import open_session, wire

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.page_read import read_pages
from siftui.core.evidence.session import EvidenceSession
from siftui.core.evidence.tools_read import _reading_result
from siftui.core.evidence.utf16 import Utf16Text
from siftui.core.evidence.wire import dumps

PAGES = ("Alpha beta\n" * 30, "gamma \U0001f600 delta\n" * 20, "beta-\nend\n" * 10)
OUTLINE = tuple((1, f"Chapter {i}", i) for i in range(1, 40))


@given(st.integers(1, 2500))
@settings(max_examples=60, deadline=None)
def test_page_reads_fit_and_following_next_reads_everything(out_cap: int) -> None:
    session = open_session(PAGES, out_cap=100_000)
    session.out_cap = out_cap
    position = {"page": 1, "offset": 0}
    read = ""
    while True:
        try:
            result = session.pdf_page_read(
                document_id="doc-1", page=position["page"], last_page=3, offset=position["offset"]
            )
        except EvidenceError as error:
            assert error.message == f"OutCap {out_cap} is too small for this result"
            return
        assert len(dumps(result)) <= out_cap
        answer = wire(result)
        read += "".join(piece["text"] for piece in answer["pages"])
        if answer["next"] is None:
            break
        position = answer["next"]
    assert read == "".join(PAGES)


@given(st.integers(1, 3000))
@settings(max_examples=60, deadline=None)
def test_search_and_bookmarks_fit_and_continue(out_cap: int) -> None:
    session = open_session(PAGES, outline=OUTLINE)
    session.out_cap = out_cap
    try:
        follow_search_and_bookmarks(session)
    except EvidenceError as error:  # an item that cannot fit alone
        assert error.message == f"OutCap {out_cap} is too small for this result"


def follow_search_and_bookmarks(session: EvidenceSession) -> None:
    first = session.pdf_keyword_search(document_id="doc-1", query="beta", max_results=100)
    assert len(dumps(first)) <= session.out_cap
    answer = wire(first)
    seen = list(answer["hits"])
    while answer["hasMore"]:
        result = session.pdf_keyword_search(search_id="search-1")
        assert len(dumps(result)) <= session.out_cap
        answer = wire(result)
        seen += answer["hits"]
    assert len(seen) == answer["total"] == 40
    assert len({(hit["page"], hit["start"]) for hit in seen}) == 40
    listing = wire(session.pdf_bookmark_list(document_id="doc-1"))
    items = list(listing["items"])
    while listing["nextCursor"] is not None:
        result = session.pdf_bookmark_list(document_id="doc-1", cursor=listing["nextCursor"])
        assert len(dumps(result)) <= session.out_cap
        listing = wire(result)
        items += listing["items"]
    assert [item["outlineId"] for item in items] == [f"ol-{i}" for i in range(1, 40)]


def test_results_without_a_continuation_fit_whole_or_fail() -> None:
    session = open_session(PAGES)
    session.pdf_page_read(document_id="doc-1", page=1)
    session.out_cap = 100
    with pytest.raises(EvidenceError, match=r"^OutCap 100 is too small for this result$"):
        session.pdf_evidence_read(document_id="doc-1", ref_id="ref-1")


# Every character json.dumps escapes, short ("\n", '"') and long ("\u0001"), beside
# pairs and lone surrogates (a page text may hold one; dumps writes it as it is).
ESCAPY = st.text(
    st.sampled_from('ab"\\\n\t\r\x00\x01\x1f\x7f\u2028\U0001f600\ud800é '), max_size=60
)


@given(ESCAPY, st.data())
@settings(max_examples=300, deadline=None)
def test_a_slice_json_length_is_what_dumps_writes(text: str, data: st.DataObject) -> None:
    page = Utf16Text(text)
    start = page.start_at(data.draw(st.integers(0, page.length)))
    end = page.end_at(data.draw(st.integers(start, page.length)))
    assert page.json_length(start, end) == len(dumps(page.slice(start, end))) - 2


@given(st.lists(ESCAPY, min_size=1, max_size=4), st.integers(1, 200), st.data())
@settings(max_examples=300, deadline=None)
def test_a_page_read_is_the_longest_that_fits(
    pages: list[str], max_chars: int, data: st.DataObject
) -> None:
    """Fitting measures a result without serializing it: it must fit, and one more
    unit must not (or that read would have been the answer)."""

    def read(budget: int, cap: int) -> dict[str, object]:
        return open_session(pages, out_cap=cap).pdf_page_read(
            document_id="doc-1", page=1, last_page=len(pages), max_chars=budget
        )

    out_cap = data.draw(st.integers(1, len(dumps(read(max_chars, 10**6)))))
    try:
        result = read(max_chars, out_cap)
    except EvidenceError as error:
        assert error.message == f"OutCap {out_cap} is too small for this result"
        assert len(dumps(read(1, 10**6))) > out_cap
        return
    assert len(dumps(result)) <= out_cap
    got = wire(result)["units"]
    for more in (1, 2):  # two: one more unit may end inside a pair and read nothing more
        if got + more <= max_chars:
            bigger = read(got + more, 10**6)
            if wire(bigger)["units"] > got:
                assert len(dumps(bigger)) > out_cap
                break


@given(
    st.lists(st.one_of(ESCAPY, st.just(""), st.just(" \n")), min_size=1, max_size=10),
    st.integers(1, 400),
    st.integers(0, 10**6),
)
@settings(max_examples=300, deadline=None)
def test_a_page_read_measures_its_text_exactly(
    pages: list[str], max_chars: int, refs_before: int
) -> None:
    """The length fitting uses is dumps' length: numbers of any width, refIds and
    nulls, warnings, texts full of escapes."""
    session = open_session(pages)
    session.counters._issued["ref"] = refs_before  # refIds of many digits
    document = session.documents.get("doc-1")
    assert document is not None
    reading = read_pages(document.texts, 1, len(pages), 0, max_chars)
    hidden = {1: 3} if len(pages) > 1 else None
    result, length = _reading_result(session, document, reading, hidden)
    assert length == len(dumps(result))
