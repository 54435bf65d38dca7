"""What a user types, a document holds and a file is named is shown as it is: never read
as Textual markup, where "[/]" raises (typing it into Pages crashed the app)."""

from __future__ import annotations

from pathlib import Path

from support.docx_build import p, t, write_docx
from support.pdfs import make_pdf
from support.tui_support import run, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from siftui.tui.app import SiftApp
from siftui.tui.screens import WalkScreen
from siftui.tui.widgets.view import ContentView

ODD = "[/]"


def text_of(app: SiftApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def test_brackets_typed_named_and_found_are_shown_as_they_are(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / f"odd{ODD.replace('/', '')}[b].pdf", ["a/b one", "a/b two"])

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one("#pages", Input).value = ODD
        said = f'invalid pages "{ODD}": use "a-b", "a" or "a-"'
        await wait_until(pilot, lambda: said in text_of(app, "#request-error"))
        app.query_one("#pages", Input).value = ""
        app.query_one("#grep", Input).value = ODD  # a class of one character: "/"
        await wait_until(pilot, lambda: app.answer is not None and app.answer.options.grep == ODD)
        await settle(app, pilot)
        assert "a/b one" in "\n".join(app.query_one(ContentView).lines)
        app.notify(f"{ODD} a [b]name[/b] as typed")
        await settle(app, pilot)
        await pilot.press("w")  # the walk lists the call with its pattern
        await wait_until(pilot, lambda: isinstance(app.screen, WalkScreen))
        await settle(app, pilot)
        assert app.screen.query_one("#walk-table", DataTable).row_count == 1

    run(SiftApp(pdf), scenario)


def test_tab_completes_the_scope_and_moves_on_when_there_is_nothing_to_complete(
    tmp_path: Path,
) -> None:
    """README: the Scope field's Tab completes it (`foot` -> `footnotes`)."""
    docx = write_docx(tmp_path / "a.docx", p(t("Body text.")))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        scope = app.query_one("#scope", Input)
        scope.focus()
        await pilot.press(*"foot")
        await wait_until(pilot, lambda: scope.value == "foot")
        await pilot.pause(0.2)  # the suggester answers in a worker
        await pilot.press("tab")
        await wait_until(pilot, lambda: scope.value == "footnotes")
        assert scope.has_focus
        await pilot.press("tab")  # complete already: Tab moves on
        await wait_until(pilot, lambda: not scope.has_focus)
        assert scope.value == "footnotes"

    run(SiftApp(docx), scenario)


def test_a_long_refusal_keeps_the_view_on_screen(tmp_path: Path) -> None:
    """10,000 characters pasted into Pages are quoted back by the refusal: its line
    takes at most two rows, and the counter and the view stay on the screen."""
    pdf = make_pdf(tmp_path / "a.pdf", ["one", "two"])

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one("#pages", Input).value = "x" * 10_000
        await wait_until(pilot, lambda: "invalid pages" in text_of(app, "#request-error"))
        await settle(app, pilot)
        assert app.query_one("#request-error", Static).region.height == 2
        assert app.query_one(ContentView).region.height >= 10

    run(SiftApp(pdf), scenario, size=(100, 30))
