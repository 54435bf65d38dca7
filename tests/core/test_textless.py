"""Pages with no text, named the same way by the TUI, the CLI and the MCP answer."""

from __future__ import annotations

from siftui.core.doc import Doc
from siftui.core.render import Options, render
from siftui.core.textless import answer_textless, no_text_line, textless_pages, textless_warning
from siftui.core.walk import walk, walk_report, walk_text


def test_counts_agree_with_their_nouns() -> None:
    assert no_text_line([1], 1) == "1 of 1 page has no text: p. 1"
    assert no_text_line([2], 5) == "1 of 5 pages has no text: p. 2"
    assert no_text_line([2, 3], 5) == "2 of 5 pages have no text: p. 2, 3"
    assert no_text_line(list(range(1, 30)), 40).endswith(
        "p. " + ", ".join(map(str, range(1, 21))) + " ..."
    )
    assert textless_warning([1], "OCR it") == "page 1 has no text (it may be an image; OCR it)"
    assert textless_warning([1, 4], "OCR") == "pages 1, 4 have no text (they may be images; OCR)"


def test_which_pages() -> None:
    doc = Doc("T", 4, ("a", "  \n", "", "d"))
    assert textless_pages(doc) == (2, 3) and textless_pages(doc, {3}) == (2,)
    assert answer_textless(doc, render(doc, Options())) == (2, 3)
    assert answer_textless(doc, render(doc, Options(pages="3-4"))) == (3,)
    assert answer_textless(doc, render(doc, Options(grep="a"))) == ()


def test_walk_total_says_1_call() -> None:
    doc = Doc("T", 1, ("a",))
    text = walk_text(walk_report(walk(doc, 100), lambda t: {"runes/4": 0}), 100)
    assert text.splitlines()[-1].startswith("total: 1 call at OutCap 100, ")
