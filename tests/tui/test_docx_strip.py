"""The page strip for a Word story: its paragraph blocks, headings marked, words in paragraphs.

The app cannot open a .docx yet, so the widget is mounted alone in a tiny app with
the project's stylesheet and given a hand-made answer (facts and layout).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import cast

from rich.text import Text
from support.docx_worked import WORKED_DOC
from textual.app import App, ComposeResult

from siftui.core.word.layout import docx_layout_of
from siftui.core.word.model import DocxDoc, Para, Story, Table
from siftui.core.word.render import DocxOptions, render_docx
from siftui.tui.state import Answer
from siftui.tui.strip_model import (
    PageState,
    cells,
    docx_facts_of,
    page_kinds,
    span_label,
    units_label,
)
from siftui.tui.widgets.pagestrip import PageStrip

STYLESHEET = Path(__file__).resolve().parents[2] / "siftui" / "tui" / "siftui.tcss"


def test_facts_of_the_worked_example_are_its_blocks() -> None:
    facts = docx_facts_of(WORKED_DOC)
    assert facts.unit == "paragraph" and facts.page_count == 8
    assert facts.headings == (1, 0, 0, 2, 0, 0, 0, 0)
    assert facts.empty == (False, False, True, False, False, False, False, False)
    lines = render_docx(WORKED_DOC, DocxOptions()).content.split("\n")
    assert facts.block_sizes[0] == len(lines[0]) and facts.block_sizes[2] == 0
    # block 5: T1's two lines and P5's line, joined by "\n"
    assert facts.block_sizes[4] == len("\n".join(lines[3:6]))
    assert sum(facts.block_sizes) + 7 - 1 == len("\n".join(lines))  # 7 non-empty blocks


def test_a_story_without_paragraphs_has_no_unit() -> None:
    doc = DocxDoc("", {"headers": Story((), (Table(0, ("| a |",), 1),))})
    facts = docx_facts_of(doc, "headers")
    assert facts.page_count == 0 and facts.block_sizes == () and facts.headings == ()
    assert cells(facts, [], 10) == []


def test_a_range_colours_its_blocks_and_cells_keep_their_highest_heading() -> None:
    options = DocxOptions(range="P5..P6")
    facts = docx_facts_of(WORKED_DOC)
    layout = docx_layout_of(render_docx(WORKED_DOC, options), options, WORKED_DOC)
    kinds = page_kinds(facts, layout)
    assert [n for n, kind in enumerate(kinds, 1) if kind is PageState.WHOLE] == [5, 6]
    assert kinds[2] is PageState.EMPTY  # P3, the empty paragraph
    one_each = cells(facts, kinds, 8)
    assert [cell.heading for cell in one_each] == [1, 0, 0, 2, 0, 0, 0, 0]
    pairs = cells(facts, kinds, 4)
    assert [(cell.first, cell.last, cell.heading) for cell in pairs] == [
        (1, 2, 1),
        (3, 4, 2),
        (5, 6, 0),
        (7, 8, 0),
    ]
    doc = DocxDoc("", {"body": Story((Para("a", heading=3), Para("b", heading=2), Para("c")))})
    assert cells(docx_facts_of(doc), [PageState.OTHER] * 3, 1)[0].heading == 2


def test_labels_name_pages_or_paragraphs() -> None:
    assert span_label("page", 3, 5) == "p. 3-5" and span_label("page", 4, 4) == "p. 4"
    assert span_label("paragraph", 12, 20) == "P12-P20" and span_label("paragraph", 7, 7) == "P7"
    assert units_label("paragraph", 12, 20) == "paragraphs 12-20"
    assert units_label("page", 3, 3) == "page 3"


class StripApp(App[None]):
    CSS_PATH = STYLESHEET

    def compose(self) -> ComposeResult:
        yield PageStrip(id="strip")


async def drawn(doc: DocxDoc, options: DocxOptions, width: int = 60) -> tuple[Text, list[str]]:
    """The strip's text and its cells' tooltips for ``options`` on ``doc``."""
    facts = docx_facts_of(doc, options.scope)
    layout = docx_layout_of(render_docx(doc, options), options, doc)
    app = StripApp()
    async with app.run_test(size=(width, 6)) as pilot:
        strip = app.query_one(PageStrip)
        # Only what the strip reads of an answer (the app's Answer is the lead's to extend).
        answer = SimpleNamespace(facts=facts, layout=layout, unreachable=None)
        strip.answer = cast(Answer, answer)
        await pilot.pause()
        return strip.render(), [strip.tip(cell) for cell in strip.current_cells()]


def test_the_widget_marks_headings_and_speaks_of_paragraphs() -> None:
    text, tips = asyncio.run(drawn(WORKED_DOC, DocxOptions(range="P1..P8", out_cap=150), 120))
    row, legend = text.plain.split("\n")
    assert len(row) == 8
    assert "OutCap runs out at P4" in legend and "p. " not in legend
    assert "▆ heading" in legend
    assert tips[0] == "P1 · whole · H1 heading · 50 runes · ~12 tokens"  # its whole line
    assert tips[3].startswith("P4 · other · H2 heading · ")
    assert tips[1].startswith("P2 · whole · ") and "heading" not in tips[1]
    styles = {span.start: span.style for span in text.spans if span.end <= len(row)}
    heading, plain = styles[0], styles[1]
    assert not isinstance(heading, str) and not isinstance(plain, str)
    assert heading.underline and not plain.underline
    assert heading.bgcolor is not None and heading.bgcolor != plain.bgcolor
    assert heading.color == plain.color  # P1 and P2 are both whole: the colour is kept


def test_without_headings_the_legend_has_no_heading_mark() -> None:
    doc = DocxDoc("", {"body": Story((Para("a"), Para("b")))})
    assert not any(docx_facts_of(doc).headings)
    text, tips = asyncio.run(drawn(doc, DocxOptions(range="P1")))
    assert "heading" not in text.plain and "▆ whole" in text.plain
    # a block's size is its lines' length, prefix included: "[P1#ca97]" padded, " a"
    assert tips == ["P1 · whole · 26 runes · ~6 tokens", "P2 · other · 26 runes · ~6 tokens"]
    assert not any(span.style.underline for span in text.spans if not isinstance(span.style, str))
