"""siftui.core.word.layout: a Word answer's blocks and line roles (docs/WORD.md D1-D5)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.docx_strategies import PATTERNS, paras, stories, texts
from support.docx_worked import WORKED, WORKED_DOC

from siftui.core.layout import AnswerKind, Layout, Role
from siftui.core.word.index import index_story
from siftui.core.word.layout import docx_layout_of
from siftui.core.word.layout_rows import anchor_length
from siftui.core.word.model import SCOPES, DocxDoc, Para, Story, Table
from siftui.core.word.render import BadGrep, BadOption, DocxOptions, full_projection, render_docx

_ANCHOR = re.compile(r"\[P([0-9]+)#[0-9a-f]{4}(?:  [^\]]*)?\]")


def both(options: DocxOptions, doc: DocxDoc = WORKED_DOC) -> tuple[Layout, Layout]:
    """The layout with the doc and without it (as from a call log)."""
    answer = render_docx(doc, options)
    return docx_layout_of(answer, options, doc), docx_layout_of(answer, options)


def test_the_worked_model_is_the_worked_example() -> None:
    assert full_projection(WORKED_DOC) == WORKED


def test_whole_answer_blocks_roles_and_anchor_prefixes() -> None:
    layout, logged = both(DocxOptions())
    assert layout.kind is AnswerKind.FULL and layout == logged
    assert layout.line_pages == (1, 2, 4, 5, 5, 5, 6, 7, 8)
    assert layout.roles == (Role.ANCHOR,) * 3 + (Role.TEXT,) * 2 + (Role.ANCHOR,) * 4
    assert layout.whole == tuple(range(1, 9)) and layout.cut == 0 and layout.cap_page == 0
    assert layout.prefix_length(0) == len("[P1#515a  H1]")
    assert layout.prefix_length(6) == len("[P6#ac86  List:ol L1]")
    assert layout.prefix_length(3) == 0  # a table's prefix line is text


def test_a_range_holds_the_tables_of_its_first_block() -> None:
    layout, logged = both(DocxOptions(range="P5..P6"))
    assert layout.kind is AnswerKind.PAGES and layout == logged
    assert layout.lines[0].startswith("[T1  2×2 @after:P4]")
    assert layout.line_pages == (5, 5, 5, 6) and layout.whole == (5, 6)
    assert layout.roles == (Role.TEXT, Role.TEXT, Role.ANCHOR, Role.ANCHOR)


def test_an_anchor_with_window_zero_is_its_line_alone() -> None:
    layout, logged = both(DocxOptions(anchor="P5#3f00", window=0))
    assert layout == logged
    assert layout.lines[0].startswith("[P5#3f00]") and len(layout.lines) == 1
    assert layout.line_pages == (5,) and layout.whole == (5,) and layout.cut == 0
    wide, _ = both(DocxOptions(anchor="p6#AC86", window=1))
    assert wide.line_pages == (5, 5, 5, 6, 7) and wide.whole == (5, 6, 7)


def test_where_outcap_runs_out_and_a_cut_block() -> None:
    layout, logged = both(DocxOptions(range="P1..P8", out_cap=150))
    # "cut at P3; ask for range=...": P3 is the empty paragraph, its block has no lines
    assert layout.cap_page == logged.cap_page == 4
    assert layout.whole == (1, 2, 3) and layout.cut == 0 and layout.line_pages == (1, 2)
    cut, logged = both(DocxOptions(range="P5..", out_cap=30))
    assert cut.cut == logged.cut == 5 and cut.whole == () and cut.cap_page == 5
    assert cut.line_pages == (5,) and cut.roles == (Role.TEXT,)
    alone, logged = both(DocxOptions(anchor="P2#ca49", window=0, out_cap=12))
    assert alone.cut == logged.cut == 2 and alone.cap_page == 2
    assert alone.roles == (Role.ANCHOR,) and alone.prefix_length(0) == len("[P2#ca49]")


def test_an_empty_paragraph_alone() -> None:
    story = WORKED_DOC.body
    options = DocxOptions(anchor=f"P3#{story.paragraphs[2].hash}", window=0)
    layout, logged = both(options)
    assert layout.kind is AnswerKind.EMPTY and layout.lines == () and layout.whole == (3,)
    assert layout == logged


def test_the_map_points_its_outline_at_paragraphs() -> None:
    layout, logged = both(DocxOptions(out_cap=400))
    assert layout.kind is AnswerKind.MAP
    rows = list(zip(layout.lines, layout.roles, layout.line_pages, strict=True))
    assert rows[0] == ("# Master Services Agreement", Role.TITLE, 0)
    assert rows[2][1] is Role.STATS
    assert ("## Outline", Role.HEADING, 0) in rows
    assert ("- Master Services Agreement [P1#515a]", Role.OUTLINE, 1) in rows
    assert ("  - Definitions [P4#8775]", Role.OUTLINE, 4) in rows
    instruction = layout.roles.index(Role.INSTRUCTION)
    assert layout.line_pages[instruction + 2] == 1
    assert layout.roles[instruction + 2] is Role.ANCHOR
    assert layout.line_pages == logged.line_pages and layout.roles == logged.roles
    assert layout.cap_page == 0


def test_grep_finds_table_rows_and_paragraphs() -> None:
    layout, logged = both(DocxOptions(grep="Fee"))
    assert layout.kind is AnswerKind.GREP and layout.hits == (5,) == logged.hits
    assert layout.roles[0] is Role.GREP_HEADER
    row = layout.lines.index("> " + " " * 25 + "| Fee | 10 \\| 20 |")
    assert layout.roles[row] is Role.MATCH and layout.line_pages[row] == 5
    assert layout.prefix_length(row) == 27 == logged.prefix_length(row)
    para = next(n for n, line in enumerate(layout.lines) if line.startswith("> [P5#3f00]"))
    assert layout.lines[para][layout.prefix_length(para) :].startswith('"Fee" means')
    # Without the doc, a row shown as context after a separator has no block known.
    assert layout.roles == logged.roles and layout.prefixes == logged.prefixes
    assert logged.line_pages[5] == 0 and layout.line_pages[5] == 5
    first_row, _ = both(DocxOptions(grep="Term"))
    match = first_row.roles.index(Role.MATCH)
    assert first_row.lines[match][first_row.prefix_length(match) :] == "| Term | Value |"
    assert first_row.line_pages[match] == 5


def test_grep_within_an_anchor_window_zero() -> None:
    layout, logged = both(DocxOptions(grep="obligation", anchor="P7#9793", window=0))
    assert layout.hits == (7,) == logged.hits
    assert layout.roles.count(Role.MATCH) == 1


def test_a_long_match_line_is_windowed_past_its_prefix() -> None:
    text = "x" * 700 + " needle " + "y" * 300
    doc = DocxDoc("", {"body": Story((Para("a"), Para(text)))})
    layout, logged = both(DocxOptions(grep="needle"), doc)
    match = layout.roles.index(Role.MATCH)
    shown = layout.lines[match]
    assert shown.startswith("> …") and layout.prefix_length(match) == 3
    assert layout.hits == (2,) and layout.line_pages[match] == 2
    assert logged.prefix_length(match) == 3 and logged.line_pages[match] == 0  # best effort


def test_tables_only_story_has_no_paragraph_blocks() -> None:
    doc = DocxDoc("", {"footers": Story((), (Table(0, ("| a |", "| b |"), 1),))})
    layout, logged = both(DocxOptions(scope="footers"), doc)
    assert layout.kind is AnswerKind.FULL and layout.line_pages == (0, 0) and layout.whole == ()
    assert layout == logged
    found, _ = both(DocxOptions(scope="footers", grep="b"), doc)
    assert found.hits == () and found.roles.count(Role.MATCH) == 1


# -- properties ------------------------------------------------------------------


@st.composite
def cases(draw: st.DrawFn) -> tuple[DocxDoc, DocxOptions]:
    story = draw(stories())
    scope = draw(st.sampled_from(SCOPES))
    doc = DocxDoc(draw(texts), {scope: story})
    count = story.count
    mode = draw(st.sampled_from(["none", "range", "anchor"]))
    range_, anchor, window = "", "", draw(st.sampled_from([0, 0, 1, 2, 6]))
    if mode == "range" and count:
        a = draw(st.integers(1, count))
        b = draw(st.integers(a, count + 2))
        range_ = draw(st.sampled_from([f"P{a}..P{b}", f"P{a}", f"P{a}.."]))
    elif mode == "anchor" and count:
        n = draw(st.integers(1, count))
        anchor = f"P{n}#{story.paragraphs[n - 1].hash}"
    grep = draw(st.one_of(st.just(""), PATTERNS))
    out_cap = draw(st.one_of(st.integers(1, 120), st.integers(1, 3000)))
    return doc, DocxOptions(range_, anchor, window, grep, scope, out_cap)


def check_layout(doc: DocxDoc, options: DocxOptions) -> None:
    try:
        answer = render_docx(doc, options)
    except (BadOption, BadGrep):
        return
    layout = docx_layout_of(answer, options, doc)
    logged = docx_layout_of(answer, options)
    lines = tuple(answer.content.split("\n")) if answer.content else ()
    assert layout.lines == logged.lines == lines
    for made in (layout, logged):
        assert len(made.roles) == len(made.line_pages) == len(made.prefixes) == len(lines)
    for number, role in enumerate(layout.roles):
        if role is Role.ANCHOR:
            found = _ANCHOR.match(lines[number])
            if found is None:  # cut inside its prefix: only the last line
                assert number == len(lines) - 1
                continue
            assert int(found.group(1)) == layout.line_pages[number]
            assert layout.prefix_length(number) == found.end()
    index = index_story(doc.stories[options.scope])
    if options.grep:
        check_grep(layout, logged, index.lines, index.texts)
        return
    check_blocks(answer.first, answer.last, answer.note, layout)
    if layout.cut == 0:  # not cut: the logged answer's blocks are the same
        assert logged.line_pages == layout.line_pages and logged.roles == layout.roles
    if not answer.map:
        assert (logged.whole, logged.cut, logged.cap_page) == (
            layout.whole,
            layout.cut,
            layout.cap_page,
        )


def check_blocks(first: int, last: int, note: str, layout: Layout) -> None:
    shown = {*layout.whole, *([layout.cut] if layout.cut else [])}
    if layout.kind is AnswerKind.MAP:
        assert shown <= set(range(1, last + 1))
        leading = (
            layout.roles.index(Role.INSTRUCTION) + 2 if Role.INSTRUCTION in layout.roles else 0
        )
        assert {page for page in layout.line_pages[leading:] if page} <= set(range(1, last + 1))
        return
    if first < 1:
        assert shown == set() and not any(layout.line_pages)
        return
    assert shown == set(range(first, last + 1))
    cut = re.match(r"P([0-9]+) cut to ", note)
    assert layout.cut == (int(cut.group(1)) if cut else 0)
    stop = re.match(r"cut at P([0-9]+);", note)
    if layout.kind is AnswerKind.PAGES:
        assert layout.cap_page == (layout.cut or (int(stop.group(1)) + 1 if stop else 0))
    else:
        assert layout.cap_page == 0
    assert {page for page in layout.line_pages} <= shown | ({0} if first < 1 else set())


def check_grep(
    layout: Layout, logged: Layout, projection: tuple[str, ...], texts: tuple[str | None, ...]
) -> None:
    matches = [n for n, role in enumerate(layout.roles) if role is Role.MATCH]
    assert len(matches) == layout.roles.count(Role.SEPARATOR)
    assert set(layout.hits) == {layout.line_pages[n] for n in matches} - {0}
    assert layout.roles == logged.roles
    for number in matches:
        line = layout.lines[number]
        text = line[layout.prefix_length(number) :]
        if not line.startswith("> …"):  # a line as it stands in the projection
            assert line[2:] in projection
            at = projection.index(line[2:])
            assert text == texts[at]
            assert logged.prefix_length(number) == layout.prefix_length(number)
        if _ANCHOR.match(line[2:]):
            assert logged.line_pages[number] == layout.line_pages[number]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_layout_agrees_with_the_answer(case: tuple[DocxDoc, DocxOptions]) -> None:
    check_layout(*case)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_layout_agrees_with_the_answer_long(case: tuple[DocxDoc, DocxOptions]) -> None:
    check_layout(*case)


@given(st.tuples(paras, st.integers(1, 10**12)))
def test_anchor_length_is_the_prefix_length(case: tuple[Para, int]) -> None:
    para, number = case
    assert anchor_length(para, number) == len(para.prefix(number))


def test_an_answer_from_another_story_is_read_as_a_logged_one() -> None:
    options = DocxOptions(range="P5..P6")
    answer = render_docx(WORKED_DOC, options)
    short = DocxDoc("", {"body": Story((Para("x"),))})
    assert docx_layout_of(answer, options, short) == docx_layout_of(answer, options)


def test_grep_layout_is_remembered_with_the_story() -> None:
    options = DocxOptions(grep="obligation")
    answer = render_docx(WORKED_DOC, options)
    first = docx_layout_of(answer, options, WORKED_DOC)
    assert ("layout-grep", "obligation", 0, 9) in WORKED_DOC.body.cache
    assert docx_layout_of(answer, options, WORKED_DOC) == first
    assert first.hits == (6, 7)


def test_a_map_cut_before_its_leading_blocks_shows_none() -> None:
    story = Story(tuple(Para("0" * n) for n in range(1, 11)))
    doc = DocxDoc("000000", {"footnotes": story})
    options = DocxOptions(scope="footnotes", out_cap=168)
    answer = render_docx(doc, options)
    assert answer.map and answer.content.endswith("\n\n")
    layout, logged = both(options, doc)
    assert layout == logged and layout.whole == () and layout.cut == 0
    assert layout.roles[-1] is Role.TEXT and layout.line_pages[-1] == 0
