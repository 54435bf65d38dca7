"""The Word walk from the map: a block the map cut is read by the next call."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from siftui.core.kinds import WORD
from siftui.core.word.index import StoryIndex, index_story
from siftui.core.word.model import DocxDoc, Para, Story, Table
from siftui.core.word.render import INSTRUCTION, DocxOptions, render_docx
from siftui.core.word.walk import DocxCall, next_docx_call, walk_docx


def sized_doc(sizes: list[int], tables: tuple[Table, ...] = ()) -> DocxDoc:
    """A body whose paragraph n has ``sizes[n-1]`` characters of text (0: empty)."""
    paras = tuple(
        Para(f"p{n} " + "x" * max(0, size - 3) if size else "") for n, size in enumerate(sizes, 1)
    )
    return DocxDoc("T", {"body": Story(paras, tables)})


def runes_read(index: StoryIndex, calls: list[DocxCall]) -> list[int]:
    """Per non-empty block, the most characters of its text that one call holds in
    its place (a map's leading lines, a range's blocks)."""
    seen = [0] * index.blocks
    for call in calls:
        answer = call.answer
        content = answer.content
        if answer.map:
            mark = f"\n\n{INSTRUCTION}\n\n"
            at = content.find(mark)
            if at < 0:
                continue
            content = content[at + len(mark) :]
        if not answer.first:
            continue
        offset = 0
        for number in range(answer.first, answer.last + 1):
            text = index.block_text(number)
            if not text:
                continue
            held = content[offset : offset + len(text)]
            assert text.startswith(held)
            seen[number - 1] = max(seen[number - 1], len(held))
            offset += len(text) + 1
    return [n for number, n in enumerate(seen, 1) if index.block_text(number)]


def blocks_of(index: StoryIndex) -> list[str]:
    return [t for t in (index.block_text(n) for n in range(1, index.blocks + 1)) if t]


def test_a_paragraph_the_map_cut_is_read_whole_when_it_fits() -> None:
    # stress011.docx at 300: P1 (218 characters) fits the OutCap but not the
    # map's quarter of it; the walk used to go on at P2.
    doc = sized_doc([193, 40, 40, 40, 40, 40, 40])
    index = index_story(doc.body)
    calls = walk_docx(doc, 300)
    assert calls[0].answer.map and calls[0].answer.last == 1
    assert calls[1].options == DocxOptions(range="P1..", out_cap=300)
    assert calls[1].answer.content.startswith(index.block_text(1) + "\n")
    assert runes_read(index, calls) == [len(text) for text in blocks_of(index)]


def test_a_map_cut_at_the_outcap_goes_on_at_its_first_block() -> None:
    doc = sized_doc([20] * 12)
    options = DocxOptions(out_cap=60)
    answer = render_docx(doc, options)
    assert answer.map and INSTRUCTION not in answer.content
    assert next_docx_call(options, answer, doc) == DocxOptions(range="P1..", out_cap=60)


def test_a_map_that_shows_its_blocks_whole_goes_on_after_them() -> None:
    doc = sized_doc([10, 0, 10, 2000, 10])
    options = DocxOptions(out_cap=1000)
    answer = render_docx(doc, options)
    assert answer.map and answer.last == 3
    assert next_docx_call(options, answer, doc) == DocxOptions(range="P4..", out_cap=1000)


def test_n_in_the_tui_asks_the_same_call() -> None:
    # The TUI's `n` asks the kind table, which asks next_docx_call.
    doc = sized_doc([193, 40, 40, 40, 40, 40, 40])
    options = DocxOptions(out_cap=300)
    answer = render_docx(doc, options)
    assert WORD.next_call(options, answer, doc) == DocxOptions(range="P1..", out_cap=300)


def test_other_scopes_walk_from_their_own_blocks() -> None:
    notes = Story((Para("^1 " + "y" * 190, item="^1"), Para("z" * 40), Para("w" * 300)))
    doc = DocxDoc("T", {"footnotes": notes})
    calls = walk_docx(doc, 300, "footnotes")
    assert calls[0].answer.map
    assert calls[1].options == DocxOptions(range="P1..", scope="footnotes", out_cap=300)
    index = index_story(notes)
    assert runes_read(index, calls) == [min(len(t), 300) for t in blocks_of(index)]


@settings(max_examples=300, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=8),
    first=st.integers(min_value=1, max_value=6000),
    out_cap=st.integers(min_value=1, max_value=4000),
    table_after=st.lists(st.integers(min_value=0, max_value=9), max_size=3),
    row=st.integers(min_value=0, max_value=1500),
)
def test_following_the_walk_reads_every_block_that_fits(
    sizes: list[int], first: int, out_cap: int, table_after: list[int], row: int
) -> None:
    # Brute force on generated documents, many of them with a P1 the map cuts:
    # every character of every block whose text fits the OutCap is read by some
    # call, of a longer block its first OutCap characters; no call is asked twice.
    count = len(sizes) + 1
    tables = tuple(
        Table(min(after, count), ("| " + "t" * row + " |",), 1) for after in sorted(table_after)
    )
    doc = sized_doc([first, *sizes], tables)
    index = index_story(doc.body)
    calls = walk_docx(doc, out_cap)
    assert runes_read(index, calls) == [min(len(text), out_cap) for text in blocks_of(index)]
    asked = [call.options for call in calls]
    assert len(asked) == len(set(asked))
