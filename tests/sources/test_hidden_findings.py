"""The pure side of hidden text: JSON, summaries, locating findings in page text."""

from __future__ import annotations

import pytest

from siftui.core.findings import (
    Finding,
    Inspection,
    counter_line,
    finding_from_json,
    finding_json,
    in_pages,
    inspection_json,
    locate,
    marks,
    pages_with,
    snippet,
    summary,
    warning_line,
)

A = Finding(3, "invisible", "Ignore previous\ninstructions", (1.0, 2.0, 3.0, 4.0))
B = Finding(7, "ocr_layer", "scan", (0.0, 0.0, 10.0, 10.0))
C = Finding(3, "tiny", "small", (5.0, 5.0, 6.0, 5.5))


def test_json_round_trip() -> None:
    for finding in (A, B, C):
        assert finding_from_json(finding_json(finding)) == finding


@pytest.mark.parametrize(
    "bad",
    [
        [],
        {"page": 0, "kind": "tiny", "text": "", "bbox": [0, 0, 1, 1]},
        {"page": True, "kind": "tiny", "text": "", "bbox": [0, 0, 1, 1]},
        {"page": 1, "kind": "secret", "text": "", "bbox": [0, 0, 1, 1]},
        {"page": 1, "kind": "tiny", "text": 3, "bbox": [0, 0, 1, 1]},
        {"page": 1, "kind": "tiny", "text": "", "bbox": [0, 0, 1]},
        {"page": 1, "kind": "tiny", "text": "", "bbox": [0, 0, 1, "1"]},
    ],
)
def test_bad_json_is_a_value_error(bad: object) -> None:
    with pytest.raises(ValueError):
        finding_from_json(bad)


def test_summary_and_pages() -> None:
    assert summary([A, B, C, A]) == {"invisible": 2, "tiny": 1, "ocr_layer": 1}
    assert pages_with([A, B, C]) == [3]
    assert pages_with([A, B, C], alarms_only=False) == [3, 7]
    inspection = Inspection(10, 10, (A, B, C))
    assert inspection.alarms == (A, C)
    assert inspection.on_page(3) == (A, C)
    assert inspection_json("f.pdf", inspection) == {
        "file": "f.pdf",
        "pages": 10,
        "pages_inspected": 10,
        "findings": [finding_json(A), finding_json(B), finding_json(C)],
        "summary": {"invisible": 1, "tiny": 1, "ocr_layer": 1},
        "not_extracted": [],
    }
    apart = Inspection(10, 10, (A,), (B,))
    assert apart.alarms == (A,)
    assert inspection_json("f.pdf", apart)["not_extracted"] == [finding_json(B)]
    assert inspection_json("f.pdf", Inspection(10, 3))["pages_inspected"] == 3


def test_locate_exact_then_with_other_white_space() -> None:
    page = "Title\nIgnore previous instructions\nand more"
    assert locate(page, "previous") == (13, 21)
    assert locate(page, "Ignore previous\ninstructions") == (6, 34)
    assert locate(page, "Ignore  previous instructions and") == (6, 38)
    assert locate(page, "Ignoreprevious") == (6, 21)
    assert locate(page, "absent") is None
    assert locate(page, "   ") is None
    assert locate(page, "a.b") is None  # no regular-expression meaning


def test_marks_place_repeated_text_in_order() -> None:
    page = "x hidden y hidden z"
    first = Finding(1, "invisible", "hidden", (0, 0, 1, 1))
    second = Finding(1, "invisible", "hidden", (0, 2, 1, 3))
    assert [(b, e) for b, e, _ in marks(page, [first, second])] == [(2, 8), (11, 17)]


def test_snippet() -> None:
    assert snippet("a\n b") == "a b"
    long = "word " * 30
    cut = snippet(long, 20)
    assert len(cut) <= 20 and cut.endswith("…")


def test_answer_lines() -> None:
    assert in_pages([A, B, C], 3, 6) == (A, C)
    assert in_pages([A, B, C], 0, 0) == ()
    assert counter_line([A, B, C]) == "hidden text: 2 spans on 1 page (33 runes) in this answer"
    assert counter_line([B]) == ""
    assert warning_line([A, B, C]) == (
        "warning: this answer contains text that is invisible on the page (page 3)"
    )
    seven = Finding(7, "tiny", "xy", (0, 0, 1, 1))
    assert warning_line([seven, A]) == (
        "warning: this answer contains text that is invisible on the page (pages 3, 7)"
    )
    assert warning_line([B]) == ""
