"""`siftui log FILE --report` on logs written by the real `siftui mcp` server.

Scripted agents talk to the server over stdio with the official SDK client: one
that loops, re-reads, never follows a note and fixes a bad pattern; one that
follows every note. The report must name each finding with its call numbers.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from support.pdfs import make_pdf

from siftui.core.doc import Doc
from siftui.core.render import Options, Rendered, render
from siftui.sources.load import load_doc_report
from siftui.sources.log.calllog import LogEntry
from siftui.sources.log.reading import read_log
from siftui.sources.log.report import report, report_json, shown_pages, spans
from siftui.sources.log.report_text import report_text

TIMEOUT = 60
OUTCAP = 1200
Calls = Sequence[dict[str, str]]


def page_text(page: int) -> str:
    return "\n".join(f"Page {page} line {line}: the quick brown fox jumps" for line in range(6))


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("library")
    make_pdf(root / "book.pdf", [page_text(page) for page in range(1, 9)], title="Book")
    return root


def run_agent(root: Path, log: Path, calls: Calls, stderr: Path) -> None:
    """The scripted agent: each call in turn against `siftui mcp --log LOG`."""
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "siftui",
            "mcp",
            "--root",
            str(root),
            "--outcap",
            str(OUTCAP),
            "--log",
            str(log),
        ],
    )

    async def main() -> None:
        with anyio.fail_after(TIMEOUT), open(stderr, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                for arguments in calls:
                    await session.call_tool("read_pdf", dict(arguments))

    anyio.run(main)
    assert "Traceback" not in stderr.read_text()


def log_report(log: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", "log", str(log), "--report", *extra],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


# A careless agent: the map, a range cut with a note it never follows, the same
# pages twice (a re-read, then a loop), a bad pattern fixed at once, a pattern
# with no match, a page out of range as its last call.
CARELESS: Calls = [
    {"path": "book.pdf"},  # 1: the map, page 1
    {"path": "book.pdf", "pages": "2-8"},  # 2: pages 2-5, 'ask for pages="6-8"'
    {"path": "book.pdf", "pages": "2-3"},  # 3: re-read 2-3
    {"path": "book.pdf", "pages": "2-3"},  # 4: the same call again
    {"path": "book.pdf", "grep": "fox ("},  # 5: invalid grep
    {"path": "book.pdf", "grep": "fox \\("},  # 6: fixed, no match
    {"path": "book.pdf", "grep": "line 5"},  # 7: matches
    {"path": "book.pdf", "pages": "99"},  # 8: out of range, last call
]

CAREFUL: Calls = [
    {"path": "book.pdf"},  # 1: map
    {"path": "book.pdf", "pages": "2-"},  # 2: pages 2-5, ask for 6-8
    {"path": "book.pdf", "pages": "6-8"},  # 3: follows the note
]


@pytest.fixture(scope="module")
def careless_log(library: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("careless")
    log = folder / "calls.jsonl"
    run_agent(library, log, CARELESS, folder / "stderr.txt")
    return log


def test_the_scripted_log_is_what_the_findings_assume(careless_log: Path, library: Path) -> None:
    entries = read_log(careless_log)
    assert len(entries) == len(CARELESS)
    doc = load_doc_report(library / "book.pdf").doc
    assert [e.error for e in entries] == [False, False, False, False, True, False, False, True]
    second = entries[1].rendered
    assert second is not None and second == render(doc, Options("2-8", out_cap=OUTCAP))
    assert (second.first, second.last, second.note) == (2, 5, 'cut at page 5; ask for pages="6-8"')
    first = entries[0].rendered
    assert first is not None and first.map and first.last == 1


def test_careless_agent_report(careless_log: Path, library: Path) -> None:
    done = log_report(careless_log, "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["calls"] == 8
    [document] = found["documents"]
    assert document["path"] == str((library / "book.pdf").resolve())
    assert document["calls"] == list(range(1, 9))
    assert document["extracted_pages"] == 8
    assert document["pages_read"] == [1, 2, 3, 4, 5]
    assert document["never_read"] == [6, 7, 8]
    doc = load_doc_report(library / "book.pdf").doc
    blocks = [len(f"--- page {p} ---\n\n{t.strip()}") for p, t in enumerate(doc.pages, 1)]
    assert document["document_runes"] == sum(blocks)
    assert document["runes_read"] == sum(blocks[:5])
    assert document["percent_read"] == round(100 * sum(blocks[:5]) / sum(blocks), 2)
    assert document["re_read"] == [{"page": 2, "calls": [2, 3, 4]}, {"page": 3, "calls": [2, 3, 4]}]
    assert document["re_read_runes"] == 2 * (blocks[1] + blocks[2])
    assert [loop["calls"] for loop in found["loops"]] == [[3, 4]]
    assert found["loops"][0]["pages"] == "2-3"
    errors = found["errors"]
    assert [(e["call"], e["next_call"], e["outcome"]) for e in errors] == [
        (5, 6, "fixed"),
        (8, None, "last call"),
    ]
    assert errors[0]["message"].startswith("invalid grep: ")
    assert errors[1]["message"] == "pages out of range (1-8)"
    assert [(g["call"], g["grep"]) for g in found["empty_greps"]] == [(6, "fox \\(")]
    [cut] = found["cut_answers"]
    assert cut == {
        "call": 2,
        "note": 'cut at page 5; ask for pages="6-8"',
        "asked": "6-8",
        "followed_by": None,
        "next_call": 3,
    }


def test_careless_agent_text_report(careless_log: Path) -> None:
    done = log_report(careless_log)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("8 calls (2 failed) on 1 document\n")
    assert "  pages read: 1-5 (5 of 8 pages, " in text
    assert "  never read: 6-8\n" in text
    assert "read more than once: page 2 (calls 2, 3, 4); page 3 (calls 2, 3, 4);" in text
    assert '  pages="2-3" on book.pdf: calls 3, 4\n' in text
    assert "  call 5: invalid grep: " in text and "-- fixed by call 6\n" in text
    assert "  call 8: pages out of range (1-8) -- the last call: never retried\n" in text
    assert '  call 6: grep="fox \\(" on book.pdf\n' in text
    assert (
        '  call 2: cut at page 5; ask for pages="6-8" -- '
        "not followed (next call on this document: 3)\n"
    ) in text


def test_careful_agent_follows_the_note(library: Path, tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    run_agent(library, log, CAREFUL, tmp_path / "stderr.txt")
    done = log_report(log, "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    [document] = found["documents"]
    assert document["pages_read"] == list(range(1, 9)) and document["never_read"] == []
    assert document["percent_read"] == 100.0
    assert document["re_read"] == [] and document["re_read_runes"] == 0
    assert found["loops"] == [] and found["errors"] == [] and found["empty_greps"] == []
    assert [(c["call"], c["asked"], c["followed_by"]) for c in found["cut_answers"]] == [
        (2, "6-8", 3)
    ]
    text = log_report(log).stdout
    assert "followed by call 3" in text and "loops): none" in text


def test_a_changed_document_gives_no_totals(library: Path, tmp_path: Path) -> None:
    """The file is rewritten after the session: its text is not what the agent read."""
    root = tmp_path / "root"
    root.mkdir()
    make_pdf(root / "book.pdf", [page_text(page) for page in range(1, 9)])
    log = tmp_path / "calls.jsonl"
    run_agent(root, log, CAREFUL[:2], tmp_path / "stderr.txt")
    make_pdf(root / "book.pdf", ["other"])
    found = json.loads(log_report(log, "--json").stdout)
    [document] = found["documents"]
    assert document["document_runes"] is None and document["percent_read"] is None
    assert document["never_read"] == [6, 7, 8]  # E from the map's header
    assert document["pages_read"] == [1, 2, 3, 4, 5]
    assert "the document's size is unknown" in log_report(log).stdout


def test_bad_usage(careless_log: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "log", str(careless_log), "--json"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 2 and done.stderr == "siftui: error: --json needs --report\n"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    done = log_report(empty)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "no calls" in done.stderr


# ---- the pure part, on hand-made entries --------------------------------------------


def entry(pages: str = "", grep: str = "", answer: Rendered | None = None, **more: Any) -> LogEntry:
    return LogEntry(
        time="2026-01-01T00:00:00Z",
        requested=more.get("requested", "d.pdf"),
        path=more.get("path", "/d.pdf"),
        sha256=more.get("sha256", "ab"),
        pages=pages,
        grep=grep,
        out_cap=more.get("out_cap", 200),
        duration_ms=1.0,
        rendered=answer,
        message=more.get("message", ""),
    )


def test_pages_shown_without_the_document_match_the_document() -> None:
    doc = Doc("T", 6, ("a" * 50, "", "b\n\n--- page 9 ---", "c" * 300, "d", "e"))
    blocks = tuple(len(f"--- page {p} ---\n\n{t.strip()}") for p, t in enumerate(doc.pages, 1))
    for pages in ("1-", "2-", "3-6", "4", "4-6", "5-6"):
        answer = render(doc, Options(pages, out_cap=200))
        assert shown_pages(answer, None) == shown_pages(answer, blocks), pages
    answer = render(doc, Options("4-6", out_cap=200))
    assert shown_pages(answer, blocks) == [(4, 200)]


def test_another_document_and_spans() -> None:
    doc = Doc("T", 2, ("x", "y"))
    good = render(doc, Options(out_cap=200))
    entries = [
        entry(grep="(", answer=None, message="invalid grep: missing )"),
        entry(answer=good, path="/e.pdf", requested="e.pdf", sha256="cd"),
    ]
    found = report(entries, {"ab": doc})
    assert [(e.call, e.outcome) for e in found.errors] == [(1, "another document")]
    data = report_json(found)
    assert [d["path"] for d in data["documents"]] == ["/d.pdf", "/e.pdf"]
    assert data["documents"][0]["pages_read"] == [] and data["documents"][0]["never_read"] == [1, 2]
    assert data["documents"][1]["never_read"] is None  # no map, no Doc: E unknown
    assert data["documents"][1]["pages_read"] == [1, 2]
    assert "not retried: call 2 read another document" in report_text(found)
    assert spans([1, 2, 3, 7, 9, 10]) == "1-3, 7, 9-10" and spans([]) == ""


def test_a_call_that_names_no_file() -> None:
    """An unreadable request is logged without a path: an error, never a document."""
    doc = Doc("T", 2, ("x", "y"))
    entries = [
        entry(answer=None, path="", requested="", sha256=None, message="bad arguments"),
        entry(answer=render(doc, Options(out_cap=200))),
    ]
    found = report(entries, {"ab": doc})
    assert [use.path for use in found.documents] == ["/d.pdf"]
    assert found.documents[0].calls == [2]
    assert [(e.call, e.next_call, e.outcome) for e in found.errors] == [(1, 2, "fixed")]
    assert found.loops == ()
