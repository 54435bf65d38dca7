"""The evidence preview (`e`): an evidence session on the open PDF, exactly as sent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.evidence_session import session_lines
from support.pdfs import make_pdf, make_square_pdf
from support.tui_support import run, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static, TextArea
from textual.widgets.text_area import Selection

from siftui.cli.evidence_preview import preview_factory
from siftui.core.halfblocks import fitted
from siftui.sources.sample import sample_path
from siftui.tui.app import SiftApp
from siftui.tui.display import escape_controls
from siftui.tui.evidence import exports
from siftui.tui.evidence.image import PageImage
from siftui.tui.evidence.model import Result
from siftui.tui.evidence.screen import EvidenceScreen
from siftui.tui.evidence.session import call_text
from siftui.tui.factory import create_app
from siftui.tui.screens import ConfirmScreen, PathScreen

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(exports, "copy_system", lambda text: "no clipboard here")
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "field notes.pdf"
    shutil.copyfile(sample_path(), target)
    return target


def screen_of(app: SiftApp) -> EvidenceScreen:
    screen = app.screen
    assert isinstance(screen, EvidenceScreen)
    return screen


async def made(app: SiftApp, pilot: Pilot[int], count: int) -> EvidenceScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen))
    screen = screen_of(app)
    await wait_until(pilot, lambda: len(screen.session.made) >= count and not screen.busy, 60)
    await pilot.pause()
    return screen


async def start(app: SiftApp, pilot: Pilot[int]) -> EvidenceScreen:
    await settle(app, pilot)
    await pilot.press("e")
    return await made(app, pilot, 1)


async def type_call(app: SiftApp, pilot: Pilot[int], text: str) -> None:
    await pilot.press("colon")
    call = app.screen.query_one("#ev-call", Input)
    call.value = text
    await pilot.press("enter")


async def copied(app: SiftApp, pilot: Pilot[int], key: str) -> str:
    app.copy_to_clipboard("")
    await pilot.press(key)
    await wait_until(pilot, lambda: app.clipboard != "")
    return app.clipboard


def test_e_opens_the_file_in_a_session_and_c_copies_what_session_prints(pdf: Path) -> None:
    calls: list[tuple[str, object]] = [("pdf_open", {"path": pdf.name})]
    texts: list[str] = []

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        assert screen.query_one("#ev-call", Input).value == f'pdf_open {{"path": "{pdf.name}"}}'
        texts.append(await copied(app, pilot, "c"))
        read = {"documentId": "doc-1", "page": 1, "lastPage": 3, "maxChars": 300}
        await type_call(app, pilot, "pdf_page_read " + json.dumps(read))
        screen = await made(app, pilot, 2)
        calls.append(("pdf_page_read", read))
        texts.append(await copied(app, pilot, "c"))
        assert screen.query_one("#ev-view", TextArea).text == texts[-1]
        await pilot.press("n")  # next: same lastPage and maxChars
        screen = await made(app, pilot, 3)
        calls.append(("pdf_page_read", screen.session.made[-1].arguments))
        assert screen.session.made[-1].arguments == {
            "documentId": "doc-1",
            "page": 1,
            "offset": 300,
            "lastPage": 3,
            "maxChars": 300,
        }
        texts.append(await copied(app, pilot, "c"))
        line = str(screen.query_one("#ev-calls", Static).render())
        assert "Session: 3 calls" in line and "UTF-16 units" in line and "runes" in line
        await pilot.press("e")
        assert not isinstance(app.screen, EvidenceScreen)  # back to read_pdf
        await pilot.press("e")
        assert screen_of(app) is screen and len(screen.session.made) == 3  # the session is kept

    run(create_app(pdf, evidence=preview_factory), scenario)
    assert texts == session_lines(pdf.parent, calls)


def test_a_refused_call_shows_its_line_and_keeps_the_result(pdf: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        before = screen.query_one("#ev-view", TextArea).text
        await type_call(app, pilot, 'pdf_page_read {"documentId": "doc-1", "page": 99}')
        screen = await made(app, pilot, 2)
        error = str(screen.query_one("#ev-error", Static).render())
        assert error == session_lines(
            pdf.parent,
            [
                ("pdf_open", {"path": pdf.name}),
                ("pdf_page_read", {"documentId": "doc-1", "page": 99}),
            ],
        )[1].removeprefix("error: ")
        assert screen.query_one("#ev-view", TextArea).text == before
        await type_call(app, pilot, "pdf_page_read {nope")
        await pilot.pause()
        assert "not valid JSON" in str(screen.query_one("#ev-error", Static).render())
        assert len(screen.session.made) == 2  # not sent

    run(create_app(pdf, evidence=preview_factory), scenario)


def test_tab_completes_tool_names_and_keys(pdf: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await start(app, pilot)
        await pilot.press("colon")
        call = app.screen.query_one("#ev-call", Input)
        call.value = "pdf_key"
        await pilot.press("tab")
        assert call.value == "pdf_keyword_search {"
        await pilot.press("tab")
        assert call.value == 'pdf_keyword_search {"'
        await pilot.press("q", "tab")
        assert call.value == 'pdf_keyword_search {"query": '

    run(create_app(pdf, evidence=preview_factory), scenario)


def test_n_b_f_j_search_bookmarks_and_reading(pdf: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        await type_call(
            app,
            pilot,
            'pdf_keyword_search {"documentId": "doc-1", "query": "the", "maxResults": 2}',
        )
        screen = await made(app, pilot, 2)
        await pilot.press("n")
        screen = await made(app, pilot, 3)
        assert screen.session.made[-1].arguments == {"searchId": "search-1"}
        mcp = json.loads(await copied(app, pilot, "j"))
        assert mcp["isError"] is False
        assert mcp["content"][0]["text"] == screen.session.made[-1].result.lines[0]
        await pilot.press("b")
        assert screen.session.shown == 1
        await pilot.press("f")
        assert screen.session.shown == 2
        await pilot.press("v")  # the reading layout: hits with the hit marked
        options = screen.query_one("#ev-reading", OptionList)
        assert options.display and options.option_count >= 3
        assert any(row.mark is not None for row in screen._rows)
        options.highlighted = next(n for n, row in enumerate(screen._rows) if row.ref)
        ref = screen._rows[options.highlighted].ref
        await pilot.press("enter")
        screen = await made(app, pilot, 4)
        assert screen.session.made[-1].tool == "pdf_evidence_read"
        assert screen.session.made[-1].arguments == {"documentId": "doc-1", "refId": ref}
        await type_call(app, pilot, 'pdf_bookmark_list {"documentId": "doc-1", "limit": 3}')
        screen = await made(app, pilot, 5)
        assert any(row.role == "tree" and row.text.startswith("  ") for row in screen._rows)
        await pilot.press("n")
        screen = await made(app, pilot, 6)
        assert screen.session.made[-1].arguments == {"documentId": "doc-1", "cursor": "cur-1"}

    run(create_app(pdf, evidence=preview_factory), scenario)


def test_S_saves_a_script_that_session_replays_to_the_same_lines(pdf: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        await type_call(app, pilot, 'pdf_page_render {"documentId": "doc-1", "page": 2, "dpi": 36}')
        screen = await made(app, pilot, 2)
        await pilot.press("v")
        assert "px at 36 dpi" in screen._rows[0].text
        await pilot.press("S")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        field = app.screen.query_one(Input)
        assert field.value == str(pdf.parent / "field notes.session.jsonl")
        await pilot.press("enter")
        target = pdf.parent / "field notes.session.jsonl"
        await wait_until(pilot, lambda: target.exists())
        lines = [json.loads(line) for line in target.read_text().splitlines()]
        calls = [(line["tool"], line["arguments"]) for line in lines]
        printed = [line for made in screen.session.made for line in made.result.lines]
        assert session_lines(pdf.parent, calls) == printed
        await pilot.press("S")  # again: the file exists, so it asks
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")

    run(create_app(pdf, evidence=preview_factory), scenario)


def cell_colours(widget: PageImage, x: int, y: int) -> tuple[str, str]:
    """The foreground and background of the cell at ``x``, ``y`` of the widget, as drawn."""
    strip = widget.render_line(y)
    at = 0
    for segment in strip:
        width = len(segment.text)
        if at <= x < at + width:
            style = segment.style
            assert style is not None and style.color and style.bgcolor, segment
            assert segment.text[x - at] == "▀"
            return style.color.get_truecolor().hex, style.bgcolor.get_truecolor().hex
        at += width
    raise AssertionError(f"no cell {x} in line {y}")


def test_a_page_image_is_drawn_in_half_blocks_with_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = make_square_pdf(tmp_path / "square.pdf")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        await type_call(app, pilot, 'pdf_page_render {"documentId": "doc-1", "page": 1, "dpi": 72}')
        screen = await made(app, pilot, 2)
        image = screen.query_one(PageImage)
        assert not image.display  # the exact view shows the JSON and the image line
        text = screen.session.made[-1].result.text
        assert text.startswith("image: ") and "\n{" in text  # two blocks, two lines
        assert screen.query_one("#ev-view", TextArea).text == text
        await pilot.press("v")
        await pilot.pause()
        assert screen._rows[0].text == "page image of page 1: 200x200 px at 72 dpi"
        assert image.display and image.pixels is not None
        columns, rows = image.size
        width, height = fitted(200, 200, columns, rows)
        assert width > 8 and height > 8  # a picture, not a dot
        black, white = "#000000", "#ffffff"
        assert cell_colours(image, width // 2, height // 4) == (black, black)  # the middle
        assert cell_colours(image, 0, 0) == (white, white)  # a corner
        assert cell_colours(image, width - 1, height // 2 - 1) == (white, white)
        assert cell_colours(image, width // 2, 0) == (white, white)  # above the square
        await pilot.press("v")
        assert not image.display

    run(create_app(path, evidence=preview_factory), scenario)


def location(text: str, index: int) -> tuple[int, int]:
    """The TextArea (row, column) of ``index`` in ``text``."""
    before = text[:index].split("\n")
    return len(before) - 1, len(before[-1])


def test_x_narrows_a_reference_to_the_selected_text(pdf: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        await type_call(app, pilot, 'pdf_page_read {"documentId": "doc-1", "page": 1}')
        screen = await made(app, pilot, 2)
        ref = next(row.ref for row in screen._rows if row.ref)
        view = screen.query_one("#ev-view", TextArea)
        words = next(row.text for row in screen._rows if row.role == "text" and len(row.text) > 12)
        quote = words[2:12]
        start_at = view.text.index(quote)
        view.selection = Selection(
            location(view.text, start_at), location(view.text, start_at + len(quote))
        )
        await pilot.press("x")
        screen = await made(app, pilot, 3)
        narrowed = screen.session.made[-1]
        arguments = {"documentId": "doc-1", "refId": ref, "quote": quote}
        assert (narrowed.tool, narrowed.arguments) == ("pdf_evidence_read", arguments)
        assert not narrowed.result.is_error
        value = narrowed.result.value()
        assert isinstance(value, dict)
        assert "".join(piece["text"] for piece in value["pages"]) == quote
        calls: list[tuple[str, object]] = [
            ("pdf_open", {"path": pdf.name}),
            ("pdf_page_read", {"documentId": "doc-1", "page": 1}),
            ("pdf_evidence_read", arguments),
        ]
        assert narrowed.result.text == session_lines(pdf.parent, calls)[2]
        typed = call_text("pdf_evidence_read", arguments)
        assert view.border_title == typed
        assert screen.query_one("#ev-call", Input).value == typed

    run(create_app(pdf, evidence=preview_factory), scenario)


def test_x_without_a_selection_opens_the_call_line_and_a_missing_quote_is_refused(
    pdf: Path,
) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        await type_call(app, pilot, 'pdf_page_read {"documentId": "doc-1", "page": 1}')
        screen = await made(app, pilot, 2)
        before = screen.query_one("#ev-view", TextArea).text
        await pilot.press("v")
        options = screen.query_one("#ev-reading", OptionList)
        options.highlighted = next(n for n, row in enumerate(screen._rows) if row.ref)
        ref = screen._rows[options.highlighted].ref
        await pilot.press("x")
        line = screen.query_one("#ev-call", Input)
        arguments = {"documentId": "doc-1", "refId": ref, "quote": ""}
        assert line.has_focus and line.value == call_text("pdf_evidence_read", arguments)
        assert len(screen.session.made) == 2  # nothing sent yet
        await pilot.press(*("space" if c == " " else c for c in "no such words"))
        await pilot.press("enter")
        screen = await made(app, pilot, 3)
        error = str(screen.query_one("#ev-error", Static).render())
        missing = {**arguments, "quote": "no such words"}
        assert screen.session.made[-1].arguments == missing
        expected = session_lines(
            pdf.parent,
            [
                ("pdf_open", {"path": pdf.name}),
                ("pdf_page_read", {"documentId": "doc-1", "page": 1}),
                ("pdf_evidence_read", missing),
            ],
        )[2]
        assert expected.startswith("error: ") and "\n" not in error
        assert error == expected.removeprefix("error: ")
        assert screen.query_one("#ev-view", TextArea).text == before

    run(create_app(pdf, evidence=preview_factory), scenario)


def test_a_documents_escape_codes_are_shown_never_sent_to_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PDF's ESC reached the terminal raw through the preview (found by a run in
    tmux): the JSON view and the reading rows show it as the main view does, and `c`
    still copies the exact result."""
    monkeypatch.setattr(exports, "copy_system", lambda text: "no clipboard here")
    target = make_pdf(tmp_path / "esc.pdf", ["red \x1b[31m alarm and the rest"])

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        await type_call(app, pilot, 'pdf_page_read {"documentId": "doc-1", "page": 1}')
        screen = await made(app, pilot, 2)
        assert "\\u001b" in screen.session.made[-1].result.text  # JSON: escaped already
        assert "\x1b" not in screen.query_one("#ev-view", TextArea).text
        await pilot.press("v")  # the rows are the JSON's strings, decoded: ESC itself
        rows = screen.query_one("#ev-reading", OptionList)
        texts = [str(rows.get_option_at_index(n).prompt) for n in range(rows.option_count)]
        assert not any("\x1b" in text for text in texts)
        assert any(f"red {escape_controls(chr(27))}[31m alarm" in text for text in texts)
        assert "\\u001b" in await copied(app, pilot, "c")  # the JSON line, exact
        # No system clipboard: the key named is the preview's own save (s would save
        # the read_pdf answer behind it).
        said = exports.LAST_COPY[id(app)].message()
        assert "Press S to save the session's calls as a script." in said
        assert "Press s " not in said

    run(create_app(target, evidence=preview_factory), scenario)


