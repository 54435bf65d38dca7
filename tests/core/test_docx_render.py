"""docs/WORD.md's answers D1-D5 and its *Lines*, on document models the tests write (no OOXML)."""

from __future__ import annotations

import hashlib

import pytest
from support.docx_worked import WORKED, WORKED_DOC

from siftui.core.grep import BadGrep
from siftui.core.word.model import DocxDoc, Para, Story, Table
from siftui.core.word.render import (
    BadOption,
    DocxOptions,
    check_docx_options,
    full_projection,
    render_docx,
    reversed_range_hint,
)


def doc_of(*paragraphs: str, tables: tuple[Table, ...] = (), title: str = "") -> DocxDoc:
    return DocxDoc(title, {"body": Story(tuple(Para(p) for p in paragraphs), tables)})


def test_worked_example_exact() -> None:
    answer = render_docx(WORKED_DOC, DocxOptions())
    assert answer.content == WORKED
    assert (answer.map, answer.first, answer.last, answer.note) == (False, 1, 8, "")
    assert hashlib.sha256(b"1. First obligation").hexdigest()[:4] == "ac86"


def test_worked_example_range_anchor_stale() -> None:
    lines = WORKED.split("\n")
    answer = render_docx(WORKED_DOC, DocxOptions(range="P5..P6"))
    assert answer.content == "\n".join(lines[3:7])
    assert (answer.first, answer.last, answer.note) == (5, 6, "")
    alone = render_docx(WORKED_DOC, DocxOptions(anchor="P6#ac86", window=0))
    assert (alone.content, alone.first, alone.last) == (lines[6], 6, 6)
    with pytest.raises(
        BadOption, match=r"^stale anchor P6#0000: P6 is now P6#ac86; read it again$"
    ):
        render_docx(WORKED_DOC, DocxOptions(anchor="P6#0000"))
    # P3 is empty: a range of it alone holds no lines.
    empty = render_docx(WORKED_DOC, DocxOptions(range="P3"))
    assert (empty.content, empty.first, empty.last, empty.note) == ("", 3, 3, "")


def test_anchor_is_a_range_around_it() -> None:
    answer = render_docx(WORKED_DOC, DocxOptions(anchor="p7#9793", window=1))
    assert answer.content == render_docx(WORKED_DOC, DocxOptions(range="P6..P8")).content
    # hex digits in any case
    assert render_docx(WORKED_DOC, DocxOptions(anchor=" P7#9793 ".upper(), window=1)).first == 6


def test_prefix_wider_than_24_and_annotations_order() -> None:
    para = Para("x" * 5, 3, "ol L2", "s10 default")
    story = Story(tuple([Para("")] * 99 + [para]))
    content = render_docx(DocxDoc("", {"footnotes": story}), DocxOptions(scope="footnotes")).content
    assert content == f"[P100#{para.hash}  s10 default H3] xxxxx"
    listed = Para("y", 0, "ul L1", "C2")
    assert listed.prefix(1) == f"[P1#{listed.hash}  C2 List:ul L1]"


def test_table_lines_start_empty_and_item() -> None:
    tables = (Table(0, (), 0), Table(0, ("| a |", "| b |"), 1, "s1 default"))
    doc = DocxDoc("", {"headers": Story((Para("after"),), tables)})
    content = render_docx(doc, DocxOptions(scope="headers")).content
    assert content.split("\n") == [
        "[T1  0×0 @start]",
        "[T2  2×1 @start  s1 default] | a |",
        "                         | b |",
        f"[P1#{Para('after').hash}]                after",
    ]


def test_tables_after_the_last_paragraph_are_in_its_block() -> None:
    doc = doc_of("one", "two", tables=(Table(2, ("| z |",), 1),))
    answer = render_docx(doc, DocxOptions(range="P2"))
    assert answer.content.endswith("[T1  1×1 @after:P2]      | z |")


def test_range_cut_notes() -> None:
    doc = doc_of(*(f"paragraph {i:03}" for i in range(1, 11)))
    line = len(render_docx(doc, DocxOptions(range="P1")).content)
    answer = render_docx(doc, DocxOptions(range="P2..P9", out_cap=2 * line + 1))
    assert (answer.first, answer.last) == (2, 3)
    assert answer.note == 'cut at P3; ask for range="P4..P9"'
    cut = render_docx(doc, DocxOptions(range="P2..P9", out_cap=10))
    assert cut.content == render_docx(doc, DocxOptions(range="P2")).content[:10]
    assert cut.note == f'P2 cut to 10 of {line} characters; ask for range="P3..P9"'
    last = render_docx(doc, DocxOptions(range="P10..", out_cap=10))
    assert last.note == f"P10 cut to 10 of {line} characters"


