"""Every rule of docs/SPEC.md at its edges, with exact expected strings."""

from __future__ import annotations

import gc
import re
import weakref
from pathlib import Path

import pytest

from siftui.core.doc import Doc, OutlineItem
from siftui.core.render import (
    BadGrep,
    BadPages,
    MalformedPages,
    Options,
    Rendered,
    check_options,
    full,
    marker,
    render,
    reversed_pages_hint,
)

GOLDEN = Path(__file__).parent / "golden"
INSTRUCTION = 'This document is longer than one answer: ask for pages="a-b" or grep="pattern".'
NARROW = 'narrow the pattern or add pages="a-b"'


def golden(name: str) -> str:
    with open(GOLDEN / name, encoding="utf-8", newline="") as f:
        return f.read()


def block(page: int, text: str) -> str:
    return f"--- page {page} ---\n\n{text}"


def bad_pages(doc: Doc, pages: str, message: str, **extra: str) -> None:
    with pytest.raises(BadPages) as caught:
        render(doc, Options(pages=pages, **extra))  # type: ignore[arg-type]
    assert str(caught.value) == message


def bad_grep(doc: Doc, pattern: str, message: str, pages: str = "") -> None:
    with pytest.raises(BadGrep) as caught:
        render(doc, Options(grep=pattern, pages=pages))
    assert str(caught.value) == message


SHORT = Doc(title="Short", page_count=3, pages=("Alpha\nbeta", " Gamma ", "delta"))
FIVE = Doc(title="Five", page_count=5, pages=("one", "two", "three", "four", "five"))
# Ten pages whose blocks are 20 characters (21 for page 10): full is 218 + 1 = 219.
TEN = Doc(title="T", page_count=10, pages=("aaaa",) * 10)
# Page 1 is far larger than any budget used below; full is 2054 characters, T = 513.
BIG_FIRST = Doc(
    title="T",
    page_count=3,
    pages=("y" * 2000, "b", "c"),
    outline=tuple(OutlineItem(1, name, n) for n, name in enumerate("ABCDE", start=1)),
)
BIG_HEAD = "# T\n\n3 pages · ~513 tokens"  # 26 characters
OUTLINE_5 = "## Outline\n- A (p. 1)\n- B (p. 2)\n- C (p. 3)\n- D (p. 4)\n- E (p. 5)"


# ------------------------------------------------------------------ types, R1


def test_marker() -> None:
    assert marker(1) == "--- page 1 ---"
    assert marker(212) == "--- page 212 ---"


def test_types_are_frozen_values() -> None:
    assert Options() == Options(pages="", grep="", out_cap=100_000)
    assert hash(Doc("a", 1, ("x",))) == hash(Doc("a", 1, ["x"]))  # type: ignore[arg-type]
    assert Doc("a", 1, ["x"]).pages == ("x",)  # type: ignore[arg-type]
    # hashed by its sizes: Docs of one size are told apart by their text
    twins = {Doc("a", 1, ("x",)): 1, Doc("a", 1, ("y",)): 2}
    assert twins[Doc("a", 1, ("y",))] == 2 and len(twins) == 2
    rendered = render(SHORT, Options())
    assert hash(rendered) == hash(render(SHORT, Options()))
    with pytest.raises(AttributeError):
        rendered.content = "x"  # type: ignore[misc]


def test_full_strips_each_page_and_joins() -> None:
    assert full(SHORT) == (
        "--- page 1 ---\n\nAlpha\nbeta\n\n--- page 2 ---\n\nGamma\n\n--- page 3 ---\n\ndelta"
    )


def test_full_of_blank_pages_keeps_their_markers() -> None:
    doc = Doc("", 3, ("", " \n\t\r\n ", "x\n"))
    assert full(doc) == "--- page 1 ---\n\n\n\n--- page 2 ---\n\n\n\n--- page 3 ---\n\nx"


def test_full_keeps_inner_crlf() -> None:
    doc = Doc("", 1, ("a\r\nb\r\n",))
    assert full(doc) == "--- page 1 ---\n\na\r\nb"
    assert render(doc, Options()).content == "--- page 1 ---\n\na\r\nb"


