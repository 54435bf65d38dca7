"""siftui.core.unreadable: the pages that could not be read, their wording and JSON form."""

from __future__ import annotations

from siftui.core.doc import Doc
from siftui.core.unreadable import (
    Extraction,
    UnreadablePage,
    describe,
    from_records,
    page_ranges,
    to_records,
)


def test_page_ranges() -> None:
    assert page_ranges([]) == ""
    assert page_ranges([2]) == "2"
    assert page_ranges([5, 2, 3, 9, 3]) == "2-3, 5, 9"
    assert page_ranges(range(1, 100, 2), limit=3) == "1, 3, 5, … (50 pages in all)"


def test_describe_one_and_several() -> None:
    assert describe(()) == ""
    assert describe([UnreadablePage(2, "cycle in page tree")]) == (
        "page 2 is damaged; its text is left empty (cycle in page tree)"
    )
    same = [UnreadablePage(n, "cycle in page tree") for n in (2, 3, 5)]
    assert describe(same) == (
        "pages 2-3, 5 are damaged; their text is left empty (cycle in page tree)"
    )
    mixed = [UnreadablePage(4, "a"), UnreadablePage(7, "b"), UnreadablePage(8, "c")]
    assert describe(mixed) == (
        "pages 4, 7-8 are damaged; their text is left empty (page 4: a; 2 more reasons)"
    )
    assert describe(mixed[:2]).endswith("(page 4: a; 1 more reason)")


def test_records_round_trip_and_reject_what_is_not_one() -> None:
    pages = (UnreadablePage(1, "x"), UnreadablePage(3, "y"))
    assert to_records(pages) == [{"page": 1, "reason": "x"}, {"page": 3, "reason": "y"}]
    assert from_records(to_records(pages), 3) == pages
    assert from_records([], 0) == ()
    bads: list[object] = [
        None,
        {},
        [1],
        [{"page": 4, "reason": "past E"}],
        [{"page": 0, "reason": "x"}],
        [{"page": True, "reason": "x"}],
        [{"page": 1}],
        [{"page": 2, "reason": "b"}, {"page": 1, "reason": "a"}],
        [{"page": 1, "reason": "a"}, {"page": 1, "reason": "a"}],
    ]
    for bad in bads:
        assert from_records(bad, 3) is None, bad


def test_extraction_first_pages() -> None:
    doc = Doc("t", 4, ("a", "", "c", ""))
    # a list is kept as a tuple, as Doc does with its pages
    found = Extraction(doc, [UnreadablePage(2, "x"), UnreadablePage(4, "y")])  # type: ignore[arg-type]
    assert found.unreadable == (UnreadablePage(2, "x"), UnreadablePage(4, "y"))
    assert found.unreadable_pages == frozenset({2, 4})
    assert found.first_pages(10) is found
    three = found.first_pages(3)
    assert three.doc == Doc("t", 4, ("a", "", "c")) and three.unreadable_pages == {2}
    assert found.first_pages(0) == Extraction(Doc("t", 4, ()), ())
    assert hash(found) == hash(Extraction(doc, (UnreadablePage(2, "x"), UnreadablePage(4, "y"))))