def test_range_syntax_and_bounds() -> None:
    doc = doc_of("a", "b", "c")
    for good, span in (
        ("P2..P9", (2, 3)),
        ("p2", (2, 2)),
        (" P1.. ", (1, 3)),
        ("P01..p02", (1, 2)),
    ):
        answer = render_docx(doc, DocxOptions(range=good))
        assert (answer.first, answer.last) == span
    for bad in ("2..3", "P2-P3", "P2..3", "P²", "P1..P2..P3", "P", "P1.", "P1...P2"):
        with pytest.raises(
            BadOption, match=rf'^invalid range "{bad}": use "Pa..Pb", "Pa" or "Pa.."$'
        ):
            render_docx(doc, DocxOptions(range=bad))
    for bad in ("P0", "P4", "P" + "9" * 5000):
        with pytest.raises(BadOption, match=r"^range out of range \(P1..P3\)$"):
            render_docx(doc, DocxOptions(range=bad))
    for bad, hint in (
        ("P3..P2", '"P3..P2" is reversed: did you mean "P2..P3"?'),
        (" p300..P200 ", '"p300..P200" is reversed: did you mean "P200..P300"?'),
    ):
        # D3: b < a is out of range, in DOCX.md's words; only the CLI adds the hint.
        with pytest.raises(BadOption) as caught:
            render_docx(doc, DocxOptions(range=bad))
        assert str(caught.value) == "range out of range (P1..P3)"
        check_docx_options(DocxOptions(range=bad))  # needs the document's N
        assert reversed_range_hint(bad) == hint
    assert reversed_range_hint("P2..P3") is None
    assert reversed_range_hint("P2..") is None
    with pytest.raises(BadOption, match=r"^range out of range \(no paragraphs\)$"):
        render_docx(DocxDoc("", {}), DocxOptions(range="P1"))
    with pytest.raises(BadOption, match=r"^anchor out of range \(no paragraphs\)$"):
        render_docx(DocxDoc("", {}), DocxOptions(anchor="P1#abcd"))


def test_anchor_errors_and_order() -> None:
    doc = doc_of("a", "b")
    for bad in ("P1", "P1#abc", "P1#abcde", "1#abcd", "P1#ghij"):
        with pytest.raises(BadOption, match=rf'^invalid anchor "{bad}": use "P<n>#<hash>"$'):
            render_docx(doc, DocxOptions(anchor=bad))
    with pytest.raises(BadOption, match=r"^anchor out of range \(P1..P2\)$"):
        render_docx(doc, DocxOptions(anchor="P3#abcd"))
    with pytest.raises(BadOption, match=r"^use range or anchor, not both$"):
        render_docx(doc, DocxOptions(range="bad", anchor="bad", window=99))
    for window in (-1, 51, True):
        with pytest.raises(BadOption, match=r"^window must be 0-50$"):
            render_docx(doc, DocxOptions(anchor="bad", window=window))
    # a window without an anchor is ignored
    assert render_docx(doc, DocxOptions(window=99)).content
    with pytest.raises(BadOption, match=r'^unknown scope "notes": use body, footnotes, endnotes'):
        render_docx(doc, DocxOptions(scope="notes", range="bad"))
    with pytest.raises(ValueError, match=r"out_cap"):
        render_docx(doc, DocxOptions(scope="notes", out_cap=0))
    with pytest.raises(BadOption, match=r"^invalid range"):
        render_docx(doc, DocxOptions(range="bad", grep="("))
    with pytest.raises(BadGrep, match=r"^invalid grep: missing \): \($"):
        render_docx(doc, DocxOptions(range="P1", grep="("))


def test_anchor_window_zero_cut_and_empty() -> None:
    doc = doc_of("x" * 100, "")
    first = Para("x" * 100)
    answer = render_docx(doc, DocxOptions(anchor=f"P1#{first.hash}", window=0, out_cap=30))
    assert answer.content == (f"[P1#{first.hash}]".ljust(24) + " " + "x" * 100)[:30]
    assert answer.note == "P1 cut to 30 of 125 characters"
    empty = render_docx(doc, DocxOptions(anchor=f"P2#{Para('').hash}", window=0))
    assert (empty.content, empty.first, empty.last, empty.note) == ("", 2, 2, "")


def test_window_zero_leaves_out_tables_of_the_block() -> None:
    answer = render_docx(WORKED_DOC, DocxOptions(anchor="P5#3f00", window=0))
    assert answer.content == WORKED.split("\n")[5]


def test_map_exact() -> None:
    paragraphs = [Para("Intro", 1), Para("text " * 20), Para("Deeper", 3), Para("more " * 20)]
    doc = DocxDoc("  A \n Title ", {"body": Story(tuple(paragraphs))})
    full = full_projection(doc)
    answer = render_docx(doc, DocxOptions(out_cap=len(full) - 1))
    p = paragraphs
    assert answer.content == (
        "# A Title\n\n"
        f"4 paragraphs · 0 tables · ~{len(full) // 4} tokens\n\n"
        "## Outline\n"
        f"- Intro [P1#{p[0].hash}]\n"
        f"    - Deeper [P3#{p[2].hash}]\n\n"
        'This document is longer than one answer: ask for range="Pa..Pb", '
        'anchor="P<n>#<hash>" or grep="pattern".\n\n' + full.split("\n")[0]
    )
    assert (answer.map, answer.first, answer.last, answer.note) == (True, 1, 1, "")


