"""Files named on the command line that are no file to read:
a link to /dev/zero, a FIFO, a call log given as an audit file. One line, exit 1 or 2,
nothing read whole and nothing written."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from support.cli_support import siftui
from support.pdfs import make_pdf

from siftui.cli import serving

CALL = {
    "time": "2025-01-31T12:00:00.123456Z",
    "requested": "thesis.pdf",
    "path": "/data/pdfs/thesis.pdf",
    "sha256": "9a" * 32,
    "options": {"pages": "12-40", "grep": ""},
    "out_cap": 20000,
    "unit": "chars",
    "duration_ms": 812.5,
    "error": False,
    "content": "--- page 12 ---",
    "map": False,
    "first": 12,
    "last": 12,
    "grep_hits": 0,
    "note": "",
}


@pytest.fixture
def zero(tmp_path: Path) -> Path:
    link = tmp_path / "calls.jsonl"
    link.symlink_to("/dev/zero")
    return link


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo.jsonl"
    os.mkfifo(path)
    return path


def _one_line(done: subprocess.CompletedProcess[bytes], code: int) -> str:
    err = done.stderr.decode()
    assert done.returncode == code, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    "command",
    [
        ("log", "{}", "--report"),
        ("log", "{}", "--rerun"),
        ("log", "{}", "--follow"),
        ("session", "--root", "/tmp", "{}"),
        ("audit", "--summary", "{}"),
    ],
)
@pytest.mark.parametrize("hostile", ["zero", "fifo"])
def test_a_device_or_fifo_is_refused_in_one_line(
    command: tuple[str, ...], hostile: str, request: pytest.FixtureRequest
) -> None:
    path = request.getfixturevalue(hostile)
    args = [part.format(path) for part in command]
    done = siftui(*args)
    code = 2 if command[0] == "session" else 1
    assert _one_line(done, code).endswith(f"{path}: not a regular file\n")


@pytest.mark.parametrize(
    ("hostile", "said"),
    [
        ("zero", "not a regular file"),
        ("fifo", "not a regular file"),
        ("folder", "a directory"),
        ("dangling", "No such file or directory"),
    ],
)
def test_an_audit_out_that_is_no_file_is_refused_in_one_line(
    hostile: str, said: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """`--out` is appended to: a device's size is 0, so a link to /dev/zero passed as an
    empty file and ended in a traceback, as a link to nothing did; a FIFO ended in
    Python's "File or stream is not seekable" and a directory was said to hold no records."""
    if hostile == "folder":
        out = tmp_path / "out.jsonl"
        out.mkdir()
    elif hostile == "dangling":
        out = tmp_path / "out.jsonl"
        out.symlink_to(tmp_path / "nowhere" / "audit.jsonl")
    else:
        out = request.getfixturevalue(hostile)
    make_pdf(tmp_path / "a.pdf", ["text"])
    done = siftui("audit", tmp_path / "a.pdf", "--out", out)
    assert _one_line(done, 1) == f"siftui: error: {out}: {said}\n"
    assert done.stdout == b""  # refused before any document was read


DEEP = "[" * 100_000 + "]" * 100_000
"""JSON nesting deeper than Python's parser goes (it recurses): a RecursionError, not a
ValueError."""


LONG_NUMBER = "9" * 5_000
"""A number of more digits than Python turns into an int (4,300): valid JSON it refuses
with a plain ValueError naming an interpreter setting."""


@pytest.mark.parametrize("suffix", [".json", ".docx.json"])
def test_a_json_form_with_a_number_too_long_is_one_line(suffix: str, tmp_path: Path) -> None:
    """`siftui render` on a Doc JSON (or a Word document's JSON form) holding such a
    number ended in a traceback: only syntax errors and nesting were caught."""
    kind = '"kind": "docx", ' if suffix == ".docx.json" else ""
    path = tmp_path / f"long{suffix}"
    path.write_text(f'{{{kind}"title": "t", "page_count": {LONG_NUMBER}, "pages": []}}')
    done = siftui("render", path)
    said = f"siftui: error: {path}: not valid JSON: a number too long to read\n"
    assert _one_line(done, 1) == said


def test_a_log_line_with_a_number_too_long_is_named_as_bad_json(tmp_path: Path) -> None:
    """The log's reader gave the interpreter's words (`use sys.set_int_max_str_digits() to
    increase the limit`) as the line's fault; `siftui log` skips such a line, named."""
    from siftui.sources.log.reading import read_log_skipping

    log = tmp_path / "calls.jsonl"
    log.write_text(json.dumps(CALL) + "\n" + f'{{"n": {LONG_NUMBER}}}\n', encoding="utf-8")
    entries, skipped = read_log_skipping(log)
    assert len(entries) == 1
    assert skipped == [f"{log}: line 2: not valid JSON: a number too long to read"]