def test_no_extracted_pages() -> None:
    doc = Doc("Nothing", 4, ())
    assert full(doc) == ""
    for cap in (1, 2, 100_000):
        assert render(doc, Options(out_cap=cap)) == Rendered("", False, 0, 0, 0, "")


@pytest.mark.parametrize("cap", [0, -1, -100])
def test_out_cap_below_one_is_value_error(cap: int) -> None:
    with pytest.raises(ValueError) as caught:
        render(SHORT, Options(out_cap=cap))
    assert type(caught.value) is ValueError


# ------------------------------------------------------------------ R2 full or map


def test_full_exactly_at_out_cap_is_not_a_map() -> None:
    size = len(full(SHORT))
    assert render(SHORT, Options(out_cap=size)) == Rendered(full(SHORT), False, 1, 3, 0, "")
    assert render(SHORT, Options(out_cap=size - 1)).map


def test_map_of_one_page_says_1_page_and_cuts_page_1() -> None:
    doc = Doc("T", 1, ("x" * 1000,))
    expected = "# T\n\n1 page · ~254 tokens\n\n" + INSTRUCTION + "\n\n--- page 1 ---\n\n" + "x" * 84
    assert render(doc, Options(out_cap=400)) == Rendered(expected, True, 1, 1, 0, "")


def test_map_leading_pages_fill_a_quarter_exactly() -> None:
    a = block(1, "aaaa")
    b = block(2, "aaaa")
    head = "# T\n\n10 pages · ~54 tokens\n\n" + INSTRUCTION + "\n\n"
    # out_cap // 4 = 42 = two blocks and their separator
    assert render(TEN, Options(out_cap=170)) == Rendered(head + a + "\n\n" + b, True, 1, 2, 0, "")
    # out_cap // 4 = 41: page 2 no longer fits, page 1 is whole
    assert render(TEN, Options(out_cap=167)) == Rendered(head + a, True, 1, 1, 0, "")


def test_map_page_one_larger_than_quarter_is_cut() -> None:
    result = render(Doc("T", 3, ("y" * 2000, "b", "c")), Options(out_cap=200))
    assert result == Rendered(
        BIG_HEAD + "\n\n" + INSTRUCTION + "\n\n--- page 1 ---\n\n" + "y" * 34, True, 1, 1, 0, ""
    )


def test_map_whole_outline_when_it_fits() -> None:
    # 26 + 2 + 65 + 2 + 79 + 2 + 58 = 234
    for cap in (234, 235):
        result = render(BIG_FIRST, Options(out_cap=cap))
        leading = block(1, "y" * 42)
        expected = "\n\n".join([BIG_HEAD, OUTLINE_5, INSTRUCTION, leading])
        assert result == Rendered(expected, True, 1, 1, 0, "")
        assert len(expected) == 234


