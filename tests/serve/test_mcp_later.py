"""The first call on a PDF does not wait for its hidden-text inspection, and a first
extraction tells its progress, against the real server over stdio.

With ``--log`` (or ``--warn-hidden``) the server inspects every PDF it serves for
hidden text, which costs several times the extraction. The call is answered with
the text; the log's line of that call says ``"hidden": {"pending": true}`` and a
later line brings the findings; ``--warn-hidden`` says on that answer that the
inspection is still running, and warns from the findings once they are known. A
client that sends a progress token gets MCP progress notifications, pages done of
pages, while the document is first extracted.
"""

# mypy: disallow-untyped-calls=False
# (PyMuPDF's own functions are untyped.)

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio
import pymupdf
from mcp import ClientSession
from mcp.types import CallToolResult
from support.mcp_client import run_server, texts
from support.same_bytes import save_pdf

from siftui.serve.hidden_warn import STILL_INSPECTING
from siftui.sources.log.reading import read_log

PAGES = 150


def white_text_pdf(path: Path, pages: int = PAGES) -> Path:
    """``pages`` pages, each with a visible line and a line of white text on white:
    quick to extract, and an inspection that renders every page to judge it."""
    document = pymupdf.open()
    for number in range(1, pages + 1):
        page = document.new_page()
        page.insert_text((72, 72), f"Visible text on page {number}.", fontsize=11)
        for line in range(12):
            page.insert_text((72, 100 + 14 * line), f"Line {line} of page {number}.", fontsize=11)
        page.insert_text((72, 400), f"White words on page {number}.", fontsize=11, color=(1, 1, 1))
    save_pdf(document, path)
    document.close()
    return path


def lines_of(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text("utf-8").splitlines() if line]


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # The SDK's client gives the server HOME (not XDG_CACHE_HOME): a fresh HOME is an
    # empty disk cache, so the document is extracted and inspected for the first time.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = tmp_path / "root"
    folder.mkdir()
    white_text_pdf(folder / "white.pdf")
    return folder


def test_the_first_call_is_answered_before_the_inspection_ends(root: Path, tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    got: list[CallToolResult] = []
    seen: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        got.append(await session.call_tool("read_pdf", {"path": "white.pdf"}))
        seen["at_answer"] = lines_of(log)  # what the log holds when the answer is in
        with anyio.fail_after(90):
            while len(lines_of(log)) < 2:
                await anyio.sleep(0.05)
        got.append(await session.call_tool("read_pdf", {"path": "white.pdf", "pages": "3"}))

    args: list[str | Path] = ["--root", root, "--log", log, "--warn-hidden"]
    run_server(args, body, tmp_path / "server.stderr")

    first, again = got
    assert not first.is_error and not again.is_error
    # The answer came while the inspection ran: the log had its line, findings pending.
    [call] = seen["at_answer"]
    assert call["hidden"] == {"pending": True}
    assert first.structured_content is not None
    assert first.structured_content["warning"] == STILL_INSPECTING
    assert texts(first)[-1].endswith(STILL_INSPECTING)
    # Then the findings, in a later line of that call.
    lines = lines_of(log)
    later = lines[1]
    assert later["findings_of"] == call["time"] and later["time"] > call["time"]
    assert later["path"] == call["path"] and later["sha256"] == call["sha256"]
    assert later["hidden"]["findings"] >= PAGES
    assert later["hidden"]["alarm_pages"] == list(range(1, PAGES + 1))
    # Once known, --warn-hidden warns from them; the next call's line carries them.
    assert again.structured_content is not None
    assert again.structured_content["warning"] == (
        "warning: this answer contains text that is invisible on the page (page 3)"
    )
    assert lines[2]["hidden"] == later["hidden"]
    # The reader puts the later line in its call: two calls, both with the findings.
    entries = read_log(log)
    assert len(entries) == 2
    assert entries[0].hidden == entries[1].hidden
    assert entries[0].hidden is not None and not entries[0].hidden.pending
    assert entries[0].warning == STILL_INSPECTING


def test_a_first_extraction_sends_progress_to_a_client_that_asks(
    root: Path, tmp_path: Path
) -> None:
    told: list[tuple[float, float | None]] = []
    got: list[CallToolResult] = []

    async def progress(progress: float, total: float | None, message: str | None) -> None:
        told.append((progress, total))

    async def body(session: ClientSession) -> None:
        got.append(
            await session.call_tool("read_pdf", {"path": "white.pdf"}, progress_callback=progress)
        )
        first = len(told)
        # Read from the server's memory: nothing is extracted, so nothing is told.
        got.append(
            await session.call_tool(
                "read_pdf", {"path": "white.pdf", "pages": "2"}, progress_callback=progress
            )
        )
        assert len(told) == first

    run_server(["--root", root], body, tmp_path / "server.stderr")
    assert not got[0].is_error and not got[1].is_error
    assert told, "no progress notification"
    assert told[-1] == (PAGES, PAGES)
    assert all(total == PAGES for _, total in told)
    done = [value for value, _ in told]
    assert done == sorted(done) and len(set(done)) == len(done)


def test_the_readers_put_a_later_line_in_its_call(tmp_path: Path) -> None:
    from siftui.core.render import Rendered
    from siftui.sources.log.calllog import CallLog, LogEntry
    from siftui.sources.log.fields import HiddenSummary, LaterFindings
    from siftui.sources.log.follow import LogTail
    from siftui.sources.log.reading import read_log_skipping

    def call(time: str, path: str) -> LogEntry:
        shown = Rendered("--- page 1 ---\nx", False, 1, 1, 0, "")
        pending = HiddenSummary(pending=True)
        return LogEntry(time, "a.pdf", path, "0" * 64, "", "", 100, 1.0, shown, hidden=pending)

    found = HiddenSummary((("invisible", 2),), (1, 3), (1, 3))
    log_path = tmp_path / "calls.jsonl"
    log = CallLog(log_path)
    log.append(call("T1", "/a.pdf"))
    log.append(call("T2", "/b.pdf"))
    log.append(LaterFindings("T3", "T1", "/a.pdf", "0" * 64, found))
    log.append(LaterFindings("T4", "T9", "/a.pdf", "0" * 64, found))  # no such call
    log.close()
    entries, skipped = read_log_skipping(log_path)
    assert [entry.hidden for entry in entries] == [found, HiddenSummary(pending=True)]
    assert skipped == [f"{log_path}: line 4: findings of a call not in the log"]
    # The follower: the same when both lines come in one read; a later line whose
    # call an earlier read gave is left out, not refused.
    tail = LogTail(log_path)
    followed, refused = tail.read()
    assert [entry.hidden for entry in followed] == [found, HiddenSummary(pending=True)]
    assert refused == []
