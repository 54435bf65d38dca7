"""The evidence preview's keys are its own: read_pdf's keys behind it
neither act nor show, `?` and the palette list the preview's, `j` is the wire's
result, and `b` leaves the call line and the cursor on the result it shows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import cast

import pytest
from support.mcp_wire import Wire
from support.tui_support import run, settle, wait_until
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Markdown, OptionList

from siftui.cli.evidence_preview import preview_factory
from siftui.sources.sample import sample_path
from siftui.tui.app import SiftApp
from siftui.tui.evidence import exports
from siftui.tui.evidence.screen import EvidenceScreen
from siftui.tui.evidence.session import call_text
from siftui.tui.factory import create_app
from siftui.tui.keys import KEYS, evidence_keys
from siftui.tui.screens import PathScreen
from siftui.tui.screens.help import HelpScreen

READ_PDF_ONLY = ("s", "slash", "p", "m", "w", "o", "d", "h", "u", "t")
"""read_pdf's keys that the preview has no key of its own for."""


@pytest.fixture
def pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(exports, "copy_system", lambda text: "no clipboard here")
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "notes.pdf"
    shutil.copyfile(sample_path(), target)
    return target


async def preview(app: SiftApp, pilot: Pilot[int], count: int = 1) -> EvidenceScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen), 60)
    screen = app.screen
    assert isinstance(screen, EvidenceScreen)
    await wait_until(pilot, lambda: len(screen.session.made) >= count and not screen.busy, 60)
    await pilot.pause()
    return screen


async def call(app: SiftApp, pilot: Pilot[int], text: str, count: int) -> EvidenceScreen:
    await pilot.press("colon")
    app.screen.query_one("#ev-call", Input).value = text
    await pilot.press("enter")
    return await preview(app, pilot, count)


def test_read_pdfs_keys_neither_act_nor_show_in_the_preview(pdf: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        shown = {key for key, held in app.screen.active_bindings.items() if held.binding.show}
        assert {"s", "slash"} <= shown  # read_pdf's own screen has them
        await pilot.press("e")
        screen = await preview(app, pilot)
        active = screen.active_bindings
        footer = {key for key, held in active.items() if held.binding.show and held.enabled}
        for key in READ_PDF_ONLY:
            assert key not in footer, key
            held = active.get(key)
            assert held is None or not held.enabled or held.node is screen, key
        assert {"colon", "v", "x", "S", "question_mark", "e", "c", "j"} <= footer
        saves = [held.binding.action for key, held in active.items() if key in ("s", "S")]
        assert saves == ["save_script"]  # one Save, the preview's
        await pilot.press("s", "slash", "p", "o")  # nothing happens: no dialog, no field
        await pilot.pause()
        assert app.screen is screen
        assert app.focused is screen.query_one("#ev-view")
        await pilot.press("e")  # back: read_pdf's keys are back
        await pilot.pause()
        assert not isinstance(app.screen, EvidenceScreen)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))

    run(create_app(pdf, evidence=preview_factory), scenario)


def test_help_and_palette_list_the_previews_keys(pdf: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("e")
        screen = await preview(app, pilot)
        commands = app.get_system_commands(cast(Screen[object], screen))
        titles = {command.title for command in commands}
        for key in evidence_keys():
            if key.action != "focus_view":
                assert f"{key.label} ({key.shown})" in titles, key
        read_pdf = {f"{key.label} ({key.shown})" for key in KEYS}
        preview_titles = {f"{key.label} ({key.shown})" for key in evidence_keys()}
        assert not (titles & (read_pdf - preview_titles))  # no Grep (/), Save (s), ...
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.query_one(Markdown).source
        for shown in (":", "v", "x", "S", "b", "n"):
            assert f"| `{shown}` |" in text, shown
        assert "| `/` |" not in text and "| `s` |" not in text
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)

    run(create_app(pdf, evidence=preview_factory), scenario)


def test_j_copies_the_result_the_server_sends(pdf: Path, tmp_path: Path) -> None:
    """`j` held `"resultType": "complete"`, a field of the SDK's model that the
    JSON-RPC result over stdio does not carry."""
    copied: list[str] = []
    read = {"documentId": "doc-1", "page": 1, "maxChars": 200}

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("e")
        await preview(app, pilot)
        await call(app, pilot, "pdf_page_read " + json.dumps(read), 2)
        app.copy_to_clipboard("")
        await pilot.press("j")
        await wait_until(pilot, lambda: app.clipboard != "", 60)
        copied.append(app.clipboard)

    run(create_app(pdf, evidence=preview_factory), scenario)
    with Wire(["--root", str(pdf.parent), "--tools", "evidence"], tmp_path / "err") as wire:
        wire.call({"path": pdf.name}, tool="pdf_open")
        answer = wire.call(read, tool="pdf_page_read")
    assert answer is not None
    assert "resultType" not in copied[0]
    assert json.loads(copied[0]) == answer["result"]


def test_b_shows_its_call_and_enter_and_x_act_on_its_result(pdf: Path) -> None:
    search = {"documentId": "doc-1", "query": "the", "maxResults": 2}
    read = {"documentId": "doc-1", "page": 2}

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("e")
        await preview(app, pilot)
        await call(app, pilot, "pdf_keyword_search " + json.dumps(search), 2)
        screen = await call(app, pilot, "pdf_page_read " + json.dumps(read), 3)
        await pilot.press("v")
        line = screen.query_one("#ev-call", Input)
        await pilot.press("b")  # back to the search
        assert screen.session.shown == 1
        assert line.value == call_text("pdf_keyword_search", search)
        options = screen.query_one("#ev-reading", OptionList)
        assert options.highlighted is not None
        hit = screen._rows[options.highlighted]
        assert hit.ref is not None
        await pilot.press("x")  # no selection: the call line opens on the hit's reference
        narrowed = {"documentId": "doc-1", "refId": hit.ref, "quote": ""}
        assert line.has_focus and line.value == call_text("pdf_evidence_read", narrowed)
        await pilot.press("escape")
        assert options.has_focus
        await pilot.press("enter")  # the hit's reference, read
        screen = await preview(app, pilot, 4)
        made = screen.session.made[-1]
        assert (made.tool, made.arguments) == (
            "pdf_evidence_read",
            {"documentId": "doc-1", "refId": hit.ref},
        )
        await pilot.press("b", "b")
        assert screen.session.shown == 1
        assert line.value == call_text("pdf_keyword_search", search)
        await pilot.press("f")
        assert line.value == call_text("pdf_page_read", read)

    run(create_app(pdf, evidence=preview_factory), scenario)
