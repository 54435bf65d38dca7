"""Five ways the view could show, copy or count an answer that is not the one asked for,
each driven as a user would meet it: another file opening under the old answer, a bad
range typed while a file loads, a copy or a walk while another file opens, a range with
thousands of leading zeros, and a calls line or a view lagging behind fast typing.

Each test reads only what a user sees or gets (the view's lines, the counter,
the title, the calls line, the clipboard, a saved file, the notifications).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.pdfs import make_pdf
from support.tui_support import RecordingApp, gate_extraction, idle, run, wait_until
from textual.pilot import Pilot
from textual.widgets import Input, Static

from siftui.core.render import Options, Rendered, render
from siftui.sources.extract import extract
from siftui.sources.sample import sample_path
from siftui.tui.screens import PathScreen
from siftui.tui.widgets.view import ContentView


def answer_of(app: Any) -> Rendered | None:
    """The answer on screen (its rendered string and sizes), if there is one."""
    shown = app.answer
    return shown.rendered if shown is not None else None


def text_of(app: Any, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def calls_line(app: Any) -> str:
    for selector in ("#calls-line", "#history"):
        found = app.query(selector)
        if found:
            return str(found.first(Static).render())
    raise AssertionError("no calls line")


def view_lines(app: Any) -> list[str]:
    return list(app.query_one(ContentView).lines)


async def open_file(app: Any, pilot: Pilot[int], path: Path) -> None:
    app.query_one(ContentView).focus()
    await pilot.press("o")
    await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
    app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not isinstance(app.screen, PathScreen))


async def save_to(app: Any, pilot: Pilot[int], target: Path) -> None:
    await pilot.press("s")
    await wait_until(pilot, lambda: isinstance(app.screen, PathScreen), 5)
    app.screen.query_one(Input).value = str(target)
    await pilot.press("enter")


@pytest.fixture
def six_pages(tmp_path: Path) -> Path:
    return make_pdf(tmp_path / "six.pdf", [f"Short page {n}\nof six" for n in range(1, 7)])


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """Extraction waits until the test sets the event: a load as slow as the test wants."""
    with gate_extraction() as event:
        yield event


def test_1_another_file_never_shows_the_old_answer_under_its_name(
    six_pages: Path, tmp_path: Path
) -> None:
    new = extract(six_pages)
    expected = render(new, Options())
    target = tmp_path / "six.agent-view.txt"

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: answer_of(app) is not None)
        await idle(app, pilot)
        await pilot.press("p", *"36-40", "enter")
        await wait_until(pilot, lambda: "36" in text_of(app, "#counter"))
        await idle(app, pilot)
        await open_file(app, pilot, six_pages)
        await wait_until(pilot, lambda: "six.pdf" in str(app.sub_title))
        await idle(app, pilot)
        await pilot.pause(0.2)
        assert "36-40" not in text_of(app, "#counter")
        assert "doc: 6 pages" in text_of(app, "#counter")
        assert view_lines(app) == expected.content.split("\n")
        assert app.query_one("#pages", Input).value == ""
        await save_to(app, pilot, target)
        await wait_until(pilot, target.exists)
        assert target.read_text(encoding="utf-8") == expected.content
        assert app.is_running

    run(RecordingApp(sample_path()), scenario, size=(110, 34))


def test_2_a_bad_range_typed_while_loading_still_shows_the_document(
    tmp_path: Path, gate: threading.Event
) -> None:
    path = make_pdf(tmp_path / "big.pdf", [f"page {n} text" for n in range(1, 31)])
    doc = extract(path)
    first_call = render(doc, Options())

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await pilot.pause(0.3)  # loading, held at the gate
        assert answer_of(app) is None
        await pilot.press("p", "3", "p")
        gate.set()
        await wait_until(pilot, lambda: "invalid pages" in text_of(app, "#request-error"))
        await wait_until(pilot, lambda: answer_of(app) is not None, 10)
        await idle(app, pilot)
        assert text_of(app, "#request-error").startswith('invalid pages "3p"')
        assert view_lines(app) == first_call.content.split("\n")
        assert f"{len(first_call.content):,} / 100,000 runes" in text_of(app, "#counter")
        assert "doc: 30 pages" in text_of(app, "#counter")

    run(RecordingApp(path), scenario, size=(110, 34))


def test_3_copy_while_another_file_opens_never_copies_the_old_answer(
    tmp_path: Path, six_pages: Path, gate: threading.Event, clipboard: list[str]
) -> None:
    slow = make_pdf(tmp_path / "slow.pdf", [f"slow page {n}" for n in range(1, 11)])

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        gate.set()
        await wait_until(pilot, lambda: answer_of(app) is not None)
        await idle(app, pilot)
        gate.clear()
        await open_file(app, pilot, slow)
        await wait_until(pilot, lambda: "opening" in str(app.sub_title))
        app.query_one(ContentView).focus()
        await pilot.press("c")
        await pilot.press("j")
        await pilot.pause(0.5)
        assert clipboard == []
        assert app.clipboard == ""
        assert any("still opening slow.pdf" in m.lower() for m in app.seen), app.seen
        await pilot.press("w")
        await pilot.pause(0.3)
        assert app.screen is app.screen_stack[0]  # no walk of the old file
        gate.set()
        await wait_until(pilot, lambda: str(app.sub_title) == "slow.pdf")
        await idle(app, pilot)
        await pilot.press("c")
        await wait_until(pilot, lambda: clipboard)
        assert clipboard == [render(extract(slow), Options()).content]
        assert any("slow.pdf" in message and "Copied" in message for message in app.seen)

    run(RecordingApp(six_pages), scenario, size=(110, 34))


def test_4_a_range_with_5000_leading_zeros_and_a_pattern(six_pages: Path) -> None:
    doc = extract(six_pages)
    pages = "0" * 5000 + "1-3"
    expected = render(doc, Options(pages=pages, grep="page"))
    assert expected.grep_hits == 3

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: answer_of(app) is not None)
        await idle(app, pilot)
        app.query_one("#grep", Input).value = "page"
        app.query_one("#pages", Input).value = pages
        await pilot.pause(0.3)
        await idle(app, pilot)
        await pilot.pause(0.2)
        assert app.is_running
        assert answer_of(app) == expected
        assert view_lines(app) == expected.content.split("\n")

    run(RecordingApp(six_pages), scenario, size=(110, 34))


def test_5_the_calls_line_describes_the_answer_shown(six_pages: Path) -> None:
    doc = extract(six_pages)

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: answer_of(app) is not None)
        await idle(app, pilot)
        first = len(render(doc, Options()).content)
        assert f"this answer {first:,} runes" in calls_line(app)
        pages = app.query_one("#pages", Input)
        pages.value = "2-3"
        pages.focus()
        await pilot.press("enter")  # asked for: a call
        await idle(app, pilot)
        second = len(render(doc, Options(pages="2-3")).content)
        line = calls_line(app)
        assert line.startswith("call 2 of 2 · ")
        assert f"this answer {second:,} runes · spent {first + second:,} runes" in line

    run(RecordingApp(six_pages), scenario, size=(110, 34))


def test_5_typing_a_pattern_fast_never_leaves_a_stale_view(six_pages: Path) -> None:
    doc = extract(six_pages)

    async def scenario(app: Any, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: answer_of(app) is not None)
        await idle(app, pilot)
        grep = app.query_one("#grep", Input)
        for end in range(1, len("Short(") + 1):  # faster than any render: no await between
            grep.value = "Short("[:end]
        await pilot.pause(0.3)
        await idle(app, pilot)
        await pilot.pause(0.2)
        assert text_of(app, "#request-error").startswith("invalid grep")
        assert answer_of(app) == render(doc, Options(grep="Short"))
        assert view_lines(app) == render(doc, Options(grep="Short")).content.split("\n")

    run(RecordingApp(six_pages), scenario, size=(110, 34))


# The fifth failure's last part (keys typed at launch) happens only in a real terminal:
# tests/e2e/test_e2e_tmux.py::test_keys_typed_at_launch_reach_the_app.