@pytest.mark.parametrize(
    ("cap", "outline"),
    [
        (233, "## Outline\n- A (p. 1)\n- B (p. 2)\n- C (p. 3)\n- … (2 more)"),
        (222, "## Outline\n- A (p. 1)\n- B (p. 2)\n- C (p. 3)\n- … (2 more)"),
        (221, "## Outline\n- A (p. 1)\n- B (p. 2)\n- … (3 more)"),
        (207, "## Outline\n- A (p. 1)\n- B (p. 2)\n- … (3 more)"),
        (206, "## Outline\n- A (p. 1)\n- … (4 more)"),
        (200, "## Outline\n- A (p. 1)\n- … (4 more)"),
        (193, "## Outline\n- A (p. 1)\n- … (4 more)"),  # exactly 193 characters
        (192, "## Outline\n- … (5 more)"),  # k = 0
        (178, "## Outline\n- … (5 more)"),  # exactly 178 characters
    ],
)
def test_map_outline_cut_to_largest_k(cap: int, outline: str) -> None:
    expected = "\n\n".join([BIG_HEAD, outline, INSTRUCTION, block(1, "y" * (cap // 4 - 16))])
    assert len(expected) <= cap
    assert render(BIG_FIRST, Options(out_cap=cap)) == Rendered(expected, True, 1, 1, 0, "")


@pytest.mark.parametrize("cap", [176, 177])
def test_map_outline_dropped_when_even_k0_does_not_fit(cap: int) -> None:
    # 26 + 2 + 79 + 2 + 44 = 153; with "## Outline\n- … (5 more)" and its separator, 178
    expected = "\n\n".join([BIG_HEAD, INSTRUCTION, block(1, "y" * 28)])
    assert render(BIG_FIRST, Options(out_cap=cap)) == Rendered(expected, True, 1, 1, 0, "")


def test_map_hard_cut_when_header_and_instruction_do_not_fit() -> None:
    # without the outline: 26 + 2 + 79 + 2 + 25 = 134 > 100
    expected = (BIG_HEAD + "\n\n" + INSTRUCTION)[:100]
    assert expected.endswith('grep="pa')
    assert render(BIG_FIRST, Options(out_cap=100)) == Rendered(expected, True, 1, 1, 0, "")


@pytest.mark.parametrize("cap", range(1, 11))
def test_map_tiny_out_cap(cap: int) -> None:
    result = render(BIG_FIRST, Options(out_cap=cap))
    assert result == Rendered("# T\n\n3 pages"[:cap], True, 1, 1, 0, "")


def test_map_tiny_out_cap_below_four_has_no_leading_text() -> None:
    result = render(Doc("", 2, ("x" * 50, "y")), Options(out_cap=3))
    assert result == Rendered("# U", True, 1, 1, 0, "")


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("  A   Thesis ", "A Thesis"),
        ("\tLine\none\r\nand\u00a0two\u2003 ", "Line one and two"),
        ("", "Untitled PDF"),
        (" \n\t\r ", "Untitled PDF"),
        ("中文 标题", "中文 标题"),
    ],
)
def test_map_title(title: str, shown: str) -> None:
    doc = Doc(title, 2, ("x" * 300, "y"))
    assert render(doc, Options(out_cap=300)).content.startswith(f"# {shown}\n\n2 pages · ~")


def test_map_extracted_part_only_when_fewer_pages_than_the_file() -> None:
    pages = ("x" * 300, "y", "z")
    # full: 316 + 2 + 17 + 2 + 17 = 354 -> T = 88
    partial = render(Doc("T", 40, pages), Options(out_cap=300)).content
    assert partial.startswith("# T\n\n40 pages · ~88 tokens · pages 1-3 extracted\n\n")
    whole = render(Doc("T", 3, pages), Options(out_cap=300)).content
    assert whole.startswith("# T\n\n3 pages · ~88 tokens\n\nThis document")


def test_map_outline_levels_titles_and_unknown_pages() -> None:
    doc = Doc(
        "T",
        2,
        ("x" * 2000, "y"),
        (
            OutlineItem(0, "Zero", 1),
            OutlineItem(-3, "Negative", 2),
            OutlineItem(1, " Part\tOne\n ", 0),
            OutlineItem(2, "Two", -1),
            OutlineItem(3, "Three", 7),
            OutlineItem(1, "   ", 2),
            OutlineItem(2, "中文 😀", 1),
        ),
    )
    content = render(doc, Options(out_cap=2000)).content
    assert (
        "\n\n## Outline\n"
        "- Zero (p. 1)\n"
        "- Negative (p. 2)\n"
        "- Part One\n"
        "  - Two\n"
        "    - Three (p. 7)\n"
        "-  (p. 2)\n"
        "  - 中文 😀 (p. 1)\n\n" + INSTRUCTION + "\n\n"
    ) in content


def test_map_without_outline_has_no_outline_section() -> None:
    content = render(Doc("T", 2, ("x" * 300, "y")), Options(out_cap=300)).content
    assert "Outline" not in content
    assert content.startswith("# T\n\n2 pages · ~83 tokens\n\n" + INSTRUCTION + "\n\n--- page 1")


def test_map_contract_thesis_cut_outline_golden() -> None:
    doc = Doc(
        title="  On   the\tTheory of\nEverything ",
        page_count=312,
        pages=tuple(f"Page {i} heading\n{'body text ' * 30}\nend {i}" for i in range(1, 301)),
        outline=tuple(
            OutlineItem(1 + (i % 3), f"Section {i // 3 + 1}.{i % 3}  title", 2 + i * 2)
            for i in range(150)
        ),
    )
    result = render(doc, Options(out_cap=4000))
    assert result.content == golden("map_long_outline.txt")
    assert len(result.content) <= 4000
    assert (result.map, result.first, result.last, result.grep_hits, result.note) == (
        True,
        1,
        2,
        0,
        "",
    )


# ------------------------------------------------------------------ R3 pages


@pytest.mark.parametrize(
    ("pages", "first", "last"),
    [
        ("3", 3, 3),
        ("3-5", 3, 5),
        ("3-", 3, 5),
        (" 3-5 ", 3, 5),
        ("\t2-3\n", 2, 3),
        ("03-004", 3, 4),
        ("4-99", 4, 5),
        ("1-" + "9" * 5000, 1, 5),
        ("5-", 5, 5),
        ("5", 5, 5),
    ],
)
def test_pages_valid(pages: str, first: int, last: int) -> None:
    expected = "\n\n".join(block(p, FIVE.pages[p - 1]) for p in range(first, last + 1))
    assert render(FIVE, Options(pages=pages)) == Rendered(expected, False, first, last, 0, "")


@pytest.mark.parametrize("pages", ["", " ", "\t\n"])
def test_pages_blank_means_no_range(pages: str) -> None:
    assert render(FIVE, Options(pages=pages)) == render(FIVE, Options())


@pytest.mark.parametrize(
    "pages",
    ["３", "3-５", "a", "-3", "+3", "3 - 5", "3--5", "1-2-3", "1,2", "3-5x", "٣", "0x3", " x "],
)
def test_pages_malformed(pages: str) -> None:
    bad_pages(FIVE, pages, f'invalid pages "{pages}": use "a-b", "a" or "a-"')


@pytest.mark.parametrize("pages", ["0", "0-3", "00", "6", "6-", "6-9", "9" * 5000])
def test_pages_out_of_range(pages: str) -> None:
    bad_pages(FIVE, pages, "pages out of range (1-5)")


@pytest.mark.parametrize(
    ("pages", "hint"),
    [
        ("3-2", '"3-2" is reversed: did you mean "2-3"?'),
        (" 5-3 ", '"5-3" is reversed: did you mean "3-5"?'),
        ("90-60", '"90-60" is reversed: did you mean "60-90"?'),
        ("05-03", '"05-03" is reversed: did you mean "03-05"?'),
    ],
)
def test_pages_reversed(pages: str, hint: str) -> None:
    # R3: b < a is out of range, in the contract's words (the agent's answer); only a
    # person is told it is reversed, by the CLI, from reversed_pages_hint.
    bad_pages(FIVE, pages, "pages out of range (1-5)")
    check_options(Options(pages=pages))  # needs the document's E: refused by render()
    assert reversed_pages_hint(pages) == hint


@pytest.mark.parametrize("pages", ["", "2", "2-", "2-3", "3-3", "x", "3-2-1"])
def test_pages_not_reversed_have_no_hint(pages: str) -> None:
    assert reversed_pages_hint(pages) is None


def test_pages_reversed_on_no_extracted_page() -> None:
    bad_pages(Doc("T", 3, ()), "5-2", "pages out of range (1-0)")


def test_pages_out_of_range_without_pages() -> None:
    bad_pages(Doc("T", 3, ()), "1", "pages out of range (1-0)")


def test_pages_cut_at_budget() -> None:
    # blocks of 20: 20, 42, 64
    for cap in (42, 50, 63):
        result = render(TEN, Options(pages="2-9", out_cap=cap))
        assert result == Rendered(
            block(2, "aaaa") + "\n\n" + block(3, "aaaa"),
            False,
            2,
            3,
            0,
            'cut at page 3; ask for pages="4-9"',
        )
    assert (
        render(TEN, Options(pages="2-", out_cap=64)).note == 'cut at page 4; ask for pages="5-10"'
    )


def test_pages_first_page_alone_too_long() -> None:
    assert render(TEN, Options(pages="2-9", out_cap=10)) == Rendered(
        "--- page 2", False, 2, 2, 0, 'page 2 cut to 10 of 20 characters; ask for pages="3-9"'
    )
    assert render(TEN, Options(pages="2-", out_cap=19)) == Rendered(
        block(2, "aaa"), False, 2, 2, 0, 'page 2 cut to 19 of 20 characters; ask for pages="3-10"'
    )
    assert render(TEN, Options(pages="2", out_cap=10)) == Rendered(
        "--- page 2", False, 2, 2, 0, "page 2 cut to 10 of 20 characters"
    )
    assert render(TEN, Options(pages="10-", out_cap=1)) == Rendered(
        "-", False, 10, 10, 0, "page 10 cut to 1 of 21 characters"
    )
    assert render(TEN, Options(pages="10-99", out_cap=1)).note == (
        "page 10 cut to 1 of 21 characters"
    )


def test_pages_at_most_100() -> None:
    doc = Doc("T", 160, tuple(f"text {i}" for i in range(1, 151)))
    blocks = [block(i, f"text {i}") for i in range(1, 151)]
    assert render(doc, Options(pages="1-")) == Rendered(
        "\n\n".join(blocks[:100]), False, 1, 100, 0, 'cut at page 100; ask for pages="101-150"'
    )
    assert render(doc, Options(pages="20-130")) == Rendered(
        "\n\n".join(blocks[19:119]), False, 20, 119, 0, 'cut at page 119; ask for pages="120-130"'
    )
    assert render(doc, Options(pages="51-")) == Rendered(
        "\n\n".join(blocks[50:]), False, 51, 150, 0, ""
    )


def test_pages_contract_example_note() -> None:
    doc = Doc("T", 40, tuple(f"Text of page {i}\nsecond line {i}" for i in range(1, 31)))
    result = render(doc, Options(pages="12-40", out_cap=200))
    assert result.note == 'cut at page 15; ask for pages="16-30"'
    assert (result.first, result.last) == (12, 15)


def test_pages_count_code_points_not_bytes() -> None:
    # CJK is 3 UTF-8 bytes, an emoji 4, a family emoji 5 code points: all counted by len.
    doc = Doc("T", 3, ("中文" * 5, "😀" * 10, "👨‍👩‍👧"))
    assert render(doc, Options(pages="1", out_cap=26)).content == block(1, "中文" * 5)
    assert render(doc, Options(pages="2", out_cap=26)).content == block(2, "😀" * 10)
    assert render(doc, Options(pages="2", out_cap=20)) == Rendered(
        block(2, "😀" * 4), False, 2, 2, 0, "page 2 cut to 20 of 26 characters"
    )
    assert render(doc, Options(pages="3", out_cap=19)) == Rendered(
        block(3, "👨\u200d👩"), False, 3, 3, 0, "page 3 cut to 19 of 21 characters"
    )


# ------------------------------------------------------------------ R4 grep


def test_grep_header_counts() -> None:
    assert render(SHORT, Options(grep="Gamma")) == Rendered(
        'grep "Gamma": 1 match\np. 2: Gamma\n--', False, 0, 0, 1, ""
    )
    assert render(SHORT, Options(grep="zzz")) == Rendered(
        'grep "zzz": no matches', False, 0, 0, 0, ""
    )
    assert render(SHORT, Options(grep="e")) == Rendered(
        'grep "e": 2 matches\np. 1- Alpha\np. 1: beta\n--\np. 3: delta\n--', False, 0, 0, 2, ""
    )


def test_grep_on_a_doc_without_pages() -> None:
    assert render(Doc("T", 2, ()), Options(grep="x")) == Rendered(
        'grep "x": no matches', False, 0, 0, 0, ""
    )


def test_grep_pattern_is_not_stripped_and_shown_as_given() -> None:
    doc = Doc("T", 1, ('say "hi" there\nx',))
    assert render(doc, Options(grep=' "hi" ')).content == (
        'grep " "hi" ": 1 match\np. 1: say "hi" there\np. 1- x\n--'
    )
    # a whitespace-only pattern is a pattern; stripped lines keep no edge space
    assert render(Doc("T", 1, (" a \nb c",)), Options(grep=" ")).content == (
        'grep " ": 1 match\np. 1- a\np. 1: b c\n--'
    )


def test_grep_context_only_on_same_page_and_non_empty() -> None:
    doc = Doc("T", 3, ("before\nhit one", "hit two\n   \nafter", "x\n\nhit three\n\t\ny"))
    assert render(doc, Options(grep="hit")).content == (
        'grep "hit": 3 matches\n'
        "p. 1- before\np. 1: hit one\n--\n"
        "p. 2: hit two\n--\n"
        "p. 3: hit three\n--"
    )


def test_grep_adjacent_matches_each_get_their_block() -> None:
    doc = Doc("T", 1, ("a1\na2\na3",))
    assert render(doc, Options(grep="a")).content == (
        'grep "a": 3 matches\n'
        "p. 1: a1\np. 1- a2\n--\n"
        "p. 1- a1\np. 1: a2\np. 1- a3\n--\n"
        "p. 1- a2\np. 1: a3\n--"
    )


def test_grep_lines_are_stripped_crlf_included() -> None:
    doc = Doc("T", 1, ("alpha\r\n  beta  \r\ngamma\r\n",))
    assert render(doc, Options(grep="a$")).content == (
        'grep "a$": 3 matches\n'
        "p. 1: alpha\np. 1- beta\n--\n"
        "p. 1- alpha\np. 1: beta\np. 1- gamma\n--\n"
        "p. 1- beta\np. 1: gamma\n--"
    )


def test_grep_empty_lines_can_match() -> None:
    doc = Doc("T", 1, ("a\n\nb",))
    assert (
        render(doc, Options(grep="^$")).content
        == 'grep "^$": 1 match\np. 1- a\np. 1: \np. 1- b\n--'
    )


def test_grep_smart_case() -> None:
    doc = Doc("T", 1, ("ALPHA\nalpha\nÉté\nété\nbA",))
    assert render(doc, Options(grep="alpha")).grep_hits == 2
    assert render(doc, Options(grep="Alpha")).grep_hits == 0
    assert render(doc, Options(grep="ALPHA")).grep_hits == 1
    assert render(doc, Options(grep="été")).grep_hits == 2
    assert render(doc, Options(grep="Été")).grep_hits == 1
    # an upper-case letter anywhere makes it case-sensitive, escapes included
    assert render(doc, Options(grep="b[a]")).grep_hits == 1
    assert render(doc, Options(grep="\\Sa$")).grep_hits == 1  # "alpha", not "bA" nor "ALPHA"


def test_grep_smart_case_is_str_isupper_per_character() -> None:
    # The title-case "ǅ" is not upper-case: the search stays case-insensitive.
    doc = Doc("T", 1, ("Ǆ\nǅ\nǆ\nx",))
    assert not "ǅ".isupper()
    assert render(doc, Options(grep="ǅ")).grep_hits == 3
    assert render(doc, Options(grep="Ǆ")).grep_hits == 1


def test_grep_over_100_matches() -> None:
    doc = Doc("T", 1, ("\n\n".join(f"hit {i}" for i in range(150)),))
    header = 'grep "hit": 150 matches, showing the first 100'
    blocks = [f"p. 1: hit {i}\n--" for i in range(100)]
    assert render(doc, Options(grep="hit")) == Rendered(
        "\n".join([header, *blocks]),
        False,
        0,
        0,
        150,
        f"showing the first 100 of 150 matches; {NARROW}",
    )
    # exactly 100 matches: no mention of a limit
    doc100 = Doc("T", 1, ("\n\n".join(f"hit {i}" for i in range(100)),))
    assert render(doc100, Options(grep="hit")) == Rendered(
        "\n".join(['grep "hit": 100 matches', *blocks]), False, 0, 0, 100, ""
    )


def test_grep_budget_note_wins_over_the_100_note() -> None:
    doc = Doc("T", 1, ("\n\n".join(f"hit {i}" for i in range(150)),))
    header = 'grep "hit": 150 matches, showing the first 100'
    blocks = [f"p. 1: hit {i}\n--" for i in range(10)]
    content = "\n".join([header, *blocks])
    for cap in (len(content), len(content) + 15):  # the 11th block needs 16 more
        assert render(doc, Options(grep="hit", out_cap=cap)) == Rendered(
            content, False, 0, 0, 150, f"showing 10 of 150 matches to fit OutCap; {NARROW}"
        )


def test_grep_blocks_dropped_from_the_end() -> None:
    whole = render(SHORT, Options(grep="a$")).content
    assert render(SHORT, Options(grep="a$", out_cap=len(whole))).note == ""
    assert render(SHORT, Options(grep="a$", out_cap=len(whole) - 1)) == Rendered(
        'grep "a$": 4 matches\n'
        "p. 1: Alpha\np. 1- beta\n--\n"
        "p. 1- Alpha\np. 1: beta\n--\n"
        "p. 2: Gamma\n--",
        False,
        0,
        0,
        4,
        f"showing 3 of 4 matches to fit OutCap; {NARROW}",
    )
    assert render(SHORT, Options(grep="a$", out_cap=20)) == Rendered(
        'grep "a$": 4 matches', False, 0, 0, 4, f"showing 0 of 4 matches to fit OutCap; {NARROW}"
    )


def test_grep_header_alone_too_long_is_hard_cut() -> None:
    assert render(SHORT, Options(grep="a$", out_cap=5)) == Rendered(
        "grep ", False, 0, 0, 4, f"showing 0 of 4 matches to fit OutCap; {NARROW}"
    )
    assert render(SHORT, Options(grep="zzz", out_cap=1)) == Rendered("g", False, 0, 0, 0, "")


def test_grep_errors_exactly() -> None:
    bad_grep(SHORT, "(unclosed", "invalid grep: missing ): (unclosed")
    # the case option is not spelled into the pattern, so the message names only it
    bad_grep(SHORT, "(Unclosed", "invalid grep: missing ): (Unclosed")
    bad_grep(SHORT, "[z-a]", "invalid grep: invalid character class range: z-a")
    bad_grep(SHORT, "a**", "invalid grep: bad repetition operator: **")
    bad_grep(SHORT, "x{1001}", "invalid grep: invalid repetition size: {1001}")
    bad_grep(SHORT, "a" * 201, "pattern longer than 200 bytes")
    bad_grep(SHORT, "é" * 101, "pattern longer than 200 bytes")  # 101 characters, 202 bytes
    bad_grep(SHORT, "中" * 67, "pattern longer than 200 bytes")  # 201 bytes
    bad_grep(SHORT, "\ud800", "invalid grep: pattern is not valid UTF-8")
    bad_grep(SHORT, "a\udcffb", "invalid grep: pattern is not valid UTF-8")


def test_grep_at_200_bytes_is_fine() -> None:
    assert render(SHORT, Options(grep="a" * 200)).content == 'grep "' + "a" * 200 + '": no matches'
    assert render(SHORT, Options(grep="é" * 100)).grep_hits == 0


def test_check_order_out_cap_then_pages_then_pattern() -> None:
    with pytest.raises(ValueError) as caught:
        render(SHORT, Options(pages="x", grep="(", out_cap=0))
    assert type(caught.value) is ValueError
    bad_pages(SHORT, "x", 'invalid pages "x": use "a-b", "a" or "a-"', grep="(")
    bad_pages(SHORT, "9", "pages out of range (1-3)", grep="a" * 300)
    bad_grep(SHORT, "(", "invalid grep: missing ): (", pages="2-3")


def test_grep_with_a_page_range_has_no_100_page_limit() -> None:
    doc = Doc("T", 150, tuple(f"p{i}\nhit" for i in range(1, 151)))
    result = render(doc, Options(grep="hit", pages="2-"))
    assert result.grep_hits == 149
    assert result.content.startswith(
        'grep "hit": 149 matches, showing the first 100\np. 2- p2\np. 2: hit\n--\np. 3- p3\n'
    )
    assert result.content.endswith("\np. 101- p101\np. 101: hit\n--")
    assert render(doc, Options(grep="hit", pages="120-130")).grep_hits == 11
    assert render(doc, Options(grep="hit", pages="150")).content == (
        'grep "hit": 1 match\np. 150- p150\np. 150: hit\n--'
    )
    assert render(doc, Options(grep="hit")).grep_hits == 150


LONG = "a" * 1000


@pytest.mark.parametrize(
    ("at", "shown"),
    [
        (0, "X" + "a" * 399 + "…"),
        (10, "a" * 10 + "X" + "a" * 389 + "…"),
        (200, "a" * 200 + "X" + "a" * 199 + "…"),
        (201, "…" + "a" * 200 + "X" + "a" * 199 + "…"),
        (500, "…" + "a" * 200 + "X" + "a" * 199 + "…"),
        (799, "…" + "a" * 200 + "X" + "a" * 199 + "…"),
        (800, "…" + "a" * 200 + "X" + "a" * 199),
        (990, "…" + "a" * 390 + "X" + "a" * 9),
        (999, "…" + "a" * 399 + "X"),
    ],
)
def test_grep_long_matching_line_window(at: int, shown: str) -> None:
    line = LONG[:at] + "X" + LONG[at + 1 :]
    assert len(line) == 1000
    doc = Doc("T", 1, (line,))
    assert render(doc, Options(grep="X")).content == f'grep "X": 1 match\np. 1: {shown}\n--'


def test_grep_window_uses_the_first_match_in_the_line() -> None:
    line = "a" * 500 + "X" + "a" * 300 + "X" + "a" * 198
    doc = Doc("T", 1, (line,))
    assert render(doc, Options(grep="X")).content == (
        'grep "X": 1 match\np. 1: …' + "a" * 200 + "X" + "a" * 199 + "…\n--"
    )


def test_grep_window_bounds_400_and_401() -> None:
    exact = "X" + "a" * 399
    doc = Doc("T", 1, (exact, "X" + "a" * 400))
    assert render(doc, Options(grep="X", pages="1")).content.split("\n")[1] == "p. 1: " + exact
    assert render(doc, Options(grep="X", pages="2")).content.split("\n")[1] == (
        "p. 2: X" + "a" * 399 + "…"
    )


def test_grep_window_counts_code_points() -> None:
    line = "中" * 300 + "X" + "😀" * 300
    doc = Doc("T", 1, (line,))
    assert render(doc, Options(grep="X")).content == (
        'grep "X": 1 match\np. 1: …' + "中" * 200 + "X" + "😀" * 199 + "…\n--"
    )


def test_grep_context_line_window_starts_at_zero() -> None:
    before = "b" * 450
    after = "c" * 400
    doc = Doc("T", 1, (f"{before}\n  X  \n{after}",))
    assert render(doc, Options(grep="X")).content == (
        'grep "X": 1 match\np. 1- ' + "b" * 400 + "…\np. 1: X\np. 1- " + after + "\n--"
    )


def test_grep_window_golden() -> None:
    pages = (
        "intro\n" + "lorem ipsum " * 60 + "NEEDLE" + " dolor sit" * 50 + "\nafter",
        "中文 " * 200 + "\nNEEDLE 中文 " + "😀" * 600,
    )
    result = render(Doc("T", 2, pages), Options(grep="NEEDLE"))
    assert result.content == golden("grep_windows.txt")
    assert (result.grep_hits, result.note) == (2, "")


def test_grep_matches_in_a_line_with_a_lone_surrogate() -> None:
    doc = Doc("T", 1, ("x\ud800y\nz",))
    assert render(doc, Options(grep="y")) == Rendered(
        'grep "y": 1 match\np. 1: x\ud800y\np. 1- z\n--', False, 0, 0, 1, ""
    )
    assert render(doc, Options(grep="x.y")).grep_hits == 1


# ------------------------------------------------------------------ caches


def test_caches_do_not_keep_a_doc_alive_nor_mix_docs() -> None:
    first = Doc("T", 2, ("one", "two"))
    assert render(first, Options()).content == block(1, "one") + "\n\n" + block(2, "two")
    gone = weakref.ref(first)
    del first
    gc.collect()
    assert gone() is None
    # a new Doc (which may reuse the dead one's id) gets its own answer
    for text in ("three", "four"):
        doc = Doc("T", 1, (text,))
        assert render(doc, Options()).content == block(1, text)
        del doc
        gc.collect()


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        (Options(pages="3p"), MalformedPages, 'invalid pages "3p": use "a-b", "a" or "a-"'),
        (Options(pages="0" * 5000 + "1-3", grep="("), None, None),  # range first: no pattern check
        (Options(pages="0"), None, None),  # out of range only with the document
        (Options(grep="(x"), BadGrep, "invalid grep: missing ): (x"),
        (Options(out_cap=0), ValueError, "out_cap must be a whole number >= 1, not 0"),
        (Options(pages=" 2- ", grep="a"), None, None),
    ],
)
def test_check_options_refuses_what_no_document_can_accept(
    options: Options, error: type[Exception] | None, message: str | None
) -> None:
    if error is None:
        check_options(options)
        return
    with pytest.raises(error) as raised:
        check_options(options)
    assert str(raised.value) == message
    doc = Doc(title="", page_count=1, pages=("",))
    with pytest.raises(error, match=re.escape(str(message))):
        render(doc, options)  # render() says the same
