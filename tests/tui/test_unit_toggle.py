"""The OutCap's unit in the TUI: `u` or the button beside the entry asks for the other
unit, the request holds it, the counter says it, and `c` copies exactly what
`siftui render --unit bytes` prints."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from support.tui_support import run, settle, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import Input, Static

from siftui.core.budget import BYTES, byte_bound, utf8_size
from siftui.core.doc import Doc
from siftui.core.kinds import render_any
from siftui.core.render import Options, render
from siftui.core.unreachable import unreachable
from siftui.tui.app import SiftApp
from siftui.tui.widgets.lines import CallsLine
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.view import ContentView

# A page of CJK text and an emoji: cut to 1,000 bytes it is not cut to 1,000 code points.
DOC = Doc("预算", 2, ("中文页面：预算决定代理看到什么。🙂\n" * 80, "second page"), ())


def render_bytes(path: Path) -> str:
    options = ("--pages", "1", "--outcap", "1000", "--unit", "bytes")
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "render", str(path), *options],
        capture_output=True,
        timeout=120,
        check=True,
    )
    return done.stdout.decode("utf-8")


def test_u_asks_for_bytes_and_c_copies_what_render_unit_bytes_prints(
    tmp_path: Path, clipboard: list[str]
) -> None:
    path = write_doc(DOC, tmp_path)
    expected = render_bytes(path)
    chars = render(DOC, Options(pages="1", out_cap=1_000))
    assert expected != chars.content and len(expected.encode()) <= 1_000

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 1_000
        app.query_one("#pages", Input).value = "1"
        await settle(app, pilot)
        assert app.answer is not None and app.answer.rendered == chars
        app.query_one(ContentView).focus()
        await pilot.press("u")
        await settle(app, pilot)
        assert app.request.options == Options(pages="1", out_cap=1_000, unit="bytes")
        assert app.history.current() == app.request  # asked for: a call
        counter = str(app.query_one("#counter", Static).render())
        assert f"{len(expected.encode()):,} / 1,000 bytes " in counter
        assert byte_bound(1_000) in counter
        assert str(app.query_one(OutCapControl).unit_button.label) == "bytes"
        await pilot.press("c")
        await wait_until(pilot, lambda: app.last_copy is not None)
        assert clipboard == [expected]
        await pilot.click(app.query_one(OutCapControl).unit_button)
        await settle(app, pilot)
        assert app.request.options == replace(app.request.options, unit="chars")
        assert app.answer is not None and app.answer.rendered == chars
        assert str(app.query_one(OutCapControl).unit_button.label) == "runes"
        assert "/ 1,000 runes " in str(app.query_one("#counter", Static).render())

    run(SiftApp(path), scenario, size=(110, 34))


def test_a_short_terminal_says_the_bytes_bound_in_its_one_line(tmp_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("u")
        await settle(app, pilot)
        summary = str(app.query_one("#summary", Static).render())
        assert summary.startswith(f"{len(app.answer.rendered.content.encode()):,} / 100,000 bytes")  # type: ignore[union-attr]
        alerts = str(app.query_one("#alerts", Static).render())
        assert "at most 100,000 tokens in any byte-level tokenizer" in alerts

    run(SiftApp(write_doc(DOC, tmp_path)), scenario, size=(160, 24))


def test_the_unreachable_tail_is_counted_in_the_answers_unit(tmp_path: Path) -> None:
    """A page of 1,200 CJK characters fits an OutCap of 2,000 code points and not of
    2,000 bytes: in bytes, the counter's tail is the core's in bytes."""
    doc = Doc("尾", 2, ("预" * 1_200, "end"), ())

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 2_000
        await wait_until(
            pilot,
            lambda: (
                app.answer is not None
                and app.answer.options.out_cap == 2_000
                and app.answer.unreachable is not None
            ),
        )
        assert app.answer is not None and app.answer.unreachable == unreachable(doc, 2_000)
        assert not app.answer.unreachable.pages
        app.query_one(ContentView).focus()
        await pilot.press("u")
        await wait_until(
            pilot,
            lambda: (
                app.answer is not None
                and app.answer.options.unit == "bytes"
                and app.answer.unreachable is not None
            ),
        )
        assert app.answer.unreachable == unreachable(doc, 2_000, BYTES)
        assert [page.page for page in app.answer.unreachable.pages] == [1]

    run(SiftApp(write_doc(doc, tmp_path)), scenario, size=(110, 34))


def test_the_calls_line_counts_in_bytes_when_the_outcap_does(tmp_path: Path) -> None:
    """After u, the calls line gives this answer and what was spent in bytes."""
    chars = render(DOC, Options(pages="1", out_cap=1_000)).content
    in_bytes = render(DOC, Options(pages="1", out_cap=1_000, unit="bytes")).content

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(OutCapControl).value = 1_000
        pages = app.query_one("#pages", Input)
        pages.value = "1"
        pages.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        line = str(app.query_one(CallsLine).render())
        assert f"this answer {len(chars):,} runes · spent " in line
        app.query_one(ContentView).focus()
        await pilot.press("u")
        await settle(app, pilot)
        assert app.request.options.unit == "bytes"
        made = [call.request.options for call in app.history.calls]
        assert made[-2:] == [
            Options(pages="1", out_cap=1_000),
            Options(pages="1", out_cap=1_000, unit="bytes"),
        ]
        spent = sum(utf8_size(render_any(DOC, options).content) for options in made)
        assert spent > utf8_size(in_bytes)
        line = str(app.query_one(CallsLine).render())
        assert f"this answer {utf8_size(in_bytes):,} bytes · spent {spent:,} bytes · " in line
        assert "runes" not in line

    run(SiftApp(write_doc(DOC, tmp_path)), scenario, size=(110, 34))
