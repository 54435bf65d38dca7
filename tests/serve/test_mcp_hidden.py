"""What `siftui mcp` tells about the document behind an answer: its unreadable pages
and its hidden text, against the real server over stdio.

The contract's string never changes: the first block is `siftui render`'s bytes
with or without --warn-hidden. The call log records the unreadable pages and the
findings of every PDF served (for a call answered while the inspection ran, in a
later line); --warn-hidden adds one line after the note naming the pages the
answer shows that hold an alarm (never ocr_layer).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import ClientSession
from mcp.types import CallToolResult
from support.damaged import page_tree_pdf
from support.hidden_pdfs import HIDDEN, make_hidden_pdf
from support.mcp_client import cli_render, run_server, texts

from siftui.core.render import Options
from siftui.core.unreadable import UnreadablePage
from siftui.sources.log.fields import HiddenSummary
from siftui.sources.log.reading import read_log

OUTCAP = 800
WARNING = "warning: this answer contains text that is invisible on the page"
ALARM_PAGES = sorted(page for page, found in HIDDEN.items() if found[0][0] != "ocr_layer")


def log_lines(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text("utf-8").splitlines() if line]


def unsettled(log: Path) -> list[str]:
    """The times of the calls logged with their findings pending and no later line yet."""
    lines = log_lines(log) if log.exists() else []
    later = {line["findings_of"] for line in lines if "findings_of" in line}
    return [
        line["time"]
        for line in lines
        if line.get("hidden") == {"pending": True} and line["time"] not in later
    ]


def serve(root: Path, calls: list[dict[str, Any]], log: Path, *flags: str) -> list[CallToolResult]:
    """Each call made once the findings of the calls before it are in the log."""
    got: list[CallToolResult] = []

    async def body(session: ClientSession) -> None:
        for call in calls:
            got.append(await session.call_tool("read_pdf", call))
            with anyio.fail_after(60):
                while unsettled(log):
                    await anyio.sleep(0.05)

    args: list[str | Path] = ["--root", root, "--outcap", str(OUTCAP), "--log", log, *flags]
    run_server(args, body, log.with_suffix(".stderr"))
    return got


def options(call: dict[str, Any]) -> Options:
    return Options(pages=call.get("pages", ""), grep=call.get("grep", ""), out_cap=OUTCAP)


CALLS: list[dict[str, Any]] = [
    {"path": "hidden.pdf"},  # a map: its leading pages
    {"path": "hidden.pdf", "pages": "1-3"},
    {"path": "hidden.pdf", "pages": "9-10"},  # ocr_layer and nothing: no warning
    {"path": "hidden.pdf", "pages": "7"},
    {"path": "hidden.pdf", "grep": "Transparent|Scanned"},  # hits on pages 2 and 9
    {"path": "hidden.pdf", "grep": "More visible text after it, page 1[01]"},  # 10, 11
    {"path": "hidden.pdf", "grep": "nowhere to be found"},
    {"path": "cycle.pdf"},
]


def test_unreadable_pages_and_hidden_text_in_the_log_and_the_warning(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    make_hidden_pdf(root / "hidden.pdf")
    (root / "cycle.pdf").write_bytes(page_tree_pdf(3, {2}))  # page 2: a page-tree cycle
    plain_log, warn_log = tmp_path / "plain.jsonl", tmp_path / "warn.jsonl"
    plain = serve(root, CALLS, plain_log)
    warned = serve(root, CALLS, warn_log, "--warn-hidden")
    printed = cli_render([(root / call["path"], options(call)) for call in CALLS])

    for call, quiet, loud, stdout in zip(CALLS, plain, warned, printed, strict=True):
        assert not quiet.is_error and not loud.is_error, (call, texts(quiet), texts(loud))
        # The contract's string is the CLI's, with or without --warn-hidden.
        assert texts(quiet)[0].encode("utf-8") == stdout == texts(loud)[0].encode("utf-8")
        assert quiet.structured_content is not None and "warning" not in quiet.structured_content
        note = quiet.structured_content["note"]
        assert texts(quiet)[1:] == ([note] if note else [])  # without the flag: unchanged
    warnings = []
    for result in warned:
        structured = result.structured_content
        assert structured is not None
        warning = structured.get("warning", "")
        note = structured["note"]
        after = "\n".join(part for part in (note, warning) if part)
        assert texts(result)[1:] == ([after] if after else [])  # one line after the note
        warnings.append(warning)
    map_answer = warned[0].structured_content
    assert map_answer is not None and map_answer["map"]
    shown_by_map = range(1, map_answer["last"] + 1)
    assert warnings == [
        f"{WARNING} ({_pages([p for p in shown_by_map if p in ALARM_PAGES])})",
        f"{WARNING} (pages 1, 2, 3)",
        "",
        f"{WARNING} (page 7)",
        f"{WARNING} (page 2)",  # the hit on page 9 is an OCR layer: not an alarm
        f"{WARNING} (page 11)",
        "",
        "",
    ]

    for log, flag in ((plain_log, False), (warn_log, True)):
        entries = read_log(log)
        assert len(entries) == len(CALLS)
        for entry, warning in zip(entries, warnings, strict=True):
            assert entry.warning == (warning if flag else "")
        hidden = entries[0].hidden
        assert hidden is not None and not hidden.error
        assert dict(hidden.kinds) == {
            "invisible": 1,
            "transparent": 1,
            "low_contrast": 3,
            "tiny": 1,
            "off_page": 1,
            "covered": 2,
            "ocr_layer": 1,
        }
        assert list(hidden.alarm_pages) == ALARM_PAGES
        assert list(hidden.pages) == sorted(HIDDEN)
        assert all(entry.hidden == hidden for entry in entries[:-1])  # same document
        assert all(entry.unreadable == () for entry in entries[:-1])
        cycle = entries[-1]
        assert cycle.unreadable is not None
        [damaged] = cycle.unreadable
        assert damaged.page == 2 and "cycle" in damaged.reason
        assert cycle.hidden == HiddenSummary()  # inspected: nothing hidden
        lines = log_lines(log)
        calls = [line for line in lines if "findings_of" not in line]
        line = calls[-1]
        assert line["unreadable"] == [{"page": 2, "reason": damaged.reason}]
        nothing = {"findings": 0, "kinds": {}, "pages": [], "alarm_pages": []}
        assert finally_hidden(lines, line) == nothing
        first = finally_hidden(lines, calls[0])
        assert first["findings"] == 10 and first["kinds"]["covered"] == 2
    # The damaged page's block is its marker alone; the others read.
    assert "--- page 2 ---\n\n\n\n--- page 3 ---\n\nPage 3 text" in texts(plain[-1])[0]
    assert UnreadablePage(2, damaged.reason) == damaged


def finally_hidden(lines: list[dict[str, Any]], call: dict[str, Any]) -> Any:
    """A call's "hidden", or its later line's when it was answered with them pending."""
    if call["hidden"] != {"pending": True}:
        return call["hidden"]
    [later] = [line for line in lines if line.get("findings_of") == call["time"]]
    assert later["path"] == call["path"] and later["sha256"] == call["sha256"]
    return later["hidden"]


def _pages(numbers: list[int]) -> str:
    return ("page " if len(numbers) == 1 else "pages ") + ", ".join(map(str, numbers))


def test_old_log_lines_and_malformed_new_keys(tmp_path: Path) -> None:
    """A log written before these keys reads as before; a wrong one names its key."""
    old = {
        "time": "2025-01-31T12:00:00.000000Z",
        "requested": "a.pdf",
        "path": "/x/a.pdf",
        "sha256": "0" * 64,
        "options": {"pages": "1", "grep": ""},
        "out_cap": 100,
        "duration_ms": 1.5,
        "error": False,
        "content": "--- page 1 ---\nx",
        "map": False,
        "first": 1,
        "last": 1,
        "grep_hits": 0,
        "note": "",
    }
    log = tmp_path / "old.jsonl"
    log.write_text(json.dumps(old) + "\n", "utf-8")
    [entry] = read_log(log)
    assert entry.unreadable is None and entry.hidden is None and entry.docx is None
    assert entry.tool == "read_pdf" and entry.warning == ""
    for key, value, named in (
        ("unreadable", [{"page": "2", "reason": "x"}], "unreadable"),
        ("hidden", {"kinds": {"tiny": "1"}}, "hidden"),
        ("hidden", [], "hidden"),
        ("warning", 3, "warning"),
    ):
        bad = tmp_path / f"bad-{key}.jsonl"
        bad.write_text(json.dumps({**old, key: value}) + "\n", "utf-8")
        with pytest.raises(Exception, match=f'line 1: key "{named}"'):
            read_log(bad)
    docx_bad = tmp_path / "bad-window.jsonl"
    docx_bad.write_text(
        json.dumps({**old, "tool": "read_docx", "options": {"window": "6"}}) + "\n", "utf-8"
    )
    with pytest.raises(Exception, match='line 1: key "window"'):
        read_log(docx_bad)


def test_a_server_without_log_or_warning_inspects_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The findings cost up to ~5x the extraction, and the answer waits for them: a
    server that neither logs nor warns has no use for them and never inspects."""
    # The SDK's client hands the server a minimal environment with HOME in it (not
    # XDG_CACHE_HOME): the server's disk cache is then HOME/.cache/siftui.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = tmp_path / "root"
    root.mkdir()
    make_hidden_pdf(root / "hidden.pdf")

    def hidden_entries() -> list[Path]:
        return sorted((tmp_path / "home" / ".cache" / "siftui").rglob("*.hidden"))

    got: list[CallToolResult] = []

    async def body(session: ClientSession) -> None:
        got.append(await session.call_tool("read_pdf", {"path": "hidden.pdf", "pages": "1-3"}))

    run_server(["--root", root, "--outcap", str(OUTCAP)], body, tmp_path / "quiet.stderr")
    assert not got[0].is_error and WARNING not in "".join(texts(got[0]))
    assert hidden_entries() == []  # extracted and cached, never inspected
    serve(root, [{"path": "hidden.pdf", "pages": "1-3"}], tmp_path / "calls.jsonl")
    assert len(hidden_entries()) == 1  # with a log, the findings are made (and cached)


