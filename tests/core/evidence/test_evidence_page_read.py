"""E6 pdf_page_read: its rules and messages, and following ``next`` (properties)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.evidence_session import open_session, splits_pair, unit_slice, units, wire

from siftui.core.evidence.errors import EvidenceError

PAGES = ("one\n", "", "two \U0001f600\n", "   \n", "three")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"page": 0}, "page out of range (1-5)"),
        ({"page": 6}, "page out of range (1-5)"),
        ({"page": 2, "lastPage": 1}, "lastPage must be 2-11"),
        ({"page": 2, "lastPage": 12}, "lastPage must be 2-11"),
        ({"page": 1, "offset": 5}, "offset out of range (0-4)"),
        ({"page": 2, "offset": 1}, "offset out of range (0-0)"),
        ({"page": 1, "offset": -1}, "offset out of range (0-4)"),
    ],
)
def test_refusals(arguments: dict[str, int], message: str) -> None:
    session = open_session(PAGES)
    with pytest.raises(EvidenceError, match=f"^{message.replace('(', '.').replace(')', '.')}$"):
        session.pdf_page_read(
            document_id="doc-1",
            page=arguments["page"],
            last_page=arguments.get("lastPage"),
            offset=arguments.get("offset"),
        )


def test_unknown_document() -> None:
    with pytest.raises(EvidenceError, match=r'^unknown documentId "doc-9"$'):
        open_session(PAGES).pdf_page_read(document_id="doc-9", page=1)


def test_last_page_past_the_end_is_clamped_and_empty_pages_give_empty_pieces() -> None:
    result = wire(open_session(PAGES).pdf_page_read(document_id="doc-1", page=1, last_page=10))
    assert [(p["page"], p["start"], p["end"], p["refId"]) for p in result["pages"]] == [
        (1, 0, 4, "ref-1"),
        (2, 0, 0, None),
        (3, 0, 7, "ref-2"),
        (4, 0, 4, "ref-3"),
        (5, 0, 5, "ref-4"),
    ]
    assert result["next"] is None
    assert result["units"] == 20
    assert result["warnings"] == [{"page": 2, "kind": "no_text"}, {"page": 4, "kind": "no_text"}]


def test_defaults_read_one_page_and_no_warnings_key_when_none() -> None:
    result = wire(open_session(PAGES).pdf_page_read(document_id="doc-1", page=1))
    assert list(result) == ["documentId", "contentVersion", "pages", "next", "units"]
    assert result["next"] is None


def test_budget_ending_at_a_page_end_points_at_the_next_page() -> None:
    result = wire(
        open_session(PAGES).pdf_page_read(document_id="doc-1", page=1, last_page=3, max_chars=4)
    )
    assert result["next"] == {"page": 2, "offset": 0}
    assert len(result["pages"]) == 1


def test_a_piece_that_would_be_empty_takes_the_whole_pair() -> None:
    session = open_session(("\U0001f600x",))
    result = wire(session.pdf_page_read(document_id="doc-1", page=1, max_chars=1))
    assert result["pages"][0]["text"] == "\U0001f600"
    assert result["units"] == 2
    assert result["next"] == {"page": 1, "offset": 2}


def test_an_offset_inside_a_pair_begins_one_unit_later() -> None:
    session = open_session(("\U0001f600x",))
    result = wire(session.pdf_page_read(document_id="doc-1", page=1, offset=1))
    assert (result["pages"][0]["start"], result["pages"][0]["text"]) == (2, "x")


def test_hidden_text_warnings() -> None:
    session = open_session(PAGES)
    result = wire(
        session.pdf_page_read(document_id="doc-1", page=1, last_page=2, hidden_spans={1: 3, 2: 0})
    )
    assert result["warnings"] == [
        {"page": 1, "kind": "hidden_text", "spans": 3},
        {"page": 2, "kind": "no_text"},
    ]


page_texts = st.lists(
    st.one_of(
        st.just(""),
        st.text(st.sampled_from("ab \n\U0001f600\u00e9\U00010000"), max_size=40),
        st.text(max_size=30).filter(lambda t: not any("\ud800" <= c <= "\udfff" for c in t)),
    ),
    min_size=1,
    max_size=6,
)


@given(page_texts, st.integers(1, 25), st.data())
@settings(max_examples=150, deadline=None)
def test_following_next_reads_every_unit_once(
    pages: list[str], max_chars: int, data: st.DataObject
) -> None:
    session = open_session(pages)
    first = data.draw(st.integers(1, len(pages)))
    last = data.draw(st.integers(first, first + 9))
    offset = data.draw(st.integers(0, units(pages[first - 1])))
    while splits_pair(pages[first - 1], offset):
        offset -= 1
    expected = unit_slice(pages[first - 1], offset, units(pages[first - 1])) + "".join(
        pages[first : min(last, len(pages))]
    )
    position: dict[str, int] | None = {"page": first, "offset": offset}
    read = ""
    calls = 0
    while position is not None:
        calls += 1
        assert calls < 1000
        result = wire(
            session.pdf_page_read(
                document_id="doc-1",
                page=position["page"],
                last_page=last,
                offset=position["offset"],
                max_chars=max_chars,
            )
        )
        assert result["units"] <= max_chars + 1
        for piece in result["pages"]:
            text = pages[piece["page"] - 1]
            assert not splits_pair(text, piece["start"]) and not splits_pair(text, piece["end"])
            assert piece["text"] == unit_slice(text, piece["start"], piece["end"])
            assert (piece["refId"] is None) == (piece["start"] == piece["end"])
            read += piece["text"]
        assert result["units"] == sum(p["end"] - p["start"] for p in result["pages"])
        assert result["next"] != position
        position = result["next"]
    assert read == expected