def test_a_search_on_another_document_reads_its_hits_there(pdf: Path, tmp_path: Path) -> None:
    """A search's hits name no document: Enter and `x` read them on the document the
    search was made on (they always said doc-1)."""
    other = shutil.copyfile(pdf, tmp_path / "other.pdf")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        await type_call(app, pilot, f'pdf_open {{"path": "{other.name}"}}')
        screen = await made(app, pilot, 2)
        await type_call(app, pilot, 'pdf_keyword_search {"documentId": "doc-2", "query": "the"}')
        screen = await made(app, pilot, 3)
        await pilot.press("n")  # the continuation names only the searchId
        screen = await made(app, pilot, 4)
        await pilot.press("v")
        options = screen.query_one("#ev-reading", OptionList)
        options.highlighted = next(n for n, row in enumerate(screen._rows) if row.ref)
        await pilot.press("enter")
        screen = await made(app, pilot, 5)
        assert screen.session.made[-1].arguments["documentId"] == "doc-2"
        assert not screen.session.made[-1].result.is_error

    run(create_app(pdf, evidence=preview_factory), scenario)


def test_a_short_terminal_gives_the_result_its_rows(pdf: Path) -> None:
    """40x10: no empty error or hint line, the call line without its border; an error
    takes its line while it is said, and gives it back."""

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        view = screen.query_one("#ev-view", TextArea)
        error = screen.query_one("#ev-error", Static)
        assert not error.display and not screen.query_one("#ev-hint", Static).display
        assert screen.query_one("#ev-call", Input).region.height == 1
        assert view.content_region.height >= 5
        assert view.text.startswith("{") and view.document.get_line(0)
        await type_call(app, pilot, 'pdf_page_read {"documentId": "doc-1", "page": 99}')
        screen = await made(app, pilot, 2)
        assert error.display and error.region.height == 1
        await type_call(app, pilot, 'pdf_page_read {"documentId": "doc-1", "page": 1}')
        screen = await made(app, pilot, 3)
        await pilot.pause()
        assert not error.display and view.content_region.height >= 5

    run(create_app(pdf, evidence=preview_factory), scenario, size=(40, 10))


