"""The call log of the evidence tools: what it records, and what its report and replay say."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from support.pdfs import make_pdf
from support.tui_support import run, wait_until
from textual.pilot import Pilot

from siftui.serve.access import Roots
from siftui.serve.docstore import DocStore
from siftui.serve.host import ToolHost
from siftui.serve.limits import StoreLimits
from siftui.serve.tool_api import Session, TextBlock
from siftui.sources.log.calllog import CallLog
from siftui.sources.log.evidence_report import evidence_lines, evidence_report
from siftui.sources.log.reading import read_log
from siftui.sources.log.report import report
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.widgets.replay import ReplayStatus

CALLS: list[tuple[str, Any]] = [
    ("pdf_open", {"path": "a.pdf"}),  # 1
    ("pdf_page_read", {"documentId": "doc-1", "page": 1, "maxChars": 5}),  # 2: next left
    ("pdf_keyword_search", {"documentId": "doc-1", "query": "a", "maxResults": 1}),  # 3
    ("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1", "quote": "zzz"}),  # 4
    ("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1", "quote": "alph"}),  # 5
    ("pdf_page_read", {"documentId": "doc-9", "page": 1}),  # 6: unknown
    ("read_pdf", {"path": "a.pdf"}),  # 7
    ("pdf_page_read", {"documentId": "doc-1", "page": 1, "maxChars": 5}),  # 8: repeat of 2
    ("pdf_page_read", {"documentId": "doc-1", "page": 1, "offset": 5}),  # 9: follows 8's next
]


def logged(tmp_path: Path) -> tuple[Path, list[str]]:
    make_pdf(tmp_path / "a.pdf", ["alpha beta gamma alpha delta"])
    log_path = tmp_path / "calls.jsonl"
    log = CallLog(log_path)
    store = DocStore(StoreLimits(workers=1))
    host = ToolHost(Roots([tmp_path]), store=store, log=log, families={"read", "evidence"})
    session = Session(number=3)
    texts = []
    try:
        for tool, arguments in CALLS:
            answer = host.call(arguments, tool, session)
            last = answer.blocks[-1] if answer.blocks else None
            texts.append(answer.message or (last.text if isinstance(last, TextBlock) else ""))
    finally:
        log.close()
        store.shutdown()
    return log_path, texts


def test_the_log_keeps_each_call_as_sent_and_each_result_as_received(tmp_path: Path) -> None:
    log_path, texts = logged(tmp_path)
    entries = read_log(log_path)
    assert [entry.tool for entry in entries] == [tool for tool, _ in CALLS]
    assert {entry.session for entry in entries} == {3}
    assert [entry.arguments for entry in entries] == [arguments for _, arguments in CALLS]
    for entry, text in zip(entries, texts, strict=True):
        if entry.tool == "read_pdf":
            assert entry.rendered is not None and entry.result is None
        elif entry.error:
            assert entry.message == text and entry.result is None
        else:
            assert entry.result is not None and entry.result.text == text
            assert entry.result.chars == len(text)
            assert entry.received is not None and entry.received.content == text


def test_the_report_says_per_session_what_was_left_and_what_failed(tmp_path: Path) -> None:
    log_path, _ = logged(tmp_path)
    entries = read_log(log_path)
    found = report(entries)
    assert found.errors == ()  # evidence calls are their session's report, not read errors
    [use] = evidence_report(entries)
    assert use.session == 3 and use.calls == [1, 2, 3, 4, 5, 6, 8, 9]
    assert use.searches_left == [(3, "search-1", 7)]  # 8 "a"s, one hit shown
    assert use.reads_left == []  # call 2's next is followed by call 9 (same page and offset)
    assert use.refused_reads == [(4, "quote not found in ref-1", 5)]
    assert use.identities == [(6, 'unknown documentId "doc-9"')]
    assert [numbers for _, numbers in use.repeated] == [(2, 8)]
    lines = evidence_lines([use])
    assert "evidence tools, session 3: 8 calls" in lines
    assert "    call 4: quote not found in ref-1 -- fixed by call 5" in lines
    printed = subprocess.run(
        [sys.executable, "-m", "siftui", "log", str(log_path), "--report", "--json"],
        capture_output=True,
        check=True,
        timeout=60,
    )
    data = json.loads(printed.stdout)
    assert data["evidence_sessions"][0]["searches_left"] == [
        {"call": 3, "searchId": "search-1", "unseen": 7}
    ]


def test_the_replay_shows_an_evidence_result_exactly(tmp_path: Path) -> None:
    log_path, texts = logged(tmp_path)
    entries = read_log(log_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        status = app.query_one("#replay", ReplayStatus)
        await wait_until(pilot, lambda: app.answer is not None)
        await pilot.press("down")
        await wait_until(
            pilot, lambda: app.answer is not None and app.answer.rendered.content == texts[1]
        )
        await wait_until(pilot, lambda: "pdf_page_read" in str(status.render()))
        # Without a way to re-run the session (the CLI hands one over), the logged bytes.
        assert "showing the logged result" in str(status.render())

    run(create_log_app(entries), scenario, size=(140, 40))
