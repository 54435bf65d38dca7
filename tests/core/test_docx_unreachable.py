"""What no call shows of a Word story, checked against brute force over real calls.

Every call an agent can make that shows a block's text from a fixed place is
rendered: every range ``Pa..Pb`` and every anchor with window 0 (a wider window
is a range), and the map. Per block, the positions of its text that some answer
holds are recorded; the rest must be what docx_unreachable reports.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from siftui.core.budget import BYTES, utf8_cut, utf8_size
from siftui.core.kinds import WORD
from siftui.core.unreachable import unreachable_json, unreachable_text
from siftui.core.word.index import index_story
from siftui.core.word.model import DocxDoc, Para, Story, Table
from siftui.core.word.render import DocxOptions, render_docx
from siftui.core.word.unreachable import docx_unreachable

CORPUS = Path("/work/shared/corpus-docx")


def shown_positions(doc: DocxDoc, out_cap: int, unit: str = "chars") -> list[set[int]]:
    """Per block, the positions of its text that some range, anchor or the map shows
    (with the OutCap counted in ``unit``)."""
    story = doc.body
    index = index_story(story)
    seen: list[set[int]] = [set() for _ in range(index.blocks)]
    texts = [index.block_text(n) for n in range(1, index.blocks + 1)]

    def record(content: str, first: int, last: int) -> None:
        for number in range(first, last + 1):
            block = texts[number - 1]
            if block and block in content:
                seen[number - 1].update(range(len(block)))
            elif block and content and block.startswith(content):
                seen[number - 1].update(range(len(content)))

    count = story.count
    for first in range(1, count + 1):
        for last in range(first, count + 1):
            answer = render_docx(
                doc, DocxOptions(range=f"P{first}..P{last}", out_cap=out_cap, unit=unit)
            )
            record(answer.content, answer.first, answer.last)
        para = story.paragraphs[first - 1]
        at = index.para_line[first - 1]
        if at < 0:
            continue
        anchor = f"P{first}#{para.hash}"
        alone = render_docx(doc, DocxOptions(anchor=anchor, window=0, out_cap=out_cap, unit=unit))
        start = index.starts[first - 1]
        offset = sum(len(line) + 1 for line in index.lines[start:at])
        assert index.lines[at].startswith(alone.content)
        seen[first - 1].update(range(offset, offset + len(alone.content)))
    return seen


def generated(rng: random.Random) -> DocxDoc:
    paragraphs = []
    for number in range(rng.randint(1, 7)):
        size = rng.choice([0, 5, 40, 300, 900, 2500])
        paragraphs.append(Para(" ".join(f"w{number}x{i}" for i in range(size // 6))))
    tables = []
    for _ in range(rng.randint(0, 3)):
        rows = tuple("| " + "y" * rng.randint(1, 120) + " |" for _ in range(rng.randint(0, 12)))
        tables.append(Table(rng.randint(0, len(paragraphs)), rows, 1))
    return DocxDoc("T", {"body": Story(tuple(paragraphs), tuple(tables))})


@pytest.mark.parametrize("seed", range(40))
def test_generated_against_every_call(seed: int) -> None:
    rng = random.Random(seed)
    doc = generated(rng)
    index = index_story(doc.body)
    for out_cap in (50, 333, 1000, 2000):
        found = docx_unreachable(doc, out_cap)
        seen = shown_positions(doc, out_cap)
        expected = {
            number: len(index.block_text(number)) - len(seen[number - 1])
            for number in range(1, index.blocks + 1)
            if len(index.block_text(number)) - len(seen[number - 1]) > 0
        }
        if doc.body.count == 0:
            expected = {}  # the tables-only block: T1 cut, shown from its start
            length = len(index.block_text(1)) if index.blocks else 0
            if length > out_cap:
                expected[1] = length - out_cap
        assert {reach.page: reach.runes for reach in found.pages} == expected, (seed, out_cap)
        for reach in found.pages:
            assert 0 <= reach.grep_reachable_runes <= reach.runes


# Words of 1, 2, 3 and 4 bytes a character: a cut in bytes falls elsewhere than in code points.
_WORDS = ("ab", "é", "中文", "😀", "x中")


def generated_mixed(rng: random.Random) -> DocxDoc:
    paragraphs = []
    for _ in range(rng.randint(1, 6)):
        size = rng.choice([0, 3, 30, 150, 500])
        paragraphs.append(Para(" ".join(rng.choice(_WORDS) for _ in range(size))))
    tables = []
    for _ in range(rng.randint(0, 2)):
        rows = tuple("| " + "表" * rng.randint(1, 60) + " |" for _ in range(rng.randint(0, 6)))
        tables.append(Table(rng.randint(0, len(paragraphs)), rows, 1))
    return DocxDoc("T", {"body": Story(tuple(paragraphs), tuple(tables))})


@pytest.mark.parametrize("seed", range(30))
def test_bytes_against_every_call(seed: int) -> None:
    """In bytes, what is reported unreachable is exactly the text no range= or anchor=
    call at that OutCap in bytes shows, and the smallest OutCap is the largest block's
    UTF-8 size."""
    rng = random.Random(seed)
    doc = generated_mixed(rng)
    index = index_story(doc.body)
    sizes = [utf8_size(index.block_text(n)) for n in range(1, index.blocks + 1)]
    for out_cap in (40, 301, 1000):
        found = docx_unreachable(doc, out_cap, unit=BYTES)
        seen = shown_positions(doc, out_cap, "bytes")
        expected = {
            number: len(index.block_text(number)) - len(seen[number - 1])
            for number in range(1, index.blocks + 1)
            if len(index.block_text(number)) - len(seen[number - 1]) > 0
        }
        if doc.body.count == 0:
            expected = {}
            text = index.block_text(1) if index.blocks else ""
            if utf8_size(text) > out_cap:
                expected[1] = len(text) - len(utf8_cut(text, out_cap))
        assert {reach.page: reach.runes for reach in found.pages} == expected, (seed, out_cap)
        assert found.smallest_out_cap == max([size for size in sizes if size], default=1)
        for reach in found.pages:
            assert 0 <= reach.grep_reachable_runes <= reach.runes
        assert WORD.unreachable(doc, out_cap, "body", BYTES) == found


def test_cjk_fits_in_code_points_not_in_bytes() -> None:
    doc = DocxDoc("T", {"body": Story((Para("中" * 900), Para("short")))})
    assert docx_unreachable(doc, 1000).pages == ()
    found = docx_unreachable(doc, 1000, unit=BYTES)
    # The line is "[P1#hash]", padding (25 ASCII bytes) and 900 characters of 3 bytes:
    # 1,000 bytes hold 325 of them, whether a range or an anchor shows the line.
    prefix = len(index_story(doc.body).block_text(1)) - 900
    assert prefix == 25
    assert [(r.page, r.runes, r.block_runes) for r in found.pages] == [(1, 900 - 325, 925)]
    assert found.smallest_out_cap == 25 + 2700


def test_the_kind_table_gives_word_one() -> None:
    doc = DocxDoc("T", {"body": Story((Para("a" * 3000), Para("short")))})
    found = WORD.unreachable(doc, 1000)
    assert found is not None and found.unit == "paragraph"
    length = len(index_story(doc.body).block_text(1))
    assert [(r.page, r.runes, r.block_runes) for r in found.pages] == [(1, length - 1000, length)]
    # One line of text: a grep can show all of it but nothing of what is not text.
    assert found.pages[0].grep_reachable_runes == length - 1000
    text = unreachable_text(found)
    assert text.startswith(
        f"unreachable by range= or anchor= at OutCap 1,000: {length - 1000:,} runes "
    )
    assert f"  P1: {length - 1000:,} of {length:,} runes" in text
    assert text.endswith(
        f"nothing is unreachable from OutCap {length:,} up: the largest block (P1)\n"
    )
    data = unreachable_json(found)
    assert data["paragraphs"] == [
        {"paragraph": 1, "runes": length - 1000, "grep_reachable_runes": length - 1000}
    ]
    assert data["largest_block_paragraph"] == 1


def test_nothing_unreachable_and_bad_outcap() -> None:
    doc = DocxDoc("T", {"body": Story((Para("short"),))})
    found = docx_unreachable(doc, 1000)
    assert found.pages == () and unreachable_text(found).startswith(
        "unreachable by range= or anchor= at OutCap 1,000: nothing\n"
    )
    assert docx_unreachable(DocxDoc("T", {}), 10).smallest_out_cap == 1
    with pytest.raises(ValueError):
        docx_unreachable(doc, 0)


@pytest.mark.skipif(not (CORPUS / "bug57031.docx").is_file(), reason="corpus not present")
def test_bug57031_at_2000() -> None:
    from siftui.sources.word.read import read_docx

    doc = read_docx(CORPUS / "bug57031.docx")
    found = docx_unreachable(doc, 2000)
    assert [(r.page, r.block_runes) for r in found.pages] == [(72, 4238), (79, 3441), (90, 2755)]
    assert found.runes == sum(r.block_runes - 2000 for r in found.pages)


def test_a_story_of_tables_alone_names_its_block_t1_not_a_paragraph() -> None:
    """N = 0: the tables are one block, answered cut (note `T1 cut to ...`); there is no
    P1 to name (range=P1 is refused), so the walk names T1 and the JSON paragraph 0."""
    rows = tuple(f"| row {n} | {'x' * 40} |" for n in range(8))
    doc = DocxDoc("T", {"body": Story((), (Table(0, rows, 2),))})
    first = render_docx(doc, DocxOptions(out_cap=100))
    assert first.note.startswith("T1 cut to 100 of ") and (first.first, first.last) == (0, 0)
    found = docx_unreachable(doc, 100)
    block = len(index_story(doc.body).block_text(1))  # the tables' lines, prefixes and all
    assert [(p.page, p.runes) for p in found.pages] == [(0, block - 100)]
    assert found.largest_block_page == 0 and found.smallest_out_cap == block
    text = unreachable_text(found)
    assert "on 1 block of tables" in text and "  T1: " in text and "P1" not in text
    assert text.endswith(
        f"nothing is unreachable from OutCap {block:,} up: the largest block (T1)\n"
    )
    data = unreachable_json(found)
    assert data["paragraphs"] == [{"paragraph": 0, "runes": block - 100, "grep_reachable_runes": 0}]
    assert data["largest_block_paragraph"] == 0
    whole = docx_unreachable(doc, block)
    assert not whole.pages and "the largest block (T1)" in unreachable_text(whole)
    empty = docx_unreachable(DocxDoc("T", {"body": Story((Para(""),))}), 10)
    assert unreachable_text(empty).endswith("the story has no text\n")
