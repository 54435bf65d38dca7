"""`siftui audit`: one line per document from the library's own code, resumable,
the same with one worker or two, bounded workers, the summary and its page."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from support.audit_store import CORPUS_FILES, make_store
from support.audit_store import long_pages as _long_pages
from support.cli_support import siftui
from support.pdfs import USER_PASSWORD, make_encrypted_pdf, make_pdf

from siftui.cli import main
from siftui.core.kinds import PDF
from siftui.core.render import Options
from siftui.sources.audit import pool as audit_pool
from siftui.sources.audit import store as audit_store
from siftui.sources.audit.store import read_records
from siftui.sources.audit.summary import tables, text
from siftui.sources.filehash import file_sha256
from siftui.sources.kinds import load_any
from siftui.sources.load_options import LoadOptions


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return make_store(tmp_path / "store")


def _expected(root: Path) -> list[str]:
    names = ["a.pdf", "b.docx", "cut.pdf", "empty.pdf", "hidden.pdf", "locked.pdf"]
    names += [name for name in CORPUS_FILES if (root / name).exists()]
    return sorted([str(root / name) for name in names] + [str(root / "sub" / "big.pdf")])


def _run(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    done = siftui("audit", *args)
    assert done.returncode == 0, done.stderr.decode()
    return done


def _by_path(path: Path) -> dict[str, dict[str, Any]]:
    return {record["path"]: record for record in read_records(str(path))}


def _untimed(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        ({k: v for k, v in r.items() if k != "seconds"} for r in records), key=lambda r: r["path"]
    )


def test_one_line_per_document_from_the_library(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit.jsonl"
    _run(store, "--out", out, "--hidden", "--agents", "--outcap", "1000", "--jobs", "2")
    lines = out.read_text("utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert sorted(r["path"] for r in records) == _expected(store)  # the loop walked once
    found = _by_path(out)
    a = found[str(store / "a.pdf")]
    doc = PDF.expect(load_any(store / "a.pdf").doc)
    calls = PDF.walk(doc, Options(out_cap=1000))
    assert a["kind"] == "pdf" and a["pages"] == 3 and a["first_call"] == "whole"
    assert a["calls"] == len(calls) == 1
    assert a["calls_runes"] == sum(len(c.answer.content) for c in calls)
    assert a["sha256"] and a["size"] == (store / "a.pdf").stat().st_size
    assert a["tokens_estimate"] == a["text_runes"] // 4 and a["tokens_o200k"] > 0
    assert {entry["verdict"] for entry in a["agents"]} <= {"✓", "⚠", "✗", "?"}
    big = found[str(store / "sub" / "big.pdf")]
    big_doc = PDF.expect(load_any(store / "sub" / "big.pdf").doc)
    assert big["first_call"] == "map" and big["calls"] == len(
        PDF.walk(big_doc, Options(out_cap=1000))
    )
    left_out = PDF.unreachable(big_doc, 1000)
    assert big["unreachable_runes"] == left_out.runes > 0
    assert big["unreachable_pages"] == [page.page for page in left_out.pages]
    assert found[str(store / "b.docx")]["kind"] == "docx"
    assert found[str(store / "b.docx")]["paragraphs"] == 2
    hidden = found[str(store / "hidden.pdf")]["hidden"]
    assert hidden["alarms"] and hidden["pages"]
    assert hidden["not_extracted"] == {}  # all of the test file's hidden text is extracted
    assert found[str(store / "a.pdf")]["hidden"]["alarms"] == {}
    assert found[str(store / "empty.pdf")]["error"]
    assert found[str(store / "locked.pdf")]["needs_password"] is True
    cut = found[str(store / "cut.pdf")]
    assert cut.get("error") or cut["kind"] == "pdf"  # a line either way, never a stop
    if (store / "c03-29.pdf").exists():
        assert found[str(store / "c03-29.pdf")]["image_only_pages"] == [1]
        password = found[str(store / "libreoffice-writer-password.pdf")]
        assert password["needs_password"] is True and "password" in password["error"]


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_one_worker_or_two_give_the_same_lines(store: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    _run(store, "--out", one, "--jobs", "1", "--hidden", "--no-cache")
    _run(store, "--out", two, "--jobs", "2", "--hidden", "--no-cache")
    assert _untimed(read_records(str(one))) == _untimed(read_records(str(two)))


def test_resumed_after_an_interruption(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit.jsonl"
    _run(store, "--out", out)
    full = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(full[:2]) + full[2][:10])  # a line cut by the interruption
    done = _run(store, "--out", out)
    lines = out.read_bytes().splitlines(keepends=True)
    assert lines[:2] == full[:2]
    assert _untimed(read_records(str(out))) == _untimed([json.loads(x) for x in full])
    assert b"documents" in done.stdout
    _run(store, "--out", out)  # nothing new: nothing appended
    assert out.read_bytes().splitlines(keepends=True) == lines
    make_pdf(store / "a.pdf", ["alpha changed"])
    _run(store, "--out", out)
    again = read_records(str(out))
    assert len(again) == len(lines) + 1 and again[-1]["path"] == str(store / "a.pdf")


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_ctrl_c_stops_cleanly_and_the_rest_is_done_later(tmp_path: Path) -> None:
    root = tmp_path / "many"
    root.mkdir()
    for n in range(40):
        make_pdf(root / f"d{n:02}.pdf", _long_pages(30))
    out = tmp_path / "audit.jsonl"
    command = [sys.executable, "-m", "siftui", "audit", str(root), "--out", str(out)]
    process = subprocess.Popen([*command, "--jobs", "1", "--hidden", "--no-cache"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or not out.read_bytes()):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 130
    first = read_records(str(out))
    assert out.read_bytes().endswith(b"\n") and 1 <= len(first) < 40
    assert len(out.read_bytes().splitlines()) == len(first)  # whole lines only
    _run(root, "--out", out, "--no-cache")
    assert sorted(r["path"] for r in read_records(str(out))) == sorted(
        str(path) for path in root.iterdir()
    )


def test_a_password_opens_the_encrypted_pdfs_and_the_line_says_so(tmp_path: Path) -> None:
    make_pdf(tmp_path / "plain.pdf", ["plain text"])
    make_encrypted_pdf(tmp_path / "locked.pdf", "secret text")
    found = {}
    for name, extra in (("none", []), ("wrong", ["--password", "nope"])):
        out = tmp_path / f"{name}.jsonl"
        _run(tmp_path / "plain.pdf", tmp_path / "locked.pdf", "--out", out, *extra)
        found[name] = _by_path(out)
    out = tmp_path / "right.jsonl"
    run = _run(tmp_path, "--out", out, "--hidden", "--password", USER_PASSWORD)
    right = _by_path(out)
    locked, plain = str(tmp_path / "locked.pdf"), str(tmp_path / "plain.pdf")
    assert found["none"][locked]["needs_password"] is True
    assert "password_worked" not in found["none"][locked]
    assert "needs a password" in found["none"][locked]["error"]
    assert found["wrong"][locked]["needs_password"] is True
    assert found["wrong"][locked]["password_worked"] is False
    assert found["wrong"][locked]["error"] == "wrong password"
    opened = right[locked]
    assert "error" not in opened and opened["needs_password"] is True
    assert opened["password_worked"] is True
    doc = PDF.expect(load_any(tmp_path / "locked.pdf", LoadOptions(password=USER_PASSWORD)).doc)
    assert opened["runes"] == PDF.runes(doc) > 0 and opened["hidden"]["inspected"] == 1
    for each in (found["none"], found["wrong"], right):  # a password changes no other line
        assert each[plain]["needs_password"] is False and "password_worked" not in each[plain]
        assert each[plain]["runes"] == right[plain]["runes"]
    assert b"documents opened with the password  1" in run.stdout


def test_a_file_removed_mid_run_is_a_line(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = audit_store.documents

    def documents_then_remove(paths: list[str]) -> list[str]:
        found = list(listed(paths))
        (store / "a.pdf").unlink()  # gone between the listing and its audit
        return found

    monkeypatch.setattr(audit_store, "documents", documents_then_remove)
    out = tmp_path / "audit.jsonl"
    assert main(["audit", str(store), "--out", str(out), "--jobs", "2"]) == 0
    record = _by_path(out)[str(store / "a.pdf")]
    assert record["error"] == "No such file or directory" and record["sha256"] is None
    assert len(read_records(str(out))) == len(_expected(store))


def _crash_or_hang(path: str, options: Any) -> dict[str, Any]:
    if path.endswith("crash.pdf"):
        os.kill(os.getpid(), signal.SIGKILL)
    if path.endswith("slow.pdf"):
        time.sleep(60)
    # A record in the audit's own shape (audit_document's keys), made at once: the
    # worker's time limit is what this test is about.
    return {
        "path": path,
        "size": os.path.getsize(path),
        "sha256": file_sha256(path),
        "kind": "pdf",
        "runes": 4,
        "out_cap": options.out_cap,
        "first_call": "whole",
        "calls": 1,
        "seconds": 0.0,
    }


def test_a_document_that_kills_or_hangs_its_worker_is_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a.pdf", "crash.pdf", "slow.pdf", "z.pdf"):
        make_pdf(tmp_path / name, ["text"])
    monkeypatch.setattr(audit_pool, "audit_document", _crash_or_hang)
    out = tmp_path / "audit.jsonl"
    assert main(["audit", str(tmp_path), "--out", str(out), "--jobs", "2", "--timeout", "1"]) == 0
    found = _by_path(out)
    assert len(found) == 4
    assert found[str(tmp_path / "crash.pdf")]["error_kind"] == "WorkerDied"
    assert "SIGKILL" in found[str(tmp_path / "crash.pdf")]["error"]
    assert found[str(tmp_path / "slow.pdf")]["error_kind"] == "TimedOut"
    assert found[str(tmp_path / "slow.pdf")]["sha256"]  # so a resume skips it
    assert "error" not in found[str(tmp_path / "z.pdf")]


def test_a_worker_short_of_memory_leaves_a_line(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", _long_pages(5))
    out = tmp_path / "audit.jsonl"
    _run(tmp_path, "--out", out, "--memory", "1", "--no-cache")  # 1 MiB: nothing fits
    (record,) = read_records(str(out))
    assert record["error"]


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[list[str]]]] = []
        self.title = ""
        self.cell: list[str] | None = None
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [v or "" for k, v in attrs if k in ("src", "href")]
        if tag == "h2":
            self.cell = []
        elif tag == "table":
            self.tables.append((self.title, []))
        elif tag == "tr":
            self.tables[-1][1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "h2" and self.cell is not None:
            self.title, self.cell = "".join(self.cell), None
        elif tag in ("td", "th") and self.cell is not None:
            self.tables[-1][1][-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_the_summary_and_its_page_agree_with_the_lines(store: Path, tmp_path: Path) -> None:
    out, html = tmp_path / "audit.jsonl", tmp_path / "report.html"
    run = _run(store, "--out", out, "--hidden", "--html", html)
    again = _run("--summary", out)
    assert again.stdout == run.stdout
    parser = _Tables()
    page = html.read_text("utf-8")
    parser.feed(page)
    assert parser.urls == [] and "<script" not in page and "<svg" in page
    records = read_records(str(out))
    expected = tables(records)
    assert [title for title, _ in parser.tables] == [table.title for table in expected]
    for (_, rows), table in zip(parser.tables, expected, strict=True):
        assert rows[0] == list(table.headers)
        assert rows[1:] == ([list(row) for row in table.rows] or [[table.empty]])
    by_title = dict(parser.tables)
    totals = dict((row[0], row[1]) for row in by_title["Totals"][1:])
    assert totals["documents"] == str(len(records))
    assert totals["tokens (o200k)"] == f"{sum(r.get('tokens_o200k', 0) for r in records):,}"
    largest = by_title["The 20 largest documents"][1:]
    ranked = sorted((r for r in records if "tokens_o200k" in r), key=lambda r: -r["tokens_o200k"])
    assert [row[0] for row in largest] == [r["path"] for r in ranked[:20]]
    alarms = [row[0] for row in by_title["Hidden-text alarms"][1:]]
    assert alarms == [r["path"] for r in records if r.get("hidden", {}).get("alarms")]
    assert str(store / "hidden.pdf") in alarms
    refused = {row[0]: row[1] for row in by_title["Refused documents"][1:]}
    assert refused == {r["path"]: r["error"] for r in records if r.get("error")}
    # never over an existing page, and refused before the work
    before = html.read_bytes()
    done = siftui("audit", store, "--out", tmp_path / "other.jsonl", "--html", html)
    assert done.returncode == 1 and b"exists already" in done.stderr
    assert html.read_bytes() == before and not (tmp_path / "other.jsonl").exists()
    # ... unless --force, which the refusal names
    again = siftui("audit", "--summary", out, "--html", html, "--force")
    assert again.returncode == 0, again.stderr.decode()
    assert html.read_text("utf-8") == page


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_page_that_cannot_be_written_is_refused_before_the_work(tmp_path: Path) -> None:
    """/proc refuses every new file: said at once, naming the page asked for (not the
    temporary file the write goes through), before any document is audited."""
    make_pdf(tmp_path / "a.pdf", ["text"])
    done = siftui("audit", tmp_path / "a.pdf", "--html", "/proc/siftui-report.html")
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode().splitlines() == [
        "siftui: error: /proc/siftui-report.html: No such file or directory"
    ]


@pytest.mark.parametrize("missing", ["typo.pdf", "gone/", "dangling.pdf"])
def test_a_path_named_that_is_not_there_is_one_line_before_the_work(
    tmp_path: Path, missing: str
) -> None:
    """A mistyped DIR or FILE (or a link to nothing) is said at once with exit 1, beside
    paths that are there: nothing is audited, no --out file is made."""
    make_pdf(tmp_path / "a.pdf", ["text"])
    (tmp_path / "dangling.pdf").symlink_to(tmp_path / "nowhere.pdf")
    out = tmp_path / "audit.jsonl"
    done = siftui("audit", tmp_path / "a.pdf", tmp_path / missing, "--out", out)
    assert done.returncode == 1 and done.stdout == b""
    named = str(tmp_path / missing)
    assert done.stderr.decode().splitlines() == [
        f"siftui: error: {named}: No such file or directory"
    ]
    assert not out.exists()


@pytest.mark.parametrize("content", [b'{"not": "an audit line"}\n', b"%PDF-1.7\n", b""])
def test_a_summary_of_a_file_without_records_is_an_error(tmp_path: Path, content: bytes) -> None:
    """An empty summary would read as an audit that found nothing."""
    source = tmp_path / "not-an-audit.jsonl"
    source.write_bytes(content)
    done = siftui("audit", "--summary", source)
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode() == f"siftui: error: {source}: no audit records in it\n"


def test_without_out_the_lines_go_to_stdout(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["text"])
    done = _run(tmp_path / "a.pdf")
    (line,) = done.stdout.decode().splitlines()
    assert json.loads(line)["path"] == str(tmp_path / "a.pdf")
    assert b"Totals" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--summary", "x.jsonl", "dir"],
        ["d", "--jobs", "0"],
        ["d", "--outcap", "0"],
        ["d", "--jobs", "2", "--dask", "tcp://127.0.0.1:8786"],
        ["--summary", "x.jsonl", "--password", "pw"],
        ["d", "--jobs", "３"],  # full-width digits: ASCII only, as --outcap
    ],
)
def test_bad_options_exit_2(args: list[str]) -> None:
    assert siftui("audit", *args).returncode == 2


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("3000000", "--timeout must be at most 1,000,000 seconds, not 3,000,000"),
        ("1e300", "--timeout must be at most 1,000,000 seconds, not 1e+300"),
        ("inf", "--timeout must be a finite number of seconds, not inf"),
        ("0", "--timeout must be > 0, not 0"),
    ],
)
def test_a_timeout_no_wait_can_take_is_one_line(tmp_path: Path, given: str, said: str) -> None:
    """A --timeout past what the OS's waits take raised OverflowError (a traceback)."""
    make_pdf(tmp_path / "a.pdf", ["text"])
    done = siftui("audit", tmp_path / "a.pdf", "--timeout", given)
    assert (done.returncode, done.stderr.decode()) == (2, f"siftui: error: {said}\n")


