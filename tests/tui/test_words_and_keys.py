"""Words and keys: every field has a key (the OutCap number, Word's
Window and Scope), the save dialog says what Enter does there, a copy in bytes mode
counts bytes, and one call is "1 call"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.docx_build import p, write_docx
from support.evidence_log import log_session
from support.tui_support import book_doc, run, settle, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import Input, Static

from siftui.cli.evidence_preview import rerun_factory
from siftui.sources.log.reading import read_log
from siftui.sources.output import encode_utf8
from siftui.sources.sample import sample_path
from siftui.tui import exporting
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.screens import PathScreen
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.replay import ReplayStatus
from siftui.tui.widgets.view import ContentView


def palette(app: SiftApp) -> set[str]:
    return {command.title for command in app.get_system_commands(app.screen)}


def test_window_scope_and_outcap_have_keys_for_word(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "short.docx", p("One.") + p("Two."))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert {"Window (W)", "Scope (S)", "OutCap (k)"} <= palette(app)
        for key, field in (("W", "#window"), ("S", "#scope"), ("k", None)):
            app.query_one(ContentView).focus()
            await pilot.press(key)
            expected = (
                app.query_one(OutCapControl).input if field is None else app.query_one(field, Input)
            )
            assert app.focused is expected, key

    run(SiftApp(path), scenario, size=(110, 34))


def test_a_pdf_has_no_window_or_scope_key(tmp_path: Path) -> None:
    path = write_doc(book_doc(), tmp_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        titles = palette(app)
        assert "OutCap (k)" in titles
        assert "Window (W)" not in titles and "Scope (S)" not in titles
        view = app.query_one(ContentView)
        view.focus()
        await pilot.press("W", "S")
        assert app.focused is view
        await pilot.press("k")
        focused: object = app.focused
        assert focused is app.query_one(OutCapControl).input

    run(SiftApp(path), scenario, size=(110, 34))


def test_the_save_dialog_says_enter_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = write_doc(book_doc(), tmp_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        hint = str(app.screen.query_one(".hint", Static).render())
        assert "Enter saves" in hint and "Enter opens" not in hint

    run(SiftApp(path), scenario, size=(110, 34))


def test_a_copy_in_bytes_counts_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exporting, "copy_system", lambda text: None)
    path = write_doc(book_doc(), tmp_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("u")
        await settle(app, pilot)
        assert app.answer is not None and app.request.options.unit == "bytes"
        content = app.answer.rendered.content
        await pilot.press("c")
        await wait_until(pilot, lambda: app.last_copy is not None)
        assert app.last_copy is not None
        said = app.last_copy.message()
        assert f", {len(encode_utf8(content)):,} bytes, " in said and "runes" not in said

    run(SiftApp(path), scenario, size=(110, 34))


def test_a_one_call_session_is_re_run_as_1_call(tmp_path: Path) -> None:
    pdf = tmp_path / "notes.pdf"
    shutil.copyfile(sample_path(), pdf)
    log = tmp_path / "calls.jsonl"
    log_session(pdf, log)
    log.write_text(log.read_text("utf-8").splitlines(keepends=True)[0], "utf-8")
    seen: list[str] = []

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        status = app.query_one(ReplayStatus)

        def said() -> bool:
            seen.append(status.message)
            return "re-running session 1" in status.message

        await wait_until(pilot, said, 60)

    run(create_log_app(read_log(log), rerun=rerun_factory), scenario)
    assert "re-running session 1 (1 call) afresh" in seen[-1]