def test_map_singular_untitled_scope_and_outline_cut() -> None:
    paragraphs = tuple(Para(f"Heading {i}", 1) for i in range(40))
    doc = DocxDoc("", {"comments": Story(paragraphs, (Table(1, ("| a |",), 1),))})
    answer = render_docx(doc, DocxOptions(scope="comments", out_cap=600))
    assert answer.content.startswith(
        "# comments of Untitled document\n\n40 paragraphs · 1 table · "
    )
    assert "\n- … (" in answer.content and len(answer.content) <= 600
    one = DocxDoc("", {"body": Story((Para("word " * 50),))})
    assert "1 paragraph · 0 tables" in render_docx(one, DocxOptions(out_cap=100)).content


def test_map_leading_block_cut_to_quarter() -> None:
    doc = doc_of("y" * 400, "z")
    answer = render_docx(doc, DocxOptions(out_cap=400))
    leading = answer.content.rsplit("\n\n", 1)[1]
    assert leading == full_projection(doc).split("\n")[0][:100]
    assert (answer.first, answer.last) == (1, 1)
    tiny = render_docx(doc, DocxOptions(out_cap=5))
    assert tiny.content == "# Unt"


def test_tables_only_story() -> None:
    doc = DocxDoc("", {"body": Story((), (Table(0, ("| a | b |",), 2), Table(0, ("| c |",), 1)))})
    whole = render_docx(doc, DocxOptions())
    assert whole.content == "[T1  1×2 @start]         | a | b |\n[T2  1×1 @start]         | c |"
    cut = render_docx(doc, DocxOptions(out_cap=10))
    assert (cut.content, cut.note) == (
        whole.content[:10],
        f"T1 cut to 10 of {len(whole.content)} characters",
    )
    assert render_docx(doc, DocxOptions(grep="c")).grep_hits == 1


def test_grep_blocks_context_and_rows() -> None:
    answer = render_docx(WORKED_DOC, DocxOptions(grep="fee"))
    lines = WORKED.split("\n")
    assert answer.content == "\n".join(
        [
            'grep "fee": 2 matches',
            "  " + lines[3],
            "> " + lines[4],
            "  " + lines[5],
            "--",
            "  " + lines[4],
            "> " + lines[5],
            "  " + lines[6],
            "--",
        ]
    )
    assert (answer.grep_hits, answer.first, answer.last, answer.map) == (2, 0, 0, False)
    # prefixes and indents are not searched; smart case
    assert render_docx(WORKED_DOC, DocxOptions(grep="P1#")).grep_hits == 0
    assert render_docx(WORKED_DOC, DocxOptions(grep="^\\| Term")).grep_hits == 1
    assert render_docx(WORKED_DOC, DocxOptions(grep="Fee")).grep_hits == 2
    assert render_docx(WORKED_DOC, DocxOptions(grep="FEE")).grep_hits == 0


def test_grep_within_range_and_anchor() -> None:
    assert render_docx(WORKED_DOC, DocxOptions(grep="o", range="P6..P7")).grep_hits == 2
    answer = render_docx(WORKED_DOC, DocxOptions(grep="obligation", anchor="P6#ac86", window=0))
    assert answer.grep_hits == 1
    # context lines come from the projection even outside the searched lines
    assert answer.content.split("\n")[1] == "  " + WORKED.split("\n")[5]
    windowed = render_docx(WORKED_DOC, DocxOptions(grep="obligation", anchor="P6#ac86", window=1))
    assert windowed.grep_hits == 2


def test_grep_long_line_window_measured_in_the_line() -> None:
    text = "a" * 600 + "NEEDLE" + "b" * 600
    doc = doc_of("before", text)
    answer = render_docx(doc, DocxOptions(grep="NEEDLE"))
    line = full_projection(doc).split("\n")[1]
    start = line.index("NEEDLE") - 200
    assert answer.content.split("\n")[2] == "> …" + line[start : start + 400] + "…"


def test_grep_limits_and_notes() -> None:
    doc = doc_of(*(f"match {i}" for i in range(150)))
    answer = render_docx(doc, DocxOptions(grep="match"))
    assert answer.content.startswith('grep "match": 150 matches, showing the first 100\n')
    assert (
        answer.note
        == 'showing the first 100 of 150 matches; narrow the pattern or add range="Pa..Pb"'
    )
    small = render_docx(doc, DocxOptions(grep="match", out_cap=300))
    assert len(small.content) <= 300
    assert small.note.startswith("showing ") and small.note.endswith(
        'of 150 matches to fit OutCap; narrow the pattern or add range="Pa..Pb"'
    )
    with pytest.raises(BadGrep, match=r"^pattern longer than 200 bytes$"):
        render_docx(doc, DocxOptions(grep="x" * 201))
    assert render_docx(doc, DocxOptions(grep="nothing")).content == 'grep "nothing": no matches'
