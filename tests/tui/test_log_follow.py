"""`siftui log FILE --follow` and `F`: calls appear in the replay as the server appends them."""

from __future__ import annotations

import time
from pathlib import Path

from support.tui_support import book_doc, careless_log, run, wait_until, write_doc
from textual.pilot import Pilot

from siftui.sources.log.follow import LogTail
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.history import Calls
from siftui.tui.widgets.call_list import CallList
from siftui.tui.widgets.replay import CallChosen

DELAYS: list[float] = []


def test_a_tail_reads_complete_lines_only(tmp_path: Path) -> None:
    log = careless_log(book_doc(), str(write_doc(book_doc(), tmp_path)), tmp_path)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:2]) + lines[2][:10])  # a torn third line
    tail = LogTail(log)
    assert len(tail.read()[0]) == 2
    assert tail.read() == ([], [])  # the torn line is waited for, not refused
    with log.open("ab") as handle:
        handle.write(lines[2][10:] + b"not json\n")
    entries, skipped = tail.read()
    assert len(entries) == 1 and len(skipped) == 1 and "line 4" in skipped[0]


def test_follow_shows_each_appended_call_within_a_second(tmp_path: Path) -> None:
    log = careless_log(book_doc(), str(write_doc(book_doc(), tmp_path)), tmp_path)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:3]))
    tail = LogTail(log)
    entries, _ = tail.read()

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        table = app.query_one(CallList)
        assert table.row_count == 3
        for count, line in enumerate(lines[3:], 4):
            with log.open("ab") as handle:  # written in two pieces: a torn line first
                handle.write(line[:7])
                handle.flush()
                await pilot.pause(0.3)
                assert table.row_count == count - 1
                handle.write(line[7:])
            written = time.monotonic()
            await wait_until(pilot, lambda: table.row_count == count, 1.0)  # noqa: B023
            DELAYS.append(time.monotonic() - written)
        assert "(following)" in app.title
        await pilot.press("F")  # stop following
        with log.open("ab") as handle:
            handle.write(lines[0])
        await pilot.pause(0.6)
        assert table.row_count == len(lines)
        await pilot.press("F")
        await wait_until(pilot, lambda: table.row_count == len(lines) + 1, 1.0)

    run(create_log_app(entries, tail, follow=True), scenario)
    print("follow delays (ms):", [round(d * 1000) for d in DELAYS])


def test_a_call_chosen_as_the_app_quits_is_dropped(tmp_path: Path) -> None:
    """A followed call that lands while the app quits (its screens gone): the replay's
    marking of the screen raised ScreenStackError (the follow test above, one run in
    many). The app not running stands for the one that has just stopped."""
    log = careless_log(book_doc(), str(write_doc(book_doc(), tmp_path)), tmp_path)
    entries, _ = LogTail(log).read()
    app = create_log_app(entries, None)
    app._call_chosen(CallChosen(entries[-1], len(entries)))  # as the message reaches it
    assert app.calls == Calls()  # nothing of the call was taken


def test_a_followed_call_is_shown_as_it_arrives_unless_the_cursor_was_moved(
    tmp_path: Path,
) -> None:
    log = careless_log(book_doc(), str(write_doc(book_doc(), tmp_path)), tmp_path)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:2]))
    tail = LogTail(log)
    entries, _ = tail.read()

    def append(line: bytes) -> None:
        with log.open("ab") as handle:
            handle.write(line)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        table = app.query_one(CallList)

        def shown(number: int) -> bool:
            return len(table.entries) >= number and app.replay.entry is table.entries[number - 1]

        await wait_until(pilot, lambda: shown(1))
        for count in (3, 4):
            append(lines[count - 1])
            await wait_until(pilot, lambda: shown(count))  # noqa: B023
            assert table.cursor_row == count - 1
        await pilot.press("up")  # the user looks at call 3: new calls do not take it away
        await wait_until(pilot, lambda: shown(3))
        append(lines[4])
        await wait_until(pilot, lambda: table.row_count == 5)
        await pilot.pause(0.5)
        assert table.cursor_row == 2 and shown(3)
        await pilot.press("down", "down")  # back on the newest call: following again
        await wait_until(pilot, lambda: shown(5))
        append(lines[5])
        await wait_until(pilot, lambda: shown(6))
        assert table.cursor_row == 5

    run(create_log_app(entries, tail, follow=True), scenario)
