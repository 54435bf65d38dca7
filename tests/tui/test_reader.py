# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial)
"""`siftui reader`'s keys and what it shows, with App.run_test() and Pilot.

The working copies are the in-memory ones of tests/support/reader_backend.py: the
app sees them through the same protocol as the host's.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from support.pdfs import make_encrypted_pdf, make_pdf
from support.reader_backend import MemoryBackend, MemoryCopy, save_request
from support.tui_support import idle, wait_until
from textual.pilot import Pilot
from textual.widgets import Static, TextArea
from textual.widgets._toast import Toast

from siftui.core.edit.operations import Quad
from siftui.core.reader import AGENT_AUTHOR, Registration
from siftui.sources.log.calllog import CallLog, LogEntry
from siftui.sources.log.fields import ToolResult
from siftui.tui.evidence.image import PageImage
from siftui.tui.keys import READER_KEYS
from siftui.tui.reader.app import ReaderApp
from siftui.tui.reader.approval import ApprovalScreen
from siftui.tui.reader.panels import AnnotationsTable, OutlineList
from siftui.tui.reader.register import RegisterScreen
from siftui.tui.screens.confirm import ConfirmScreen
from siftui.tui.screens.help import HelpScreen

SIZE = (110, 34)
PAGES = ["First page\nentropy at dawn", "Second page\nentropy at noon", "Third page\nthe end"]
TOC = [(1, "Start", 1), (1, "Noon", 2), (2, "The end", 3)]


def annotated(path: Path) -> Path:
    """Three pages, an outline, and one highlight of the file's own on page 1."""
    make_pdf(path, PAGES, toc=TOC, stable=True)
    document = pymupdf.open(path)
    page = document[0]
    highlight = page.add_highlight_annot(pymupdf.Rect(72, 60, 200, 76))
    highlight.set_info(title="Ann Person", content="the file's own note")
    highlight.update()
    document.xref_set_key(highlight.xref, "NM", pymupdf.get_pdf_str("own-1"))
    keep = pymupdf.PDF_ENCRYPT_KEEP  # type: ignore[attr-defined]
    document.save(path, incremental=True, encryption=keep)
    document.close()
    return path


def play(
    app: ReaderApp, scenario: Callable[[Pilot[Any]], Awaitable[None]], size: tuple[int, int] = SIZE
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot)

    asyncio.run(main())


def page_line(app: ReaderApp) -> str:
    return str(app.reader_screen.query_one("#page-line", Static).render())


def message(app: ReaderApp) -> str:
    return str(app.reader_screen.query_one("#reader-message", Static).render())


async def opened(pilot: Pilot[Any], app: ReaderApp, tabs: int = 1) -> None:
    await wait_until(pilot, lambda: len(app.reader_screen.store.open) == tabs)
    await wait_until(pilot, lambda: page_line(app).startswith("page "))
    await idle(app, pilot)


def copy_of(backend: MemoryBackend, path: Path) -> MemoryCopy:
    return backend.copies[path.resolve()]


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return annotated(tmp_path / "notes.pdf")


# ------------------------------------------------------------------ the save dialog


