"""Reach in the TUI: the unreachable tail at the OutCap, and which agents the answer fits."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.tui_support import idle, run, settle, wait_until, write_doc
from textual.pilot import Pilot

from siftui.core.agents import fit
from siftui.core.doc import Doc
from siftui.core.unreachable import counter_line, unreachable
from siftui.sources.agents_load import count_tokens, load_agents
from siftui.tui.app import SiftApp
from siftui.tui.fits import measured
from siftui.tui.strip_model import UNREACHABLE_GLYPH
from siftui.tui.widgets.counter import CounterLine
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.pagestrip import PageStrip

DOC = Doc("Reach", 3, ("a " * 50, "word " * 1000, "c " * 50), ())

USER_AGENTS = """
[[agent]]
name = "Tiny tool"
unit = "chars"
limit = 1000
warn = 500
"""


@pytest.fixture(autouse=True)
def _agents_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    (config / "siftui").mkdir(parents=True)
    (config / "siftui" / "agents.toml").write_text(USER_AGENTS, encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))


def _counter(app: SiftApp) -> str:
    return str(app.query_one(CounterLine).render())


def test_the_unreachable_tail_is_marked_and_counted_at_the_outcap(tmp_path: Path) -> None:
    app = SiftApp(write_doc(DOC, tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.answer is not None and app.answer.unreachable)
        strip = app.query_one(PageStrip)
        assert UNREACHABLE_GLYPH not in strip.render().plain  # nothing at 100,000
        assert "unreachable by pages=" not in _counter(app)
        app.query_one(OutCapControl).value = 1000
        await wait_until(
            pilot,
            lambda: (
                app.answer is not None
                and app.answer.options.out_cap == 1000
                and app.answer.unreachable is not None
            ),
        )
        await idle(app, pilot)
        expected = unreachable(DOC, 1000)
        assert [page.page for page in expected.pages] == [2]
        line = counter_line(expected)
        assert line.startswith("at this OutCap 4,0") and "on 1 page" in line
        assert line in _counter(app)
        cells = strip.current_cells()
        assert [cell.glyph == UNREACHABLE_GLYPH for cell in cells] == [False, True, False]
        assert cells[1].unreachable == expected.runes
        assert f"{expected.runes:,} runes unreachable by pages=" in strip.tip(cells[1])
        assert f"{UNREACHABLE_GLYPH} tail unreachable" in strip.render().plain
        # Back up: cached per (document, OutCap), shown with the answer at once.
        app.query_one(OutCapControl).value = 100_000
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 1000
        await wait_until(
            pilot, lambda: app.answer is not None and app.answer.options.out_cap == 1000
        )
        # The first answer at 1,000 again already carries it (no worker ran for it).
        assert app.answer is not None and app.answer.unreachable == expected

    run(app, scenario, size=(120, 40))


def test_the_counter_checks_the_answer_against_every_agent(tmp_path: Path) -> None:
    app = SiftApp(write_doc(DOC, tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await wait_until(
            pilot,
            lambda: (
                app.answer is not None
                and app.answer.agents is not None
                and app.answer.counts is not None
            ),
        )
        await idle(app, pilot)
        answer = app.answer
        assert answer is not None
        content = answer.rendered.content
        fits = fit(content, load_agents(), count_tokens)
        assert len(fits) == 9 and fits[-1].agent.name == "Tiny tool"
        shown = " ".join(_counter(app).split())
        for each in fits:  # each agent, its verdict, and the size in its unit before it
            at = shown.index(f"{each.verdict} {each.agent.name}")
            assert shown.rindex(f"{measured(each)}: ", 0, at) > shown.rindex("agents: ", 0, at)
        tiny = fits[-1]
        assert tiny.verdict == "✗" and tiny.measured == f"{len(content):,} chars"
        assert "tokens (o200k, as an estimate): ✓ Claude Code MCP tool output" in shown
        # A smaller answer fits the tiny tool.
        app.query_one("#pages").value = "1"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.answer is not None and app.answer.counts is not None)
        await idle(app, pilot)
        assert "✓ Tiny tool" in _counter(app)

    run(app, scenario, size=(120, 40))


def test_a_bad_agents_file_is_one_line_in_the_counter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "bad"
    (config / "siftui").mkdir(parents=True)
    (config / "siftui" / "agents.toml").write_text("[[agent]]\nname = 3\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    app = SiftApp(write_doc(DOC, tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.answer is not None and app.answer.agents is not None)
        await idle(app, pilot)
        assert "agents: " in _counter(app) and "line 2" in _counter(app)

    run(app, scenario, size=(120, 40))


def test_a_dragged_outcap_ends_with_the_tail_of_the_last_outcap(tmp_path: Path) -> None:
    app = SiftApp(write_doc(DOC, tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        control = app.query_one(OutCapControl)
        for value in (1000, 2000, 3000, 4000, 1500):
            control.value = value
            await pilot.pause(0)
        await wait_until(
            pilot,
            lambda: (
                app.answer is not None
                and app.answer.options.out_cap == 1500
                and app.answer.unreachable is not None
            ),
        )
        await idle(app, pilot)
        assert app.answer is not None and app.answer.unreachable == unreachable(DOC, 1500)
        assert counter_line(unreachable(DOC, 1500)) in _counter(app)

    run(app, scenario, size=(120, 40))


def _six_small_agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An agents table of six tools whose caps (50-55 runes) every answer is over."""
    config = tmp_path / "many"
    (config / "siftui").mkdir(parents=True)
    small = "".join(
        f'[[agent]]\nname = "Small tool number {n}"\nunit = "chars"\nlimit = {50 + n}\n\n'
        for n in range(6)
    )
    (config / "siftui" / "agents.toml").write_text(small, encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))


