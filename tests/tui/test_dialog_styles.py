"""The dialogs' styles are read when the first dialog opens, not for the first frame."""

from __future__ import annotations

from pathlib import Path

from support.pdfs import make_pdf
from support.tui_support import run, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import Label

from siftui.tui.app import SiftApp
from siftui.tui.screens import ConfirmScreen
from siftui.tui.screens.styles import DIALOG_CSS


def test_dialog_rules_are_read_when_a_dialog_opens(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["one"])

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert not app.stylesheet.has_source(str(DIALOG_CSS), "")
        app.push_screen(ConfirmScreen("Overwrite it?"))
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause()
        assert app.stylesheet.has_source(str(DIALOG_CSS), "")
        title = app.screen.query_one(".dialog-title", Label)
        assert title.styles.text_style.bold  # a rule of dialogs.tcss
        assert app.screen.styles.align == ("center", "middle")

    run(SiftApp(str(pdf)), scenario)