def test_only_y_n_and_escape_decide(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        request = save_request(pdf, 0, (1, "+ Highlight siftui-1-1"))
        app.ask_save(request)
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        # Keys meant for something else: none decides, none reaches the reader.
        for key in ("enter", "space", "tab", "Y", "N", "a", "q", "o", "1", "ctrl+z", "ctrl+y"):
            await pilot.press(key)
        await pilot.press("down", "pageup", "end", "home", "ctrl+p", "delete", "D")
        await pilot.pause()
        assert isinstance(app.screen, ApprovalScreen)
        assert not request.decision.done()
        assert page_line(app).startswith("page 1 of 3")
        await pilot.press("y")
        await wait_until(pilot, lambda: not isinstance(app.screen, ApprovalScreen))
        assert request.decision.result() is True

    play(app, scenario)


@pytest.mark.parametrize(
    ("saved", "outcome", "said"),
    [
        (True, "1,234 bytes, revision 2", "Saved notes.pdf: 1,234 bytes, revision 2."),
        (
            False,
            "notes.pdf changed on disk since it was opened: nothing saved (the draft is kept)",
            "Not saved: notes.pdf changed on disk since it was opened: nothing saved",
        ),
    ],
)
def test_the_person_is_told_what_became_of_an_approved_save(
    pdf: Path, saved: bool, outcome: str, said: str
) -> None:
    """After y the host writes or is refused (the file changed meanwhile): the reader
    says which, where it said only that the save went ahead."""
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    def toasts() -> str:
        return " ".join(str(toast.render()) for toast in app.screen.query(Toast))

    async def main() -> None:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await opened(pilot, app)
            request = save_request(pdf, 0, (1, "+ Highlight siftui-1-1"))
            app.ask_save(request)
            await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
            await pilot.press("y")
            await wait_until(pilot, lambda: request.decision.done())
            assert request.decision.result() is True
            # The host's thread tells the outcome through the seam, as after a write; the
            # line under the tabs keeps it (a notice lasts a few seconds).
            told = threading.Thread(target=app.seam.save_ended, args=(pdf, outcome, saved))
            told.start()
            told.join()
            await wait_until(pilot, lambda: message(app).startswith(said))
            await wait_until(pilot, lambda: said in toasts())

    asyncio.run(main())


@pytest.mark.parametrize("key", ["n", "escape"])
def test_n_and_escape_decline(pdf: Path, key: str) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        request = save_request(pdf, 0, (1, "+ Highlight siftui-1-1"))
        app.ask_save(request)
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press(key)
        await wait_until(pilot, lambda: request.decision.done())
        assert request.decision.result() is False
        assert not isinstance(app.screen, ApprovalScreen)

    play(app, scenario)


def test_requests_wait_in_line_one_dialog_at_a_time(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        first, second = save_request(pdf, 1), save_request(pdf, 2)
        app.ask_save(first)
        app.ask_save(second)
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        assert isinstance(app.screen, ApprovalScreen) and app.screen.request is first
        assert len(app.screen_stack) == 2  # one dialog over the reader
        await pilot.press("n")
        await wait_until(pilot, lambda: first.decision.done())
        await wait_until(
            pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.request is second
        )
        assert not second.decision.done()
        await pilot.press("y")
        await wait_until(pilot, lambda: second.decision.done())
        assert (first.decision.result(), second.decision.result()) == (False, True)

    play(app, scenario)


def test_a_request_the_host_stopped_waiting_for_closes(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        expired, waiting = save_request(pdf, 1), save_request(pdf, 2)
        app.ask_save(expired)
        app.ask_save(waiting)
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        # The host's time is up: it cancels from its own thread.
        threading.Thread(target=expired.decision.cancel).start()
        await wait_until(
            pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.request is waiting
        )
        assert expired.decision.cancelled()
        await pilot.press("escape")
        await wait_until(pilot, lambda: waiting.decision.done())
        assert waiting.decision.result() is False

    play(app, scenario)


def test_the_dialog_shows_the_file_and_the_changes_per_page(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        request = save_request(
            pdf, 3, (2, '+ Highlight siftui-1-1 "noon"'), (1, "- Highlight own-1"), (None, "+ ol-4")
        )
        app.ask_save(request)
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await wait_until(pilot, lambda: app.screen.query("#approval-keys"))
        shown = "\n".join(str(widget.content) for widget in app.screen.query(Static))
        assert str(pdf) in shown
        assert "revision 3" in shown
        assert shown.index("page 1:") < shown.index("- Highlight own-1") < shown.index("page 2:")
        assert '+ Highlight siftui-1-1 "noon"' in shown and "+ ol-4" in shown

    play(app, scenario)


def test_quitting_withdraws_what_waits(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])
    request = save_request(pdf, 1)

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        app.ask_save(request)
        await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("ctrl+q")

    play(app, scenario)
    assert request.decision.cancelled()  # the host says the reader has closed


# ------------------------------------------------------------------ pages and tabs


def test_page_keys_and_back_through_the_jumps(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        assert app.reader_screen.query_one(PageImage).pixels is not None
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: page_line(app).startswith("page 2 of 3"))
        assert app.jump_tab("tab-1", 3) == 1  # E20: one step of the tab's history
        await wait_until(pilot, lambda: page_line(app).startswith("page 3 of 3"))
        assert app.seam.tabs()[0].page == 3
        await pilot.press("home")
        await wait_until(pilot, lambda: page_line(app).startswith("page 1 of 3"))
        await pilot.press("alt+left")  # back to where the jump came from
        await wait_until(pilot, lambda: page_line(app).startswith("page 2 of 3"))
        assert app.seam.tabs()[0].back == ()
        assert app.jump_tab("tab-9", 1) is None

    play(app, scenario)


def test_a_jump_by_ref_marks_its_text_until_the_page_turns(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])
    line: Quad = (72.0, 780.0, 250.0, 780.0, 72.0, 766.0, 250.0, 766.0)

    def shown() -> bytes | None:
        pixels = app.reader_screen.query_one(PageImage).pixels
        return pixels.rgb if pixels is not None else None

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        plain = shown()
        assert app.jump_tab("tab-1", 1, (line,)) == 1
        await wait_until(pilot, lambda: shown() not in (None, plain))
        assert app.seam.tabs()[0].marks == (line,)
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: page_line(app).startswith("page 2 of 3"))
        await pilot.press("pageup")
        await wait_until(pilot, lambda: page_line(app).startswith("page 1 of 3"))
        await wait_until(pilot, lambda: shown() == plain)  # the mark went with the turn

    play(app, scenario)


def test_an_outline_item_is_a_jump(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        await pilot.press("l")
        outline = app.reader_screen.query_one(OutlineList)
        await wait_until(pilot, lambda: outline.option_count == 3)
        assert outline.has_focus
        outline.highlighted = 2
        await pilot.press("enter")
        await wait_until(pilot, lambda: page_line(app).startswith("page 3 of 3"))
        await pilot.press("alt+left")
        await wait_until(pilot, lambda: page_line(app).startswith("page 1 of 3"))

    play(app, scenario)


def test_tabs_are_the_persons_with_ids_per_start(pdf: Path, tmp_path: Path) -> None:
    other = make_pdf(tmp_path / "other.pdf", ["Other"])
    app = ReaderApp(MemoryBackend(), paths=[pdf, other])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app, tabs=2)
        tabs = app.seam.tabs()
        assert [(tab.tab_id, Path(tab.path).name) for tab in tabs] == [
            ("tab-1", "notes.pdf"),
            ("tab-2", "other.pdf"),
        ]
        await pilot.press("w")  # closes tab-2; a new tab gets a new id
        await wait_until(pilot, lambda: len(app.seam.tabs()) == 1)
        app.reader_screen.reader.ask_open()
        await wait_until(pilot, lambda: app.screen is not app.reader_screen)
        await pilot.press(*("ctrl+a", *"x"), "escape")  # any dialog key: just close it
        app.opener.open(other)
        await wait_until(pilot, lambda: len(app.seam.tabs()) == 2)
        assert [tab.tab_id for tab in app.seam.tabs()] == ["tab-1", "tab-3"]

    play(app, scenario)


# ------------------------------------------------------------------ the draft


def test_the_agents_change_shows_and_undo_redo_are_revisions(pdf: Path) -> None:
    backend = MemoryBackend()
    app = ReaderApp(backend, paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        table = app.reader_screen.query_one(AnnotationsTable)
        assert table.row_count == 1
        assert "revision 0 · no unsaved changes" in page_line(app)
        copy_of(backend, pdf).highlight(1, (72, 80, 200, 96), "found it")
        await wait_until(pilot, lambda: "revision 1 · unsaved changes" in page_line(app))
        assert table.row_count == 2
        by = [str(table.get_row_at(row)[2]) for row in range(2)]
        authors = [str(table.get_row_at(row)[3]) for row in range(2)]
        assert by == ["file", "agent"] and authors == ["Ann Person", AGENT_AUTHOR]
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: "revision 2 · no unsaved changes" in page_line(app))
        assert table.row_count == 1
        await pilot.press("ctrl+y")
        await wait_until(pilot, lambda: "revision 3 · unsaved changes" in page_line(app))
        assert table.row_count == 2
        await pilot.press("ctrl+y")  # nothing to redo: said, nothing changes
        await pilot.pause(0.3)
        assert copy_of(backend, pdf).revision() == 3

    play(app, scenario)


def test_delete_and_discard_ask_first(pdf: Path) -> None:
    backend = MemoryBackend()
    app = ReaderApp(backend, paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        copy = copy_of(backend, pdf)
        copy.highlight(1, (72, 80, 200, 96), "found it")
        await wait_until(pilot, lambda: "revision 1" in page_line(app))
        await pilot.press("a", "down", "delete")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # no: nothing deleted
        await pilot.pause(0.2)
        assert copy.revision() == 1
        await pilot.press("delete")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: "revision 2" in page_line(app))
        assert [row.annotation_id for row in copy.annotations(1)] == ["own-1"]
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: "revision 3 · no unsaved changes" in page_line(app))
        assert not copy.unsaved()

    play(app, scenario)