def session_sizes(folder: Path, calls: list[tuple[str, object]], config: Path) -> list[str]:
    """The stderr lines `siftui session --tokens` prints for ``calls``."""
    script = "".join(json.dumps({"tool": t, "arguments": a}) + "\n" for t, a in calls)
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "session", "--root", str(folder), "--tokens"],
        input=script.encode(),
        capture_output=True,
        check=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO), "XDG_CONFIG_HOME": str(config)},
    )
    return done.stderr.decode("utf-8").splitlines()


def test_each_result_shows_its_token_line_and_the_agents_check_as_session_tokens_does(
    pdf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "no agents file"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    read = {"documentId": "doc-1", "page": 1, "lastPage": 5, "maxChars": 20000}
    calls: list[tuple[str, object]] = [("pdf_open", {"path": pdf.name}), ("pdf_page_read", read)]
    shown: list[str] = []

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        screen = await start(app, pilot)
        view = screen.query_one("#ev-view", TextArea)
        await wait_until(pilot, lambda: "agents:" in str(view.border_subtitle), 60)
        shown.append(str(view.border_subtitle))
        await type_call(app, pilot, "pdf_page_read " + json.dumps(read))
        screen = await made(app, pilot, 2)
        await wait_until(pilot, lambda: str(view.border_subtitle) != shown[0], 60)
        await wait_until(pilot, lambda: "agents:" in str(view.border_subtitle), 60)
        shown.append(str(view.border_subtitle))
        await pilot.press("v")  # the reading layout says the same
        assert str(screen.query_one("#ev-reading", OptionList).border_subtitle) == shown[1]
        await pilot.press("v", "b")  # back to the first result, and its sizes
        await wait_until(pilot, lambda: str(view.border_subtitle) == shown[0])

    run(create_app(pdf, evidence=preview_factory), scenario, size=(160, 40))
    sizes = session_sizes(pdf.parent, calls, config)
    for number, line in enumerate(shown):
        counted, agents = sizes[2 * number], sizes[2 * number + 1]
        for name in ("o200k_base", "cl100k_base"):
            tokens = counted.split(f"  {name} ")[1].split()[0]
            assert f"{name} {tokens} = " in line, (line, counted)
        assert line.startswith("tokens: ~") and line.endswith(" · " + agents.split(": ", 1)[1])
    assert "✗ Codex CLI shell output" in shown[1] and "✗" not in shown[0]


def test_a_result_nested_too_deep_has_no_value() -> None:
    """A text block deeper than Python's JSON parser goes is no JSON value: its
    RecursionError, which is no ValueError, escaped before."""
    deep = Result(lines=("x",), texts=("[" * 100_000 + "]" * 100_000,), mcp=lambda: "")
    assert deep.value() is None