def test_a_fifo_among_the_documents_is_refused_and_the_audit_goes_on(tmp_path: Path) -> None:
    """It hung the audit for good: the pool's check after a timeout read the FIFO."""
    make_pdf(tmp_path / "a.pdf", ["text"])
    os.mkfifo(tmp_path / "b.pdf")
    done = siftui("audit", tmp_path, "--timeout", "5")
    lines = done.stdout.decode().splitlines()  # in the order they are done
    records = sorted((json.loads(line) for line in lines), key=lambda r: str(r["path"]))
    assert [Path(r["path"]).name for r in records] == ["a.pdf", "b.pdf"]
    assert "error" not in records[0]
    assert (records[1]["error"], records[1]["error_kind"]) == ("not a regular file", "NotAFile")
    alone = siftui("audit", tmp_path / "b.pdf")
    assert json.loads(alone.stdout.decode())["error"] == "not a regular file"


def test_importing_the_cli_loads_no_heavy_library() -> None:
    code = (
        "import sys, siftui.cli, siftui.cli.audit; "
        "print(sorted(m for m in ('pymupdf', 'fitz', 'tiktoken', 'textual', 'mcp') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert done.stdout.strip() == b"[]"


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
@pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium for a screenshot")
def test_the_page_renders_in_a_headless_browser(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["some text"])
    html, shot = tmp_path / "report.html", tmp_path / "shot.png"
    _run(tmp_path / "a.pdf", "--out", tmp_path / "audit.jsonl", "--html", html)
    subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--screenshot={shot}",
            "--window-size=900,1400",
            html.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000


def test_a_file_name_holding_controls_cannot_reach_the_terminal(tmp_path: Path) -> None:
    """A store's file names are anyone's: one holding an escape sequence (here the one that
    retitles a terminal) and a line break was printed as it was in the refusals' table,
    retitling the operator's terminal and splitting the row. The records keep the name
    exactly (JSON escapes it); the summary shows its controls."""
    store = tmp_path / "store"
    store.mkdir()
    name = "evil\x1b]0;PWNED\x07\nname.pdf"
    (store / name).write_bytes(b"junk")
    done = siftui("audit", store)
    assert done.returncode == 0, done.stderr.decode()
    [record] = [json.loads(line) for line in done.stdout.splitlines()]
    assert record["path"] == str(store / name)
    summary = done.stderr.decode()
    assert not any(control in summary for control in "\x1b\x07\r")
    [row] = [line for line in summary.splitlines() if "PWNED" in line]
    assert "evil\u241b]0;PWNED\u2407\u240aname.pdf" in row and "not a document" in row


def test_an_out_file_that_is_no_audit_is_left_as_it_was(tmp_path: Path) -> None:
    """--out resumes: its torn last line was cut and lines appended, so a PDF given as
    --out lost its tail, then gained JSON (exit 0)."""
    make_pdf(tmp_path / "a.pdf", ["text"])
    victim = make_pdf(tmp_path / "precious.pdf", ["keep me"])
    before = victim.read_bytes()
    done = siftui("audit", tmp_path / "a.pdf", "--out", victim)
    assert done.returncode == 1 and victim.read_bytes() == before
    assert (
        done.stderr.decode()
        == f"siftui: error: {victim}: holds no audit records; not appended to\n"
    )
    out = tmp_path / "audit.jsonl"
    for _ in range(2):  # a new file, then resumed: one record
        assert siftui("audit", tmp_path / "a.pdf", "--out", out).returncode == 0
    assert len(out.read_bytes().splitlines()) == 1


def _read_record(name: str, **extra: Any) -> dict[str, Any]:
    return {
        "path": name,
        "size": 10,
        "sha256": "0" * 64,
        "kind": "pdf",
        "runes": 4,
        "out_cap": 20000,
        "first_call": "whole",
        "calls": 1,
        "seconds": 0.1,
        **extra,
    }


def test_an_audit_without_hidden_says_it_inspected_nothing() -> None:
    """Without --hidden the alarms table said "(none)", which read as a clean store
    (pgfmanual alone has 24 findings)."""
    bare = {t.title: t for t in tables([_read_record("a.pdf"), _read_record("b.pdf")])}
    alarms = bare["Hidden-text alarms"]
    assert alarms.rows == ()
    assert alarms.empty == "(not inspected: audit with --hidden to look for hidden text)"
    clean = {"alarms": {}, "pages": [], "others": {}, "not_extracted": {}, "inspected": 3}
    found = {t.title: t for t in tables([_read_record("a.pdf", hidden=clean)])}
    assert found["Hidden-text alarms"].empty == "(none in 1 inspected document)"
    assert "  (none in 1 inspected document)" in text(list(found.values()))