async def _a_full_counter(app: SiftApp, pilot: Pilot[int]) -> None:
    """Bytes (one more line: the tokenizer bound) at OutCap 1000 (and the unreachable
    line), once the agents, the counts and the unreachable text are known."""
    await settle(app, pilot)
    await pilot.press("u")
    app.query_one(OutCapControl).value = 1000
    await wait_until(
        pilot,
        lambda: (
            app.answer is not None
            and app.answer.options.out_cap == 1000
            and app.answer.agents is not None
            and app.answer.counts is not None
            and app.answer.unreachable is not None
        ),
    )
    await idle(app, pilot)


def _counter_rows(app: SiftApp) -> str:
    """The counter's rows as drawn (what its height leaves of its text), joined."""
    counter = app.query_one(CounterLine)
    return " ".join(
        "".join(segment.text for segment in counter.render_line(y)).strip()
        for y in range(counter.region.height)
    )


def test_agents_the_counter_has_no_room_for_are_summed_up_never_cut_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The counter is at most 7 rows (siftui.tcss); its agents list, last, lost agents
    over their caps without a sign when the lines above took the room."""
    _six_small_agents(tmp_path, monkeypatch)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        width = app.size.width
        await _a_full_counter(app, pilot)
        shown = _counter_rows(app)
        assert app.query_one(CounterLine).region.height <= 7
        answer = app.answer
        assert answer is not None
        fits = fit(answer.rendered.content, load_agents(), count_tokens)
        over = [each for each in fits if each.verdict == "✗"]
        fitting = sum(each.verdict == "✓" for each in fits)
        assert len(over) == 6 and fitting + len(over) == len(fits)
        if width > 100:  # room for the names of those over their caps (or for all)
            for each in over:
                assert f"✗ {each.agent.name}" in shown, shown
        else:  # not even for those: all counted, none left out
            assert f"agents: 6 ✗, {fitting} ✓ (d: details)" in shown, shown

    for width in (72, 110, 160):
        run(SiftApp(write_doc(DOC, tmp_path)), scenario, size=(width, 44))


def test_the_counter_refits_its_agents_when_its_width_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _six_small_agents(tmp_path, monkeypatch)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await _a_full_counter(app, pilot)
        assert "agents: 6 ✗" in _counter_rows(app)
        assert "✗ Small tool" not in _counter_rows(app)
        await pilot.resize_terminal(160, 44)
        await wait_until(pilot, lambda: "✗ Small tool number 0" in _counter_rows(app))
        await pilot.resize_terminal(72, 44)
        await wait_until(pilot, lambda: "agents: 6 ✗" in _counter_rows(app))

    run(SiftApp(write_doc(DOC, tmp_path)), scenario, size=(72, 44))