NO_TEXT = "warning: page 2 has no text (it may be an image; the server's operator can OCR it)"


def test_a_page_without_text_is_named_in_the_second_block(tmp_path: Path) -> None:
    from support.pdfs import make_pdf

    root = tmp_path / "root"
    root.mkdir()
    make_pdf(root / "scan.pdf", ["Some text on page one.", "", "And page three."])
    calls: list[dict[str, Any]] = [
        {"path": "scan.pdf"},
        {"path": "scan.pdf", "pages": "2"},
        {"path": "scan.pdf", "pages": "3"},
        {"path": "scan.pdf", "grep": "page"},
    ]
    got = serve(root, calls, tmp_path / "log.jsonl")
    printed = cli_render([(root / call["path"], options(call)) for call in calls])
    for result, stdout in zip(got, printed, strict=True):
        assert not result.is_error
        assert texts(result)[0].encode("utf-8") == stdout  # the first block: unchanged
    assert texts(got[0])[1:] == [NO_TEXT] and texts(got[1])[1:] == [NO_TEXT]
    assert got[1].structured_content is not None
    assert got[1].structured_content["warning"] == NO_TEXT
    assert texts(got[2])[1:] == [] and texts(got[3])[1:] == []  # page 3; a grep answer


def test_the_tricks_a_person_misses_get_the_warning(tmp_path: Path) -> None:
    """A 1 Tz smear, a page-wide white rectangle with text
    drawn on it, empty Type 3 glyphs, a lying ToUnicode map, XXXX over a white
    box, 0.95-0.97 grey: each page's answer names it with --warn-hidden."""
    from support.hidden_tricks import TRICKS, make_tricks_pdf

    root = tmp_path / "root"
    root.mkdir()
    make_tricks_pdf(root / "tricks.pdf")
    calls = [{"path": "tricks.pdf", "pages": str(page)} for page in (1, 3, 4, 5, 6, 8)]
    # The first call starts the inspection (its answer may not wait for it).
    warned = serve(root, [calls[0], *calls], tmp_path / "warn.jsonl", "--warn-hidden")
    warnings = [(result.structured_content or {}).get("warning") for result in warned[1:]]
    assert warnings == [f"{WARNING} (page {call['pages']})" for call in calls]
    assert {TRICKS[int(call["pages"])][0] for call in calls} == {
        "tiny",
        "covered",
        "invisible",
        "remapped",
        "low_contrast",
    }
