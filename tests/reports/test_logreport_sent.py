"""The report and the replay of calls the server refused or read with read_docx, from a
real ToolHost's log: a refused call is named by what was sent, two different refusals
are no loop, and Word documents count among the documents."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.docx_build import docx_bytes, notes, p, t
from support.pdfs import make_pdf
from support.tui_support import run, wait_until
from textual.pilot import Pilot

from siftui.serve.access import Roots
from siftui.serve.host import ToolHost
from siftui.sources.log.calllog import CallLog, LogEntry
from siftui.sources.log.reading import read_log
from siftui.sources.log.report import report, report_json
from siftui.sources.log.report_text import report_text
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_log_app
from siftui.tui.widgets.call_list import CallList
from siftui.tui.widgets.replay import ReplayStatus


def served_log(root: Path, calls: list[tuple[dict[str, object], str]]) -> list[LogEntry]:
    """The entries a real ToolHost logs for ``calls`` (arguments, tool) under ``root``."""
    log = root / "calls.jsonl"
    host = ToolHost(Roots([root]), log=CallLog(log))
    try:
        for arguments, tool in calls:
            host.call(arguments, tool)
    finally:
        host.shutdown()
        assert host.log is not None
        host.log.close()
    return read_log(log)


def library(root: Path) -> None:
    make_pdf(root / "a.pdf", ["alpha page one", "beta page two"])
    footnotes = notes("footnote", (1, p(t("The text is here."))))
    (root / "blank.docx").write_bytes(docx_bytes(p() + p(), footnotes=footnotes))


REFUSALS: list[tuple[dict[str, object], str]] = [
    ({"path": "a.pdf", "pages": 5}, "read_pdf"),
    ({"path": "a.pdf", "out_cap": 5}, "read_pdf"),
    ({"path": "a.pdf", "pages": 5}, "read_pdf"),
    ({"path": "blank.docx"}, "read_docx"),
    ({"path": "blank.docx", "scope": "footnotes"}, "read_docx"),
]


def test_two_different_refusals_are_no_loop(tmp_path: Path) -> None:
    library(tmp_path)
    entries = served_log(tmp_path, REFUSALS)
    assert [entry.error for entry in entries] == [True, True, True, False, False]
    assert [entry.described for entry in entries[:3]] == [
        '{"pages": 5}',
        '{"out_cap": 5}',
        '{"pages": 5}',
    ]
    found = report(entries)
    assert [(entry.described, numbers) for entry, numbers in found.loops] == [
        ('{"pages": 5}', (1, 3))
    ]
    text = report_text(found)
    assert '  {"pages": 5} on a.pdf: calls 1, 3\n' in text
    assert "(no options)" not in text
    assert report_json(found)["loops"][0]["request"] == '{"pages": 5}'


def test_word_documents_count_and_an_empty_body_s_note_is_followed(tmp_path: Path) -> None:
    library(tmp_path)
    entries = served_log(tmp_path, REFUSALS)
    found = report(entries)
    text = report_text(found)
    assert text.startswith("5 calls (3 failed) on 2 documents\n")
    assert f"{tmp_path / 'blank.docx'}" in text
    (noted,) = found.cut
    assert (noted.call, noted.asked, noted.followed_by) == (4, "scope=footnotes", 5)
    # The same through the command line.
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "log", str(tmp_path / "calls.jsonl"), "--report"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("5 calls (3 failed) on 2 documents\n")
    assert '  {"pages": 5} on a.pdf: calls 1, 3\n' in done.stdout
    data = json.loads(
        subprocess.run(
            [
                sys.executable,
                "-m",
                "siftui",
                "log",
                str(tmp_path / "calls.jsonl"),
                "--report",
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
    )
    assert [doc["tool"] for doc in data["documents"]] == ["read_pdf", "read_docx"]


def test_the_replay_names_a_refused_call_by_what_was_sent(tmp_path: Path) -> None:
    library(tmp_path)
    entries = served_log(tmp_path, REFUSALS)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        table = app.query_one(CallList)
        status = app.query_one(ReplayStatus)
        await wait_until(pilot, lambda: table.row_count == 5 and str(status.render()))
        requests = [str(table.get_row_at(n)[-1]) for n in range(table.row_count)]
        assert requests == [
            '{"pages": 5}',
            '{"out_cap": 5}',
            '{"pages": 5}',
            "(no options)",
            "(no options)",
        ]
        said = 'call 1: {"pages": 5} at OutCap 100,000: the agent got an error'
        assert str(status.render()).startswith(said)

    run(create_log_app(entries), scenario)


def test_a_call_refused_before_its_path_was_resolved_joins_the_document_it_names(
    tmp_path: Path,
) -> None:
    """The log names a refused call by the path as sent ("a.pdf"), a served one by the
    path opened: the same document, not two ("on 2 documents" where one was read)."""
    library(tmp_path)
    entries = served_log(
        tmp_path,
        [
            ({"path": "a.pdf"}, "read_pdf"),
            ({"path": "a.pdf", "pages": 5}, "read_pdf"),
            ({"path": "a.pdf", "pages": "2"}, "read_pdf"),
        ],
    )
    opened = str(tmp_path / "a.pdf")
    assert [entry.path for entry in entries] == [opened, "a.pdf", opened]
    found = report(entries)
    assert [(use.path, use.calls) for use in found.documents] == [(opened, [1, 2, 3])]
    assert report_text(found).startswith("3 calls (1 failed) on 1 document\n")
