"""A crafted call log never puts a control on the terminal through the replay:
ESC, OSC (a window title, OSC 52 into the clipboard), C1 and bidi controls in
`path`, `requested`, `options`, `note` and `message` are drawn as visible escapes in the
call table, the status line, the view, the notes, the notifications and the report.
(tests/cli/test_terminal_output.py covers the command line.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.tui_support import book_doc, careless_log, idle, run, wait_until, write_doc
from textual.pilot import Pilot

from siftui.sources.log.reading import read_log
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.screens.log_report import LogReportScreen
from siftui.tui.widgets.call_list import CallList

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;Y3VybCBodHRwOi8vZXZpbA==\x07\x9b31m\u202eevil\u2066"
"""A window title, a screen clear, OSC 52 (a `curl` line for the clipboard), C1 CSI,
a right-to-left override and an isolate."""

BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unsafe(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on instead of showing."""
    return [
        char
        for char in text
        if (ord(char) < 0x20 and char != "\n") or 0x7F <= ord(char) <= 0x9F or char in BIDI
    ]


def crafted_log(folder: Path) -> Path:
    write_doc(book_doc(), folder, "book.json")
    log = careless_log(book_doc(), "book.json", folder)
    lines = []
    for line in log.read_text("utf-8").splitlines():
        entry = json.loads(line)
        entry["requested"] = f"book{HOSTILE}.json"
        entry["path"] = f"{HOSTILE}/book.json"
        entry["options"] = {"pages": f"2-{HOSTILE}", "grep": f"fox{HOSTILE}"}
        if "note" in entry:
            entry["note"] = f"cut at page 5; {HOSTILE}"
        if "message" in entry:
            entry["message"] = f"refused: {HOSTILE}"
        lines.append(json.dumps(entry) + "\n")
    log.write_text("".join(lines), "utf-8")
    return log


def screen_text(app: SiftApp) -> str:
    """Every cell the terminal is sent for the screen shown (toasts included), a line
    per row (the rows' own text holds no line break)."""
    rows = [strip.text for strip in app.screen._compositor.render_strips()]
    assert not any("\n" in row for row in rows)
    return "\n".join(rows)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_crafted_log_reaches_the_replay_escaped(here: Path) -> None:
    entries = read_log(crafted_log(here))
    assert any(unsafe(entry.path) for entry in entries)  # the log holds them raw
    seen: list[str] = []

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        table = app.query_one(CallList)
        for number in range(1, table.row_count + 1):
            table.show_call(number)
            await pilot.pause(0.2)
            await idle(app, pilot)
            text = screen_text(app)
            seen.append(text)
            raw = [row for row in text.splitlines() if unsafe(row)]
            assert not raw, (number, raw)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, LogReportScreen), 60)
        await pilot.pause(0.3)
        text = screen_text(app)
        seen.append(text)
        assert not unsafe(text), unsafe(text)

    run(create_log_app(entries), scenario, size=(140, 45))
    # The fields were drawn, escaped: the screen showed what the log said.
    shown = "\n".join(seen)
    assert "pwned" in shown and "evil" in shown
    assert "␛" in shown or "\\x1b" in shown or "<U+001B>" in shown
