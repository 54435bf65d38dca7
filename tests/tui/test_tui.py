"""The TUI driven with Pilot: modes, OutCap, copy, save, password, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.pdfs import USER_PASSWORD, make_encrypted_pdf
from support.tui_support import long_doc, open_with_o, run, settle, wait_until, write_doc
from textual.pilot import Pilot
from textual.widgets import Input, Static

from siftui.core.doc import Doc
from siftui.core.render import Options, render
from siftui.sources.output import rendered_json
from siftui.sources.tokens import count_tokens
from siftui.tui import exporting
from siftui.tui.app import SiftApp
from siftui.tui.screens import ConfirmScreen, PasswordScreen, PathScreen
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.view import ContentView

DOC = long_doc()


@pytest.fixture
def doc_path(tmp_path: Path) -> Path:
    return write_doc(DOC, tmp_path)


def request_error(app: SiftApp) -> str:
    return str(app.query_one("#request-error", Static).render())


async def type_into(pilot: Pilot[int], key: str, text: str) -> None:
    await pilot.press(key)
    await pilot.press(*text)


def test_starts_with_the_cli_defaults(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.options == Options()
        assert app.answer.rendered == render(DOC, Options())
        assert app.answer.rendered.map
        view = app.query_one(ContentView)
        assert list(view.lines) == app.answer.rendered.content.split("\n")

    run(SiftApp(doc_path), scenario)


def test_pages_mode_and_bad_pages_keep_the_last_good_view(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await type_into(pilot, "p", "3-5")
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered == render(DOC, Options(pages="3-5"))
        good = app.answer
        await pilot.press("x")  # "3-5x"
        await settle(app, pilot)
        said = 'invalid pages "3-5x": use "a-b", "a" or "a-"'
        await wait_until(pilot, lambda: request_error(app) == said)
        assert app.answer is not None and app.answer.rendered == good.rendered  # still shown
        await pilot.press("backspace", "backspace", "9", "9")  # "3-99"
        await settle(app, pilot)
        await wait_until(pilot, lambda: request_error(app) == "")
        assert app.answer.rendered == render(DOC, Options(pages="3-99"))
        input_ = app.query_one("#pages", Input)
        input_.value = "70"
        await settle(app, pilot)
        await wait_until(pilot, lambda: request_error(app) == "pages out of range (1-60)")

    run(SiftApp(doc_path), scenario)


def test_grep_mode_with_a_range_and_a_bad_pattern(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await type_into(pilot, "slash", "page 1[0-2]:")
        await settle(app, pilot)
        assert app.answer is not None
        expected = render(DOC, Options(grep="page 1[0-2]:"))
        assert app.answer.rendered == expected
        assert expected.grep_hits == 3 * 40
        app.query_one("#pages", Input).value = "11-"
        await settle(app, pilot)
        assert app.answer.rendered == render(DOC, Options(grep="page 1[0-2]:", pages="11-"))
        app.query_one("#grep", Input).value = "(unclosed"
        await settle(app, pilot)
        await wait_until(pilot, lambda: request_error(app) == "invalid grep: missing ): (unclosed")
        assert app.answer.options.grep == "page 1[0-2]:"
        app.query_one(ContentView).focus()
        await pilot.press("m")
        await settle(app, pilot)
        assert app.answer.options == Options()
        assert app.query_one("#grep", Input).value == ""

    run(SiftApp(doc_path), scenario)


def test_outcap_keys_follow_the_slider(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("right_square_bracket")
        await settle(app, pilot)
        assert app.query_one(OutCapControl).value == 120_000
        assert app.answer is not None
        assert app.answer.rendered == render(DOC, Options(out_cap=120_000))
        for _ in range(3):
            await pilot.press("left_square_bracket")
        await settle(app, pilot)
        assert app.answer.options.out_cap == 60_000
        assert app.answer.rendered == render(DOC, Options(out_cap=60_000))

    run(SiftApp(doc_path), scenario)


def test_copy_puts_the_exact_answer_on_the_clipboard(doc_path: Path, clipboard: list[str]) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one("#pages", Input).value = "7"
        await settle(app, pilot)
        app.query_one(ContentView).focus()
        await pilot.press("c")
        await wait_until(pilot, lambda: app.last_copy is not None)
        expected = render(DOC, Options(pages="7")).content
        assert "中文页面" in expected and "🙂" in expected
        assert app.clipboard == expected
        assert clipboard == [expected]
        assert app.last_copy is not None
        assert app.last_copy.message().startswith("Copied doc.json (page 7), ")
        await pilot.press("j")
        await wait_until(pilot, lambda: len(clipboard) == 2)
        assert clipboard[1] == rendered_json(render(DOC, Options(pages="7")))
        assert json.loads(clipboard[1])["content"] == expected

    run(SiftApp(doc_path), scenario)


def test_copy_never_claims_success_without_a_clipboard(
    doc_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exporting, "copy_system", lambda text: "no clipboard here")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("c")
        await wait_until(pilot, lambda: app.last_copy is not None)
        assert app.last_copy is not None
        message = app.last_copy.message()
        assert "Copied" not in message
        assert "no clipboard here" in message and "Press s" in message
        assert app.last_copy.severity == "error"

    run(SiftApp(doc_path), scenario)


def test_control_characters_are_shown_escaped_but_copied_unchanged(
    doc_path: Path, clipboard: list[str]
) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        app.query_one("#pages", Input).value = "9"
        await settle(app, pilot)
        view = app.query_one(ContentView)
        view.focus()
        shown = "".join(
            segment.text for y in range(view.size.height) for segment in view.render_line(y)
        )
        assert "\x1b" not in shown and "\x07" not in shown
        assert "␛" in shown
        await pilot.press("c")
        await wait_until(pilot, lambda: clipboard)
        assert "\x1b]52;c;aGk=\x07" in clipboard[0]

    run(SiftApp(doc_path), scenario, size=(160, 60))


def test_save_asks_before_overwriting(doc_path: Path, tmp_path: Path) -> None:
    target = tmp_path / "answer.txt"
    target.write_text("precious", encoding="utf-8")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        expected = render(DOC, Options()).content
        for answer, content in (("n", "precious"), ("y", expected)):
            await pilot.press("s")
            await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
            app.screen.query_one(Input).value = str(target)
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press(answer)
            await wait_until(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
            await pilot.pause()
            assert target.read_bytes() == content.encode("utf-8")
        fresh = tmp_path / "fresh.txt"
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        app.screen.query_one(Input).value = str(fresh)
        await pilot.press("enter")
        await wait_until(pilot, fresh.exists)
        assert fresh.read_bytes() == expected.encode("utf-8")

    run(SiftApp(doc_path), scenario)


def test_password_prompt_retries_and_cancels(tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "locked.pdf", "secret page")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: isinstance(app.screen, PasswordScreen))
        await pilot.press(*"nope", "enter")
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, PasswordScreen)
                and "Wrong password"
                in str(app.screen.query_one("#password-error", Static).render())
            ),
        )
        await pilot.press(*USER_PASSWORD, "enter")
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered.content == "--- page 1 ---\n\nsecret page"

    run(SiftApp(path), scenario)

    async def cancel(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: isinstance(app.screen, PasswordScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: "needs a password" in str(app.query_one("#note").render()))
        assert app.answer is None
        assert app.is_running

    run(SiftApp(path), cancel)


@pytest.mark.parametrize("kind", ["missing", "not-a-pdf", "directory", "bad-json"])
def test_a_file_that_cannot_be_opened_keeps_the_app_running(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.pdf"
    if kind == "not-a-pdf":
        path.write_text("hello, not a pdf", encoding="utf-8")
    elif kind == "directory":
        path.mkdir()
    elif kind == "bad-json":
        path = tmp_path / "doc.json"
        path.write_text('{"title": "t", "page_count": "two"}', encoding="utf-8")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        note = app.query_one("#note", Static)
        await wait_until(pilot, lambda: str(note.render()).strip() != "")
        assert app.is_running and app.answer is None
        assert "\n" not in str(note.render()).strip()
        await pilot.press("c")  # nothing to copy: a warning, not a crash
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running

    run(SiftApp(path), scenario)


def test_open_another_file(doc_path: Path, tmp_path: Path) -> None:
    other = write_doc(Doc("Other", 1, ("just one page",)), tmp_path, "other.json")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await open_with_o(app, pilot, other)
        await wait_until(pilot, lambda: app.doc is not None and app.doc.title == "Other")
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered.content == "--- page 1 ---\n\njust one page"

    run(SiftApp(doc_path), scenario)


def test_a_tiny_terminal_does_not_crash(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        for key in ("right_square_bracket", "p", "2", "escape", "slash", "a", "escape", "m"):
            await pilot.press(key)
        await settle(app, pilot)
        await pilot.resize_terminal(20, 6)
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.is_running

    run(SiftApp(doc_path), scenario, size=(40, 12))


def test_real_token_counts_beside_the_estimate(doc_path: Path) -> None:
    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None
        content = app.answer.rendered.content
        line = str(app.query_one("#tokens", Static).render())
        assert f"~{len(content) // 4:,} runes/4" in line
        for name in ("o200k_base", "cl100k_base"):
            assert f"{name} {count_tokens(content, name):,}" in line

    run(SiftApp(doc_path), scenario)


def test_help_scrolls_and_the_footer_keeps_help_and_quit_at_80_columns(doc_path: Path) -> None:
    from textual.containers import VerticalScroll
    from textual.widgets._footer import FooterKey

    from siftui.tui.keys import KEYS, help_markdown
    from siftui.tui.screens import HelpScreen

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        keys = [key for key in app.screen.query(FooterKey) if key.region.width]
        shown = [(key.key_display, key.description) for key in keys if key.region.right <= 80]
        assert ("?", "Help") in shown and ("q", "Quit") in shown
        for key in KEYS:  # the help's table is the key list
            assert f"| `{key.shown}` | {key.help} |" in help_markdown()
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        scroll = app.screen.query_one("#help", VerticalScroll)
        assert scroll.region.right <= 80 and scroll.region.bottom <= 24
        await pilot.press("pagedown")
        await pilot.pause()
        assert scroll.scroll_y > 0
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)

    run(SiftApp(doc_path), scenario, size=(80, 24))


def test_open_dialog_starts_in_the_cwd_completes_with_tab_and_lists_folders(
    tmp_path: Path, doc_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import OptionList

    folder = tmp_path / "papers"
    folder.mkdir()
    other = write_doc(Doc("In a folder", 1, ("inside",)), folder, "inside.json")
    monkeypatch.chdir(tmp_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        field = app.screen.query_one("#path", Input)
        assert field.value == str(tmp_path) + "/"
        await pilot.press(*"pap")
        await pilot.pause(0.3)
        await pilot.press("tab")
        await wait_until(pilot, lambda: field.value == str(folder))
        await pilot.press("enter")  # a folder: its listing, not an error
        await wait_until(pilot, lambda: field.value == str(folder) + "/")
        listing = app.screen.query_one("#listing", OptionList)
        await wait_until(pilot, lambda: listing.option_count == 1)
        assert isinstance(app.screen, PathScreen)
        await pilot.press("tab", "enter")
        await wait_until(pilot, lambda: app.doc is not None and app.doc.title == "In a folder")
        await settle(app, pilot)
        assert app.answer is not None and app.answer.rendered.content.endswith("inside")
        assert other.exists()

    run(SiftApp(doc_path), scenario)
