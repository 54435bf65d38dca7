"""E10 pdf_evidence_read: by reference, narrowed by a quote, and by a quoted range."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.evidence_session import open_session, unit_slice, wire

from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.records import DocumentRead
from siftui.core.evidence.session import EvidenceSession

PAGES = ("aXa aXa\n", "", "one \U0001f600 two\n", "x" * 5000, "y" * 5000, "z")


def read(session: EvidenceSession, **arguments: object) -> Any:
    return wire(session.call("pdf_evidence_read", {"documentId": "doc-1", **arguments}))


def ranged(start: tuple[int, str], end: tuple[int, str]) -> dict[str, object]:
    return {
        "start": {"page": start[0], "quote": start[1]},
        "end": {"page": end[0], "quote": end[1]},
    }


def test_by_reference_answers_under_the_same_ref_and_narrows_to_a_new_one() -> None:
    session = open_session(PAGES)
    session.pdf_page_read(document_id="doc-1", page=3)
    again = read(session, refId="ref-1")
    assert (again["refId"], again["source"], again["units"]) == ("ref-1", "native", 11)
    narrowed = read(session, refId="ref-1", quote="\U0001f600 t")
    assert narrowed["pages"] == [{"page": 3, "start": 4, "end": 8, "text": "\U0001f600 t"}]
    assert (narrowed["refId"], narrowed["narrowedFrom"]) == ("ref-2", "ref-1")
    assert list(narrowed)[-1] == "narrowedFrom"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"refId": "ref-1", "range": ranged((1, "a"), (1, "a"))}, "give refId or range, not both"),
        ({}, "give refId or range"),
        (
            {"range": ranged((1, "a"), (1, "a")), "quote": "a"},
            'argument "quote" goes with refId, not range',
        ),
        ({"refId": "ref-9"}, 'unknown refId "ref-9"'),
        ({"refId": "ref-1", "quote": "q"}, "quote not found in ref-1"),
        ({"refId": "ref-1", "quote": "aXa"}, "quote occurs 2 times in ref-1: quote more of it"),
        ({"refId": "ref-1", "quote": "a"}, "quote occurs 4 times in ref-1: quote more of it"),
        ({"range": ranged((0, "a"), (1, "a"))}, "page out of range (1-6)"),
        ({"range": ranged((1, "a"), (7, "a"))}, "page out of range (1-6)"),
        ({"range": ranged((3, "one"), (1, "a"))}, "end quote comes before the start quote"),
        ({"range": ranged((1, "q"), (3, "q"))}, "start quote not found on page 1"),
        (
            {"range": ranged((1, "aXa"), (3, "q"))},
            "start quote occurs 2 times on page 1: quote more of it",
        ),
        ({"range": ranged((1, "aXa "), (3, "q"))}, "end quote not found on page 3"),
        (
            {"range": ranged((1, "aXa "), (1, "aX"))},
            "end quote occurs 2 times on page 1: quote more of it",
        ),
        ({"range": ranged((3, "two"), (3, "one"))}, "end quote comes before the start quote"),
        (
            {"range": ranged((3, "two"), (5, "y"))},
            "end quote occurs 5000 times on page 5: quote more of it",
        ),
        (
            {"range": ranged((3, "two"), (6, "z"))},
            "range too large: 10005 UTF-16 units (at most 8000); narrow it",
        ),
    ],
)
def test_refusals_issue_nothing(arguments: dict[str, object], message: str) -> None:
    session = open_session(PAGES)
    session.pdf_page_read(document_id="doc-1", page=1)
    with pytest.raises(EvidenceError) as raised:
        read(session, **arguments)
    assert raised.value.message == message
    assert session.counters.peek("ref") == "ref-2"


def test_range_of_more_than_ten_pages_is_refused_before_the_quotes() -> None:
    session = open_session(("p",) * 12)
    with pytest.raises(EvidenceError) as raised:
        read(session, range=ranged((1, "missing"), (11, "missing")))
    assert raised.value.message == "range too large: 11 pages (at most 10)"


def test_ref_of_another_document() -> None:
    session = open_session(PAGES)
    session.pdf_open(
        path="b.pdf",
        read=DocumentRead(
            real_path="/b.pdf", content_version="v-b", title="", page_count=1, pages=("b",)
        ),
    )
    session.pdf_page_read(document_id="doc-2", page=1)
    with pytest.raises(EvidenceError) as raised:
        read(session, refId="ref-1")
    assert raised.value.message == "ref-1 belongs to doc-2, not doc-1"


def test_range_includes_middle_pages_whole_and_the_later_end_on_one_page() -> None:
    session = open_session(PAGES)
    result = read(session, range=ranged((1, "a "), (3, "one")))
    assert [(p["page"], p["start"], p["end"]) for p in result["pages"]] == [
        (1, 2, 8),
        (2, 0, 0),
        (3, 0, 3),
    ]
    same_page = read(session, range=ranged((1, "Xa aX"), (1, "a a")))
    assert same_page["pages"] == [{"page": 1, "start": 1, "end": 6, "text": "Xa aX"}]


@given(st.text(st.sampled_from("ab\U0001f600 "), min_size=1, max_size=30), st.data())
@settings(max_examples=150, deadline=None)
def test_a_narrowed_reference_is_the_quotes_exact_range(page: str, data: st.DataObject) -> None:
    session = open_session((page,))
    session.pdf_page_read(document_id="doc-1", page=1)
    start = data.draw(st.integers(0, len(page) - 1))
    end = data.draw(st.integers(start + 1, len(page)))
    quote = page[start:end]
    count = sum(page.startswith(quote, i) for i in range(len(page)))
    if count != 1:
        with pytest.raises(EvidenceError):
            read(session, refId="ref-1", quote=quote)
        return
    piece = read(session, refId="ref-1", quote=quote)["pages"][0]
    assert piece["text"] == quote == unit_slice(page, piece["start"], piece["end"])


HINTED = (
    "The scientiﬁc work of an inter-\nnational team\n",
    "Twice: Café and CAFÉ, and the same ﬁ ﬁ\n",
)


@pytest.mark.parametrize(
    ("page", "quote", "message"),
    [
        (
            1,
            "scientific work",
            "quote not found in ref-1 (its normalized form occurs once: the text has "
            '"scientiﬁc work")',
        ),
        (
            1,
            "international TEAM",
            "quote not found in ref-1 (its normalized form occurs once: the text has "
            '"inter-\\nnational team")',
        ),
        (2, "café", "quote not found in ref-1"),  # its normalized form occurs twice
        (2, "fi", "quote not found in ref-1"),
        (1, "teamwork", "quote not found in ref-1"),
        (1, "\u00ad", "quote not found in ref-1"),  # normalizes to nothing
    ],
)
def test_a_quote_that_misses_only_by_its_normalized_form_is_told_the_text(
    page: int, quote: str, message: str
) -> None:
    session = open_session(HINTED)
    session.pdf_page_read(document_id="doc-1", page=page)
    with pytest.raises(EvidenceError) as raised:
        read(session, refId="ref-1", quote=quote)
    assert raised.value.message == message
    assert session.counters.peek("ref") == "ref-2"  # still refused: nothing issued


def test_the_text_a_hint_names_is_bounded_as_every_echo() -> None:
    long = "ﬁ" + "x" * 300
    session = open_session((f"start {long} end\n",))
    session.pdf_page_read(document_id="doc-1", page=1)
    with pytest.raises(EvidenceError) as raised:
        read(session, refId="ref-1", quote="fi" + "x" * 300)
    shown = "ﬁ" + "x" * 199
    assert raised.value.message == (
        "quote not found in ref-1 (its normalized form occurs once: the text has "
        f'"{shown}… (301 characters)")'
    )
    # Quoting the text named finds it.
    assert read(session, refId="ref-1", quote=long)["pages"][0]["text"] == long