# ------------------------------------------------------------------ calls, registration


def test_the_agents_calls_arrive_with_their_exact_results(pdf: Path, tmp_path: Path) -> None:
    log_path = tmp_path / "calls.jsonl"
    log = CallLog(log_path)
    app = ReaderApp(MemoryBackend(log_path), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        await pilot.press("c")
        text = '{"documentId":"doc-1","revision":0,"total":1,"items":[]}'
        log.append(
            LogEntry(
                time="2026-12-03T20:00:00.000000Z",
                requested=str(pdf),
                path=str(pdf),
                sha256=None,
                pages="",
                grep="",
                out_cap=100_000,
                duration_ms=3.0,
                rendered=None,
                tool="pdf_annotation_list",
                arguments={"documentId": "doc-1"},
                result=ToolResult.of(text),
            )
        )
        result = app.reader_screen.query_one("#call-result", TextArea)
        await wait_until(pilot, lambda: result.text == text)
        assert "pdf_annotation_list" in str(result.border_title)

    play(app, scenario)
    log.close()


def test_the_registration_lines(pdf: Path) -> None:
    registration = Registration("http://127.0.0.1:40123/mcp", "a" * 43)
    app = ReaderApp(MemoryBackend(registration=registration))

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RegisterScreen))
        lines = app.screen.query_one("#register-lines", TextArea).text
        assert (
            "claude mcp add --transport http siftui http://127.0.0.1:40123/mcp "
            f'--header "Authorization: Bearer {"a" * 43}"'
        ) in lines.splitlines()
        assert '"url": "http://127.0.0.1:40123/mcp"' in lines
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.reader_screen)

    play(app, scenario)


