"""The contract's worked examples, byte for byte."""

from siftui.core.doc import Doc, OutlineItem
from siftui.core.render import Options, Rendered, render

SHORT = Doc(title="Short", page_count=3, pages=("Alpha\nbeta", " Gamma ", "delta"))

THESIS = Doc(
    title="  A   Thesis ",
    page_count=40,
    pages=tuple(f"Text of page {i}\nsecond line {i}" for i in range(1, 31)),
    outline=(
        OutlineItem(1, "Intro", 1),
        OutlineItem(2, "Background", 2),
        OutlineItem(1, "Method", 5),
        OutlineItem(1, "Appendix", -1),
    ),
)


def test_short_full() -> None:
    assert render(SHORT, Options(out_cap=1000)) == Rendered(
        content=(
            "--- page 1 ---\n\nAlpha\nbeta\n\n--- page 2 ---\n\nGamma\n\n--- page 3 ---\n\ndelta"
        ),
        map=False,
        first=1,
        last=3,
        grep_hits=0,
        note="",
    )


def test_short_grep() -> None:
    assert render(SHORT, Options(grep="a$", out_cap=1000)) == Rendered(
        content=(
            'grep "a$": 4 matches\n'
            "p. 1: Alpha\np. 1- beta\n--\n"
            "p. 1- Alpha\np. 1: beta\n--\n"
            "p. 2: Gamma\n--\n"
            "p. 3: delta\n--"
        ),
        map=False,
        first=0,
        last=0,
        grep_hits=4,
        note="",
    )


def test_thesis_map() -> None:
    expected = (
        "# A Thesis\n\n"
        "40 pages · ~360 tokens · pages 1-30 extracted\n\n"
        "## Outline\n"
        "- Intro (p. 1)\n"
        "  - Background (p. 2)\n"
        "- Method (p. 5)\n"
        "- Appendix\n\n"
        'This document is longer than one answer: ask for pages="a-b" or grep="pattern".\n\n'
        "--- page 1 ---\n\nText of page 1\nsecond line 1"
    )
    assert render(THESIS, Options(out_cap=300)) == Rendered(expected, True, 1, 1, 0, "")


def test_thesis_page_range() -> None:
    answer = render(THESIS, Options(pages="12-40", out_cap=200))
    blocks = [f"--- page {i} ---\n\nText of page {i}\nsecond line {i}" for i in range(12, 16)]
    assert answer == Rendered(
        "\n\n".join(blocks), False, 12, 15, 0, 'cut at page 15; ask for pages="16-30"'
    )
