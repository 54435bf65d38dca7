"""E7 pdf_keyword_search: rules, messages, continuations; hits against brute force."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.evidence_session import open_session, splits_pair, unit_slice, units, wire

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.normalize import normalize, normalized_char
from siftui.core.evidence.session import EvidenceSession
from siftui.core.evidence.wire import dumps

PAGES = ("a x a x a\n", "nothing", "x\U0001f600x a", "A-\n  b \u00adc")


def search(session: EvidenceSession, **arguments: object) -> Any:
    return wire(session.call("pdf_keyword_search", arguments))


def test_continuations_return_every_match_once_then_refuse() -> None:
    session = open_session(PAGES)
    first = wire(
        session.call("pdf_keyword_search", {"documentId": "doc-1", "query": "a", "maxResults": 2})
    )
    assert (first["searchId"], first["total"], first["hasMore"]) == ("search-1", 4, True)
    assert [(h["page"], h["start"]) for h in first["hits"]] == [(1, 0), (1, 4)]
    second = wire(session.call("pdf_keyword_search", {"searchId": "search-1"}))
    assert [(h["page"], h["start"], h["end"]) for h in second["hits"]] == [(1, 8, 9), (3, 5, 6)]
    assert second["hasMore"] is False
    assert [h["refId"] for h in second["hits"]] == ["ref-3", "ref-4"]
    with pytest.raises(EvidenceError, match=r"^search-1 has no more results$"):
        session.call("pdf_keyword_search", {"searchId": "search-1"})


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"searchId": "search-1", "query": "a"}, "a continuation takes {searchId} alone"),
        (
            {"searchId": "search-7"},
            'unknown searchId "search-7": search again with pdf_keyword_search',
        ),
        (
            {"documentId": "doc-1", "query": "a", "match": "fuzzy"},
            'argument "match" must be "exact" or "normalized"',
        ),
        (
            {"documentId": "doc-1", "query": "\u00ad", "match": "normalized"},
            "the query is empty once normalized",
        ),
        ({"documentId": "doc-1", "query": "a", "pages": "2-1"}, "pages out of range (1-4)"),
        ({"documentId": "doc-1", "query": "a", "pages": "0"}, "pages out of range (1-4)"),
        ({"documentId": "doc-1", "query": "a", "pages": "5-"}, "pages out of range (1-4)"),
        (
            {"documentId": "doc-1", "query": "a", "pages": "1,2"},
            'invalid pages "1,2": use "a-b", "a" or "a-"',
        ),
        ({"documentId": "doc-2", "query": "a"}, 'unknown documentId "doc-2"'),
        ({"query": "a"}, 'missing argument "documentId"'),
    ],
)
def test_refusals_issue_nothing(arguments: dict[str, object], message: str) -> None:
    session = open_session(PAGES)
    with pytest.raises(EvidenceError) as raised:
        session.call("pdf_keyword_search", arguments)
    assert raised.value.message == message
    assert session.counters.peek("search") == "search-1"
    assert session.counters.peek("ref") == "ref-1"


def test_pages_range_and_clamp() -> None:
    session = open_session(PAGES)
    result = search(session, documentId="doc-1", query="a", pages=" 3-99 ")
    assert [h["page"] for h in result["hits"]] == [3]
    assert search(session, documentId="doc-1", query="a", pages="1")["total"] == 3


def test_normalized_hit_maps_back_over_hyphen_and_soft_hyphen() -> None:
    session = open_session(PAGES)
    result = search(session, documentId="doc-1", query="AB C", match="normalized")
    hit = result["hits"][0]
    assert (hit["page"], hit["text"]) == (4, "A-\n  b \u00adc")


def test_before_and_after_hold_sixty_units_and_never_split_a_pair() -> None:
    page = "\U0001f600" * 40 + "needle" + "\U0001f600" * 40
    hit = search(open_session((page,)), documentId="doc-1", query="needle")["hits"][0]
    assert hit["before"] == "\U0001f600" * 30 and hit["after"] == "\U0001f600" * 30
    odd = "x" + "\U0001f600" * 40 + "needle" + "\U0001f600" * 40
    hit = search(open_session((odd,)), documentId="doc-1", query="needle")["hits"][0]
    assert units(hit["before"]) == 60 and units(hit["after"]) == 60


def test_normalization_rules() -> None:
    assert normalize("Ａ\u00adB  \t\nc") == "ab c"
    assert normalize("co-  \n  operate") == "cooperate"
    assert normalize("co-\n\nx") == "co x"
    assert normalize("ﬁ") == "fi"
    assert normalized_char("\u00a0") == " "


def brute_force(pages: list[str], query: str) -> list[tuple[int, int, int]]:
    found = []
    for number, page in enumerate(pages, start=1):
        data = page.encode("utf-16-le", "surrogatepass")
        pattern = query.encode("utf-16-le", "surrogatepass")
        at = 0
        while True:
            at = data.find(pattern, at)
            if at < 0:
                break
            if at % 2 == 0:
                start, end = at // 2, (at + len(pattern)) // 2
                if not splits_pair(page, start) and not splits_pair(page, end):
                    found.append((number, start, end))
                    at += len(pattern)
                    continue
            at += 1
    return found


alphabet = st.sampled_from("aab -\n\u00ad\U0001f600Aﬁ")
pages_strategy = st.lists(st.text(alphabet, max_size=30), min_size=1, max_size=5)


def follow(session: EvidenceSession, first: Any) -> list[Any]:
    hits = list(first["hits"])
    result = first
    while result["hasMore"]:
        result = search(session, searchId=first["searchId"])
        assert result["total"] == first["total"]
        hits += result["hits"]
    return hits


@given(pages_strategy, st.text(alphabet, min_size=1, max_size=3), st.integers(1, 4))
@settings(max_examples=150, deadline=None)
def test_exact_hits_are_the_brute_force_matches(
    pages: list[str], query: str, max_results: int
) -> None:
    session = open_session(pages)
    first = search(session, documentId="doc-1", query=query, maxResults=max_results)
    hits = follow(session, first)
    assert [(h["page"], h["start"], h["end"]) for h in hits] == brute_force(pages, query)
    assert first["total"] == len(hits)
    for hit in hits:
        page = pages[hit["page"] - 1]
        assert hit["text"] == unit_slice(page, hit["start"], hit["end"])


@given(pages_strategy, st.text(alphabet, min_size=1, max_size=3), st.integers(1, 4))
@settings(max_examples=150, deadline=None)
def test_normalized_hits_cover_the_query(pages: list[str], query: str, max_results: int) -> None:
    folded = normalize(query)
    if not folded:
        return
    session = open_session(pages)
    first = search(
        session, documentId="doc-1", query=query, match="normalized", maxResults=max_results
    )
    hits = follow(session, first)
    assert first["total"] == len(hits)
    expected = sum(len(_non_overlapping(normalize(page), folded)) for page in pages)
    assert len(hits) == expected
    for hit in hits:
        page = pages[hit["page"] - 1]
        text = unit_slice(page, hit["start"], hit["end"])
        assert hit["text"] == text
        assert folded in normalize(text)


def _non_overlapping(text: str, query: str) -> list[int]:
    found, at = [], text.find(query)
    while at >= 0:
        found.append(at)
        at = text.find(query, at + len(query))
    return found


@given(
    pages_strategy,
    st.text(alphabet, min_size=1, max_size=3),
    st.integers(0, 6),
    st.sampled_from([None, "1", "2-3", "1-"]),
)
@settings(max_examples=150, deadline=None)
def test_a_search_gives_the_same_bytes_whether_prepared_or_not(
    pages: list[str], query: str, stop_after: int, ranged: str | None
) -> None:
    """Normalized texts built ahead (wholly, or stopped part way) change nothing."""
    if not normalize(query):
        return
    plain, prepared = open_session(pages), open_session(pages)
    asked = iter(range(10**6))
    document = prepared.documents.get("doc-1")
    assert document is not None
    finished = document.searcher.prepare_normalized(stop=lambda: next(asked) >= stop_after)
    assert finished == (stop_after >= len(pages))
    arguments: dict[str, object] = {"documentId": "doc-1", "query": query, "maxResults": 2}
    arguments["match"] = "normalized"
    if ranged is not None and int(ranged[0]) <= len(pages):
        arguments["pages"] = ranged
    for session in (plain, prepared):
        session.call("pdf_keyword_search", arguments)
        session.call("pdf_keyword_search", {**arguments, "match": "exact"})
    first = [dumps(session.call("pdf_keyword_search", arguments)) for session in (plain, prepared)]
    assert first[0] == first[1]
    while '"hasMore":true' in first[0]:
        first = [
            dumps(session.call("pdf_keyword_search", {"searchId": "search-3"}))
            for session in (plain, prepared)
        ]
        assert first[0] == first[1]


def _every_match(pages: list[str], query: str) -> list[tuple[int, int, int]]:
    """Leftmost non-overlapping matches, page by page: the naive reference."""
    found = []
    for number, text in enumerate(pages, start=1):
        at = text.find(query)
        while at >= 0:
            found.append((number, at, at + len(query)))
            at = text.find(query, at + len(query))
    return found


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text("ab \n", max_size=40), min_size=1, max_size=6),
    st.text("ab", min_size=1, max_size=3),
    st.integers(1, 4),
)
def test_continuations_give_every_match_once_in_order(
    pages: list[str], query: str, most: int
) -> None:
    """A search keeps where to resume, not its matches: following it returns each of
    the total's matches once, in order, as a full list of them would."""
    session = open_session(pages)
    result = wire(session.pdf_keyword_search(document_id="doc-1", query=query, max_results=most))
    expected = _every_match(pages, query)
    assert result["total"] == len(expected)
    seen = [(hit["page"], hit["start"], hit["end"]) for hit in result["hits"]]
    while result["hasMore"]:
        result = wire(session.pdf_keyword_search(search_id=result["searchId"]))
        seen += [(hit["page"], hit["start"], hit["end"]) for hit in result["hits"]]
    assert seen == expected


def test_a_search_of_millions_of_matches_holds_no_list_of_them() -> None:
    """A crafted page of 2,000,000 matches: the session keeps counts and a position
    (it kept every match: 650 MB for 5,000,000)."""
    session = open_session(("a" * 2_000_000,))
    result = wire(session.pdf_keyword_search(document_id="doc-1", query="a", max_results=1))
    assert result["total"] == 2_000_000 and len(result["hits"]) == 1
    search = session.searches.get(result["searchId"])
    assert search is not None
    held = [getattr(search, name) for name in search.__dataclass_fields__]
    assert not any(isinstance(value, list | tuple) and len(value) > 2 for value in held)
    again = wire(session.pdf_keyword_search(search_id=result["searchId"]))
    assert [(hit["start"], hit["end"]) for hit in again["hits"]] == [(1, 2)]
