"""The page strip's model, the call history, and following notes in the TUI."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from support.tui_support import long_doc, run, settle, uneven_doc, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from siftui.core.doc import Doc
from siftui.core.layout import layout_of
from siftui.core.render import Options, render
from siftui.core.walk import walk
from siftui.tui.app import SiftApp
from siftui.tui.history import CallHistory
from siftui.tui.screens import WalkScreen
from siftui.tui.state import Request
from siftui.tui.strip_model import PageState, cells, facts_of, page_kinds
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.pagestrip import PageStrip, _style_of

DOC = Doc("T", 6, ("a" * 100, "", "b" * 300, "c" * 50, "d" * 2000))


def kinds_for(doc: Doc, options: Options) -> list[PageState]:
    return page_kinds(facts_of(doc), layout_of(render(doc, options), options, doc))


def test_kinds_for_a_page_range_cut_in_the_middle() -> None:
    answer = render(DOC, Options(pages="3-5", out_cap=400))
    assert answer.first == 3 and answer.last == 4
    assert kinds_for(DOC, Options(pages="3-5", out_cap=400)) == [
        PageState.OTHER,
        PageState.EMPTY,
        PageState.WHOLE,
        PageState.WHOLE,
        PageState.OTHER,
        PageState.MISSING,
    ]


def test_a_page_cut_to_fit_is_marked_cut() -> None:
    answer = render(DOC, Options(pages="5", out_cap=500))
    assert answer.note.startswith("page 5 cut to 500")
    assert kinds_for(DOC, Options(pages="5", out_cap=500))[4] is PageState.CUT


def test_grep_marks_pages_with_shown_hits() -> None:
    kinds = kinds_for(DOC, Options(grep="b|d"))
    assert [page for page, kind in enumerate(kinds, 1) if kind is PageState.HIT] == [3, 5]


def test_an_empty_page_in_the_answer_keeps_its_mark_and_blank_pages_are_told_apart() -> None:
    facts = facts_of(DOC)
    kinds = kinds_for(DOC, Options(pages="1-3"))
    assert kinds[1] is PageState.WHOLE
    assert cells(facts, kinds, 80)[1].glyph == "×"  # no text, but in the answer
    blank = facts.with_images((False, False, False, False, False))
    assert blank.no_text_kind(2) is PageState.BLANK
    assert (
        cells(blank, page_kinds(blank, layout_of(render(DOC, Options()), Options(), DOC)), 80)[
            1
        ].glyph
        == "□"
    )
    scanned = facts.with_images((False, True, False, False, False))
    assert scanned.no_text_kind(2) is PageState.EMPTY


def test_buckets_cover_every_page_and_prefer_cut_over_whole() -> None:
    facts = facts_of(DOC)
    kinds = [
        PageState.WHOLE,
        PageState.CUT,
        PageState.OTHER,
        PageState.EMPTY,
        PageState.OTHER,
        PageState.MISSING,
    ]
    drawn = cells(facts, kinds, 4)
    assert [(cell.first, cell.last) for cell in drawn] == [(1, 2), (3, 4), (5, 6)]
    assert [cell.kind for cell in drawn] == [PageState.CUT, PageState.OTHER, PageState.OTHER]
    assert drawn[0].runes == len("--- page 1 ---\n\n") + 100 + len("--- page 2 ---\n\n")
    one_each = cells(facts, kinds, 80)
    assert len(one_each) == 6 and one_each[5].glyph == "·" and one_each[3].glyph == "×"
    assert one_each[4].glyph == "█"  # the largest page


def test_outcap_runs_out_only_where_it_means_something() -> None:
    sizes = facts_of(DOC).block_sizes
    cut = Options(pages="1-5", out_cap=sizes[0] + 2 + sizes[1])
    assert layout_of(render(DOC, cut), cut, DOC).cap_page == 3
    whole = Options(pages="1-5", out_cap=10**6)
    assert layout_of(render(DOC, whole), whole, DOC).cap_page == 0
    grep = Options(grep="a|b|c|d", out_cap=50)
    assert layout_of(render(DOC, grep), grep, DOC).cap_page == 0


def test_history_records_goes_back_and_forward_and_drops_forward_calls() -> None:
    history = CallHistory()
    a, b, c = (Request(None, o) for o in (Options(), Options(pages="2-"), Options(pages="5-")))
    history.record(a, "x" * 10)
    history.record(b, "中" * 20)
    history.record(b, "中" * 20)  # the same call twice is one call
    assert history.spent_runes() == 30 and len(history.calls) == 2
    assert history.spent_bytes() == 10 + 60
    assert history.back() == a and history.spent_runes() == 10
    assert history.back() is None
    assert history.forward() == b and history.forward() is None
    history.back()
    history.record(c, "x" * 5)
    assert [call.request for call in history.calls] == [a, c]
    assert history.spent_runes() == 15


def test_n_follows_the_walk_exactly(tmp_path: Path) -> None:
    doc = long_doc()
    path = write_doc(doc, tmp_path)
    expected = walk(doc, 20_000)
    assert len(expected) > 3

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 20_000
        await settle(app, pilot)
        app.history.clear()
        app.action_map()
        await settle(app, pilot)
        for number, call in enumerate(expected):
            assert app.answer is not None
            assert app.answer.options == call.options, number
            assert app.answer.rendered == call.answer
            await pilot.press("n")
            await settle(app, pilot)
        spent = sum(len(call.answer.content) for call in expected)
        assert app.history.spent_runes() == spent
        await pilot.press("b")
        await settle(app, pilot)
        assert app.answer is not None and app.answer.options == expected[-2].options
        assert app.history.spent_runes() == spent - len(expected[-1].answer.content)
        await pilot.press("f")
        await settle(app, pilot)
        assert app.answer.options == expected[-1].options

    run(SiftApp(path), scenario)


def test_clicking_the_strip_asks_for_that_page(tmp_path: Path) -> None:
    path = write_doc(long_doc(), tmp_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        strip = app.query_one(PageStrip)
        cell = strip.current_cells()[9]
        assert (cell.first, cell.last) == (10, 10)
        await pilot.click(PageStrip, offset=(9, 0))
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.query_one("#pages", Input).value == "10")
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered == render(long_doc(), Options(pages="10"))
        strip.focus()
        await pilot.press("right", "enter")
        await wait_until(pilot, lambda: app.query_one("#pages", Input).value == "11")

    run(SiftApp(path), scenario, size=(120, 40))


def test_walk_screen_lists_the_walk_and_asks_a_chosen_call(tmp_path: Path) -> None:
    doc = long_doc()
    path = write_doc(doc, tmp_path)
    expected = walk(doc, 30_000)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 30_000
        await settle(app, pilot)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WalkScreen))
        table = app.screen.query_one(DataTable)
        assert table.row_count == len(expected)
        assert str(table.get_row_at(1)[1]) == f'pages="{expected[1].options.pages}"'
        await pilot.press("down", "down", "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, WalkScreen))
        await settle(app, pilot)
        assert app.answer is not None and app.answer.options == expected[2].options

    run(SiftApp(path), scenario, size=(120, 40))


def test_the_strip_draws_each_cell_in_its_own_style(tmp_path: Path) -> None:
    """Like cells are drawn as one run: each character is still its cell's glyph in its
    cell's style (kind, heading, the cursor on focus), on a strip of many kinds."""
    path = write_doc(uneven_doc(), tmp_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        strip = app.query_one(PageStrip)
        for options, cursor in ((Options(pages="2-4"), -1), (Options(grep="a|c"), 3)):
            app.propose(options)
            await settle(app, pilot)
            strip.focus()
            strip.cursor = cursor
            await pilot.pause()
            drawn = strip.current_cells()
            row = strip.render().split("\n")[0]
            console = Console(width=200)
            assert row.plain == "".join(cell.glyph for cell in drawn)
            kinds = {cell.kind for cell in drawn}
            assert len(kinds) >= 2, kinds  # several runs, not one
            for number, cell in enumerate(drawn):
                name = _style_of(cell)
                expected = strip._cell_style(name, bool(cell.heading), number == cursor)
                assert row.get_style_at_offset(console, number) == expected, (number, cell)

    run(SiftApp(path), scenario, size=(100, 32))
