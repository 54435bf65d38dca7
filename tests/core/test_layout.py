"""siftui.core.layout: an answer's pages and line roles, from the structure render() builds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from siftui.core.doc import Doc, OutlineItem
from siftui.core.docindex import index_of, marker
from siftui.core.layout import AnswerKind, Role, layout_of, pages_label
from siftui.core.render import BadGrep, BadPages, Options, render

DOC = Doc(
    "Title",
    7,
    ("alpha\nbeta", "", "gamma " * 50, "--- page 5 ---\nnot a marker", "delta\nalpha again"),
    (OutlineItem(1, "One", 1), OutlineItem(2, "Two", 3)),
)


def roles_at(options: Options, doc: Doc = DOC) -> list[tuple[str, Role, int]]:
    answer = render(doc, options)
    layout = layout_of(answer, options, doc)
    return list(zip(layout.lines, layout.roles, layout.line_pages, strict=True))


def test_a_page_range_marks_each_marker_and_its_page() -> None:
    layout = layout_of(render(DOC, Options(pages="1-2")), Options(pages="1-2"), DOC)
    assert layout.kind is AnswerKind.PAGES
    assert layout.lines[0] == marker(1) and layout.roles[0] is Role.MARKER
    assert layout.marker_page(0) == 1
    second = layout.lines.index(marker(2))
    assert layout.roles[second] is Role.MARKER and layout.line_pages[second] == 2
    assert layout.whole == (1, 2) and layout.cut == 0 and layout.cap_page == 0


def test_a_marker_written_in_the_page_text_is_text() -> None:
    rows = roles_at(Options(pages="4"))
    assert rows[0] == (marker(4), Role.MARKER, 4)
    assert ("--- page 5 ---", Role.TEXT, 4) in rows


def test_a_cut_page_and_where_outcap_runs_out() -> None:
    options = Options(pages="3", out_cap=50)
    layout = layout_of(render(DOC, options), options, DOC)
    assert layout.cut == 3 and layout.whole == () and layout.cap_page == 3
    options = Options(pages="1-5", out_cap=200)
    answer = render(DOC, options)
    layout = layout_of(answer, options, DOC)
    assert answer.last == 2 and layout.whole == (1, 2) and layout.cap_page == 3


def test_the_map_head_outline_and_instruction() -> None:
    options = Options(out_cap=400)
    answer = render(DOC, options)
    assert answer.map
    layout = layout_of(answer, options, DOC)
    assert layout.kind is AnswerKind.MAP
    roles = dict(zip(layout.lines, layout.roles, strict=False))
    assert layout.roles[0] is Role.TITLE and layout.roles[2] is Role.STATS
    assert roles["## Outline"] is Role.HEADING
    assert roles["- One (p. 1)"] is Role.OUTLINE and roles["  - Two (p. 3)"] is Role.OUTLINE
    instruction = next(n for n, role in enumerate(layout.roles) if role is Role.INSTRUCTION)
    assert layout.lines[instruction].startswith("This document is longer")
    assert layout.roles[instruction + 2] is Role.MARKER
    assert layout.line_pages[instruction + 2] == 1
    assert layout.cap_page == 0  # a map answers for the whole document


def test_grep_lines_and_the_pages_holding_hits() -> None:
    options = Options(grep="alpha")
    layout = layout_of(render(DOC, options), options, DOC)
    assert layout.kind is AnswerKind.GREP and layout.hits == (1, 5) and layout.cap_page == 0
    rows = list(zip(layout.lines, layout.roles, strict=True))
    assert rows[0][1] is Role.GREP_HEADER
    assert ("p. 1: alpha", Role.MATCH) in rows and ("p. 1- beta", Role.CONTEXT) in rows
    assert ("--", Role.SEPARATOR) in rows
    match = layout.lines.index("p. 5: alpha again")
    assert layout.prefix_length(match) == len("p. 5: ")


def test_a_pattern_holding_a_newline_keeps_its_header_lines() -> None:
    doc = Doc("t", 1, ("p. 3: looks like a hit",))
    options = Options(grep="x\np. 3: y|looks")
    layout = layout_of(render(doc, options), options, doc)
    assert layout.roles[:2] == (Role.GREP_HEADER, Role.GREP_HEADER)
    assert layout.hits == (1,)


def test_pages_label_words() -> None:
    assert pages_label(25, 25) == "page 25"
    assert pages_label(3, 5) == "pages 3-5"
    assert pages_label(0, 0) == "no pages"


def test_an_empty_document() -> None:
    doc = Doc("none", 3, ())
    layout = layout_of(render(doc, Options()), Options(), doc)
    assert layout.kind is AnswerKind.EMPTY and layout.lines == () and layout.whole == ()


page_text = st.text(alphabet=st.sampled_from("ab \n-p.:1é中"), max_size=60)
docs = st.builds(
    lambda pages, outline: Doc("T", len(pages) + 1, tuple(pages), tuple(outline)),
    st.lists(page_text, min_size=1, max_size=8),
    st.lists(
        st.builds(OutlineItem, st.integers(1, 3), st.text("xy ", max_size=8), st.integers(0, 9)),
        max_size=4,
    ),
)
options = st.builds(
    Options,
    pages=st.sampled_from(["", "1", "2-", "1-3", "3-9", "2-2"]),
    grep=st.sampled_from(["", "a", "b+", "^p", "中"]),
    out_cap=st.integers(1, 400),
)


@settings(max_examples=150, deadline=None)
@given(docs, options)
def test_layout_matches_the_answer(doc: Doc, opts: Options) -> None:
    try:
        answer = render(doc, opts)
    except (BadPages, BadGrep):
        return
    layout = layout_of(answer, opts, doc)
    assert len(layout.roles) == len(layout.line_pages) == len(layout.lines)
    assert "\n".join(layout.lines) == answer.content
    if opts.grep:
        shown = {
            p for line in layout.lines[1:] for p in range(1, 9) if line.startswith(f"p. {p}: ")
        }
        assert set(layout.hits) == shown
        return
    if answer.first >= 1:
        assert sorted({*layout.whole, *([layout.cut] if layout.cut else [])}) == list(
            range(answer.first, answer.last + 1)
        )
    index = index_of(doc)
    # Every marker line opens its page's block, and each page's block opens with one.
    for number, role in enumerate(layout.roles):
        if role is Role.MARKER:
            page = layout.line_pages[number]
            assert marker(page).startswith(layout.lines[number])  # a cut answer may end in it
            rest = "\n".join(layout.lines[number:])
            block = index.blocks[page - 1]
            assert rest.startswith(block) or block.startswith(rest)
    markers = [layout.line_pages[n] for n, r in enumerate(layout.roles) if r is Role.MARKER]
    if not answer.map and answer.first >= 1:
        assert markers == list(range(answer.first, answer.last + 1))
    if "--- page" not in "".join(doc.pages):
        # Without the Doc (a logged answer) the lines' roles are the same.
        assert layout_of(answer, opts).roles == layout.roles
