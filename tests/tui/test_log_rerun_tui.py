"""`siftui log FILE` on an evidence session: the session re-run, the verdict per call."""

from __future__ import annotations

import shutil
from pathlib import Path

from support.evidence_log import log_session, tamper
from support.tui_support import run, wait_until
from textual.pilot import Pilot

from siftui.cli.evidence_preview import rerun_factory
from siftui.sources.log.reading import read_log
from siftui.sources.sample import sample_path
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.widgets.call_list import CallList
from siftui.tui.widgets.replay import ReplayStatus


def logged(tmp_path: Path) -> Path:
    pdf = tmp_path / "notes.pdf"
    shutil.copyfile(sample_path(), pdf)
    log = tmp_path / "calls.jsonl"
    log_session(pdf, log)
    return log


async def verdict(app: SiftApp, pilot: Pilot[int], number: int) -> ReplayStatus:
    app.query_one(CallList).show_call(number)
    status = app.query_one(ReplayStatus)
    await wait_until(
        pilot,
        lambda: (
            status.message.startswith(f"call {number}:")
            and "re-run" in status.message
            and "re-running" not in status.message
        ),
        120,
    )
    return status


def test_a_logged_session_reruns_to_the_bytes_the_agent_received(tmp_path: Path) -> None:
    entries = read_log(logged(tmp_path))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        status = await verdict(app, pilot, 3)
        assert status.message.startswith('call 3: pdf_keyword_search {"documentId": "doc-1"')
        assert status.message.endswith(
            "the re-run gives the bytes the agent received, as for all of session 1"
        )
        assert not status.warning
        status = await verdict(app, pilot, 5)  # refused: the same refusal again
        assert "the agent got an error: page out of range" in status.message
        assert status.message.endswith("as for all of session 1")

    run(create_log_app(entries, rerun=rerun_factory), scenario)


def test_a_changed_result_line_is_the_call_that_differs(tmp_path: Path) -> None:
    log = logged(tmp_path)
    tamper(log, 4)
    entries = read_log(log)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        status = await verdict(app, pilot, 4)
        assert status.message.endswith(
            "the re-run differs from what the agent received (session 1)"
        )
        assert status.warning
        status = await verdict(app, pilot, 2)
        assert status.message.endswith(
            "the re-run gives the bytes the agent received; session 1 first differs at call 4"
        )
        assert status.warning

    run(create_log_app(entries, rerun=rerun_factory), scenario)