# ------------------------------------------------------------------ never a crash


def test_missing_damaged_and_encrypted_files_are_said(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7\nnot really a pdf at all\n")
    locked = make_encrypted_pdf(tmp_path / "locked.pdf")
    app = ReaderApp(MemoryBackend(), paths=[tmp_path / "missing.pdf"])

    async def scenario(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: "no such file" in message(app))
        app.opener.open(damaged)
        await wait_until(pilot, lambda: "damaged.pdf" in message(app))
        assert "not a document siftui can read" in message(app)
        app.opener.open(locked)
        await wait_until(pilot, lambda: app.screen is not app.reader_screen)
        assert "needs a password" in message(app)
        await pilot.press(*"wrong", "enter")
        await wait_until(pilot, lambda: "wrong password" in message(app))
        await wait_until(pilot, lambda: app.screen is not app.reader_screen)
        await pilot.press("escape")
        assert app.reader_screen.store.open == []

    play(app, scenario)


def test_a_tiny_terminal_gets_a_line_not_a_crash(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: len(app.reader_screen.store.open) == 1)
        await idle(app, pilot)
        line = str(app.reader_screen.query_one("#too-small", Static).render())
        assert "needs at least" in line
        await pilot.resize_terminal(*SIZE)
        await wait_until(pilot, lambda: app.reader_screen.query_one("#reader-body").display)
        await wait_until(pilot, lambda: page_line(app).startswith("page 1 of 3"))

    play(app, scenario, (30, 8))


def test_the_palette_and_the_help_list_the_readers_keys(pdf: Path) -> None:
    app = ReaderApp(MemoryBackend(), paths=[pdf])

    async def scenario(pilot: Pilot[Any]) -> None:
        await opened(pilot, app)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        for key in READER_KEYS:
            if key.action != "quit":
                assert f"{key.label} ({key.shown})" in commands
        await commands["Next (PgDn)"].callback()
        await wait_until(pilot, lambda: page_line(app).startswith("page 2 of 3"))
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.reader_screen)

    play(app, scenario)