def test_json_nested_too_deep_is_no_audit_record(tmp_path: Path) -> None:
    """It ended `siftui audit --summary` and `--out` in a traceback (RecursionError)."""
    deep = tmp_path / "audit.jsonl"
    deep.write_text(DEEP + "\n", encoding="utf-8")
    before = deep.read_bytes()
    done = siftui("audit", "--summary", deep)
    assert _one_line(done, 1) == f"siftui: error: {deep}: no audit records in it\n"
    make_pdf(tmp_path / "a.pdf", ["text"])
    done = siftui("audit", tmp_path / "a.pdf", "--out", deep)
    expected = f"siftui: error: {deep}: holds no audit records; not appended to\n"
    assert _one_line(done, 1) == expected
    assert deep.read_bytes() == before


def test_a_logged_result_nested_too_deep_is_reported_as_any_other(tmp_path: Path) -> None:
    """`siftui log --report` reads each evidence result's JSON: a log whose result text
    nests deeper than the parser goes ended in a traceback (RecursionError)."""
    call = {
        **CALL,
        "tool": "pdf_open",
        "session": 1,
        "process": 4242,
        "arguments": {"path": "thesis.pdf"},
        "result": {"chars": len(DEEP), "sha256": "0" * 64, "text": DEEP},
    }
    log = tmp_path / "calls.jsonl"
    log.write_text(json.dumps(call) + "\n", encoding="utf-8")
    for extra in ((), ("--json",)):
        done = siftui("log", log, "--report", *extra)
        assert done.returncode == 0, done.stderr.decode()
        assert b"Traceback" not in done.stderr and done.stdout


@pytest.mark.parametrize("command", ["mcp", "reader"])
def test_a_file_that_is_no_call_log_is_never_appended_to(command: str, tmp_path: Path) -> None:
    """`--log` appends: a PDF given as the log by mistake got the calls' JSON after its
    %EOF. Refused at start, in one line, the file as it was; a log (or an empty file)
    is still appended to."""
    victim = make_pdf(tmp_path / "thesis.pdf", ["keep me"])
    before = victim.read_bytes()
    done = siftui(command, "--root", tmp_path, "--log", victim)
    expected = f"siftui: error: {victim}: holds no call log; not appended to\n"
    assert _one_line(done, 1) == expected
    assert victim.read_bytes() == before


def test_a_log_whose_first_call_is_long_is_still_appended_to(tmp_path: Path) -> None:
    """The check that a --log is a call log reads whole lines, as a log's reader does: a
    first answer of megabytes (a large OutCap) is a call all the same."""
    from siftui.sources.log.calllog import CallLog

    call = {**CALL, "content": "x" * 3_000_000}
    log = tmp_path / "calls.jsonl"
    log.write_text("{torn\n" + json.dumps(call) + "\n", encoding="utf-8")
    CallLog(log).close()  # taken: no error
    (tmp_path / "blob").write_bytes(b"x" * 2_000_000)  # one long line, no call
    with pytest.raises(FileExistsError):
        CallLog(tmp_path / "blob")


def test_a_call_log_is_no_audit_file(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    log.write_text(json.dumps(CALL) + "\n", encoding="utf-8")
    before = log.read_bytes()
    make_pdf(tmp_path / "a.pdf", ["text"])
    done = siftui("audit", tmp_path / "a.pdf", "--out", log)
    assert _one_line(done, 1) == f"siftui: error: {log}: holds no audit records; not appended to\n"
    done = siftui("audit", "--summary", log)
    assert _one_line(done, 1) == f"siftui: error: {log}: no audit records in it\n"
    assert log.read_bytes() == before


def test_follow_waits_for_a_log_not_made_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`siftui mcp --log X` makes X at its first call: `siftui log X --follow` started
    before it waits, as tail -F does, then reads the calls once they come."""
    seen: dict[str, object] = {}

    def replay(entries: list[object], tail: object, **options: object) -> int:
        seen.update(entries=entries, tail=tail, follow=options["follow"])
        return 0

    import siftui.tui.launch

    monkeypatch.setattr(siftui.tui.launch, "run_log_tui", replay)
    log = tmp_path / "later.jsonl"
    assert serving.cmd_log([str(log), "--follow"]) == 0
    assert seen["entries"] == [] and seen["follow"] is True
    log.write_text(json.dumps(CALL) + "\n", encoding="utf-8")
    tail = seen["tail"]
    entries, skipped = tail.read()  # type: ignore[attr-defined]
    assert [entry.pages for entry in entries] == ["12-40"] and skipped == []
