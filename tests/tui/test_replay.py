"""siftui log: replaying an MCP call log in the TUI."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from support.pdfs import make_pdf
from support.tui_support import run, settle, wait_until, word_options
from textual.pilot import Pilot
from textual.widgets import Static

from siftui.core.render import Options, Rendered, render
from siftui.sources.extract import extract
from siftui.sources.log.calllog import LogEntry, entry_to_line
from siftui.sources.log.reading import read_log
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.widgets.call_list import CallList
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.replay import ReplayStatus
from siftui.tui.widgets.view import ContentView

CALLS = (("", "", 300), ("2-3", "", 400), ("", "line", 250))


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    pages = [f"Page {n} line one\nline two of {n}\n" + "words " * 40 for n in range(1, 6)]
    return make_pdf(tmp_path / "doc.pdf", pages, title="Replay")


def write_log(pdf: Path, folder: Path) -> Path:
    doc = extract(pdf)
    sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
    entries = [
        LogEntry(
            "2026-01-01T10:00:00Z",
            pdf.name,
            str(pdf),
            sha,
            pages,
            grep,
            cap,
            5.0,
            render(doc, Options(pages=pages, grep=grep, out_cap=cap)),
        )
        for pages, grep, cap in CALLS
    ]
    entries.append(
        LogEntry(
            "2026-01-01T10:00:01Z",
            "../x.pdf",
            "../x.pdf",
            None,
            "",
            "",
            300,
            0.1,
            None,
            "../x.pdf is outside the allowed roots (/data)",
        )
    )
    stale = render(doc, Options(out_cap=300))
    entries.append(
        LogEntry("2026-01-01T10:00:02Z", pdf.name, str(pdf), "0" * 64, "", "", 300, 1.0, stale)
    )
    log = folder / "calls.jsonl"
    log.write_text("".join(entry_to_line(entry) for entry in entries), encoding="utf-8")
    return log


def replay_text(app: SiftApp) -> str:
    return str(app.query_one("#replay", ReplayStatus).render())


def test_each_call_shows_what_the_agent_received_and_reruns_it(pdf: Path, tmp_path: Path) -> None:
    entries = read_log(write_log(pdf, tmp_path))
    doc = extract(pdf)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: "same bytes" in replay_text(app))
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered == entries[0].rendered
        assert app.sub_title == Path(entries[0].path).name  # opened: no "opening ... …"
        assert app.query_one(OutCapControl).value == 300
        assert [call.request.options for call in app.history.calls] == [entries[0].options]
        for number in (1, 2):
            await pilot.press("down")

            def replayed(number: int = number) -> bool:
                return (
                    app.answer is not None
                    and app.answer.options == entries[number].options
                    and "same bytes" in replay_text(app)
                )

            await wait_until(
                pilot,
                replayed,
            )
            assert app.answer.rendered == entries[number].rendered
            await settle(app, pilot)
            calls = str(app.query_one("#calls-line", Static).render())
            assert calls.startswith(f"call {number + 1} of 5 in the log · "), calls
        # Another budget: the live view follows the slider again.
        await pilot.press("down")
        await wait_until(pilot, lambda: "the agent got an error" in replay_text(app))
        assert "outside the allowed roots" in replay_text(app)
        # The view shows what the agent got, the error's text, not the call before's answer.
        await settle(app, pilot)
        assert app.answer is not None and app.answer.logged
        assert app.answer.rendered.content == entries[3].message
        # The header names the log, then the file of the call shown (not one still opening).
        assert app.title == "call log: 5 calls"
        assert app.sub_title == Path(entries[3].path).name
        view = app.query_one(ContentView)
        assert str(view.border_title) == "what the agent received (logged) · error"
        assert app.answer.failed and app.answer.label() == "error"
        assert "outside the allowed roots" in "".join(app.answer.layout.lines)
        await pilot.press("down")
        await wait_until(pilot, lambda: "file changed since the call" in replay_text(app))
        assert app.answer is not None and app.answer.rendered == entries[4].rendered
        await pilot.press("up", "up", "up", "up")
        await wait_until(
            pilot,
            lambda: (
                app.answer is not None
                and app.answer.options.out_cap == 300
                and "same bytes" in replay_text(app)
            ),
        )
        app.query_one(OutCapControl).value = 5000
        await wait_until(
            pilot, lambda: app.answer is not None and app.answer.options.out_cap == 5000
        )
        await settle(app, pilot)
        assert app.answer.rendered == render(doc, Options(out_cap=5000))

    run(create_log_app(entries), scenario, size=(140, 40))


def test_call_list_rows(pdf: Path, tmp_path: Path) -> None:
    entries = read_log(write_log(pdf, tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: "same bytes" in replay_text(app))
        await settle(app, pilot)
        table = app.query_one(CallList)
        assert table.row_count == 5
        assert str(table.get_row_at(1)[4]) == 'pages="2-3"'
        assert str(table.get_row_at(3)[2]) == "error"
        assert table.get_row_at(0)[2] == f"{len(entries[0].rendered.content):,} runes"  # type: ignore[union-attr]

    run(create_log_app(entries), scenario, size=(140, 40))


def test_cli_log_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"time": 1}\n', encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    for path, expected in ((bad, "line 1"), (empty, "holds no calls"), (tmp_path / "no", "no")):
        done = subprocess.run(
            [sys.executable, "-m", "siftui", "log", str(path)], capture_output=True, timeout=60
        )
        assert done.returncode == 1
        assert done.stderr.decode().count("\n") == 1 and expected in done.stderr.decode()
        assert b"Traceback" not in done.stderr


def word_log(folder: Path, word: Path, doc_sha: str | None, answer: Rendered) -> Path:
    """A log of one read_docx call (range P2..P3, OutCap 300) on ``word``."""
    from dataclasses import replace

    from siftui.sources.log.fields import DocxArgs

    entry = LogEntry(
        "2026-01-01T10:00:00Z", word.name, str(word), doc_sha, "", "", 300, 1.0, answer
    )
    entry = replace(entry, tool="read_docx", docx=DocxArgs(range="P2..P3"))
    log = folder / "calls.jsonl"
    log.write_text(entry_to_line(entry), encoding="utf-8")
    return log


def test_a_word_call_is_rerun_as_read_docx_on_the_unchanged_file(tmp_path: Path) -> None:
    """A read_docx call is made again the Word way (range, scope and window as logged):
    the live answer is the logged one, and OutCap can be moved from there."""
    from support.docx_build import p, write_docx

    from siftui.core.word.render import DocxOptions, render_docx
    from siftui.sources.word.load import load_docx

    word = write_docx(
        tmp_path / "memo.docx", "".join(p(f"Line {n} of the memo.") for n in range(9))
    )
    options = DocxOptions(range="P2..P3", out_cap=300)
    logged = render_docx(load_docx(word), options)
    digest = hashlib.sha256(word.read_bytes()).hexdigest()
    entries = read_log(word_log(tmp_path, word, digest, logged))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: "same bytes the agent received" in replay_text(app), 30)
        await settle(app, pilot)
        assert app.request.options == options
        assert app.answer is not None and not app.answer.logged
        assert app.answer.rendered == logged
        app.query_one(OutCapControl).value = 40
        await wait_until(pilot, lambda: app.request.options == DocxOptions("P2..P3", out_cap=40))
        await settle(app, pilot)
        assert app.answer is not None
        assert app.answer.rendered == render_docx(
            load_docx(word), word_options(app.request.options)
        )

    run(create_log_app(entries), scenario, size=(140, 40))


def test_a_word_call_on_a_changed_file_keeps_the_logged_answer(tmp_path: Path) -> None:
    word = tmp_path / "memo.docx"
    word.write_bytes(b"PK\x03\x04 not really a package")
    answer = Rendered("[P1#abcd]  Hello", False, 1, 1, 0, "")
    entries = read_log(word_log(tmp_path, word, "0" * 64, answer))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: "changed since the call" in replay_text(app))
        await settle(app, pilot)
        assert 'range="P2..P3"' in replay_text(app)
        assert app.answer is not None and app.answer.logged and app.answer.rendered == answer

    run(create_log_app(entries), scenario, size=(140, 40))


def calls_line(app: SiftApp) -> str:
    return str(app.query_one("#calls-line", Static).render())


def test_the_panel_says_whether_the_answer_shown_is_the_agents(pdf: Path, tmp_path: Path) -> None:
    """The logged bytes, a re-run equal to them, or a what-if (`]`) the agent never got;
    the calls line numbers the log's calls and b / f move through them."""
    entries = read_log(write_log(pdf, tmp_path))
    doc = extract(pdf)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await pilot.press("down")
        await wait_until(pilot, lambda: "call 2: " in replay_text(app))
        await wait_until(pilot, lambda: "same bytes" in replay_text(app))
        await settle(app, pilot)
        assert calls_line(app).startswith("call 2 of 5 in the log · this answer ")
        app.query_one("#content").focus()
        await pilot.press("right_square_bracket")
        await wait_until(pilot, lambda: app.answer is not None and app.answer.options.out_cap > 400)
        await settle(app, pilot)
        status, answer = replay_text(app), app.answer
        assert answer is not None and isinstance(answer.options, Options)
        assert "same bytes" not in status
        assert "a what-if" in status and "an answer the agent never got" in status
        assert f"OutCap {answer.options.out_cap:,}" in status
        assert answer.rendered == render(doc, answer.options)
        assert calls_line(app).startswith("what-if beside call 2 of 5 in the log: ")
        app.query_one(OutCapControl).value = 400  # back to the logged call's OutCap
        await wait_until(pilot, lambda: "same bytes" in replay_text(app))
        assert calls_line(app).startswith("call 2 of 5 in the log · ")
        await pilot.press("b")
        await wait_until(pilot, lambda: "call 1: " in replay_text(app))
        await wait_until(pilot, lambda: calls_line(app).startswith("call 1 of 5 in the log · "))

    run(create_log_app(entries), scenario, size=(140, 40))


def test_a_call_served_in_bytes_is_rerun_in_bytes(tmp_path: Path) -> None:
    from dataclasses import replace

    from support.tui_support import long_doc, write_doc

    path = write_doc(long_doc(), tmp_path)  # page 7 holds CJK text
    options = Options(pages="7", out_cap=1_000, unit="bytes")
    logged = render(long_doc(), options)
    assert logged != render(long_doc(), replace(options, unit="chars"))  # the unit matters
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    entry = LogEntry("2026-01-01T10:00:00Z", path.name, str(path), sha, "7", "", 1_000, 1.0, logged)
    log = tmp_path / "calls.jsonl"
    log.write_text(entry_to_line(replace(entry, unit="bytes")), encoding="utf-8")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: "same bytes" in replay_text(app), 30)
        await settle(app, pilot)
        assert app.request.options == options
        assert app.answer is not None and not app.answer.logged
        assert app.answer.rendered == logged
        assert app.query_one(OutCapControl).unit == "bytes"

    run(create_log_app(read_log(log)), scenario, size=(140, 40))
