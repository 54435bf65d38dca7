"""`siftui render/extract/walk FILE.docx`, run as real subprocesses: bytes, exit codes, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.docx_build import comments, notes, p, t, write_docx

from siftui.core.budget import BYTES
from siftui.core.outcap import INVALID_MESSAGE
from siftui.core.unreachable import unreachable_json
from siftui.core.word.docjson import docx_to_json
from siftui.core.word.model import DocxDoc, Para, Story
from siftui.core.word.render import DocxOptions, render_docx
from siftui.core.word.unreachable import docx_unreachable
from siftui.core.word.walk import walk_docx
from siftui.sources.sample import sample_path
from siftui.sources.word.read import read_docx

BAD_OUTCAP = f"argument --outcap: {INVALID_MESSAGE}, not "

CORPUS = Path("/work/shared/corpus-docx")
_local = Path(__file__).resolve().parents[3] / "shared" / "corpus-docx"
if _local.is_dir():
    CORPUS = _local


def siftui(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", *map(str, args)],
        capture_output=True,
        timeout=60,
        check=False,
    )


def one_line_error(result: subprocess.CompletedProcess[bytes], code: int) -> str:
    assert result.returncode == code, result.stderr
    assert result.stdout == b""
    err = result.stderr.decode("utf-8")
    assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("siftui: error: ")
    return err[len("siftui: error: ") : -1]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    body = (
        p("Report", style="Title")
        + "".join(p(f"Paragraph {i} says something about item {i}.") for i in range(1, 80))
        + p("The end", '<w:r><w:commentReference w:id="1"/></w:r>')
    )
    path = tmp_path_factory.mktemp("docx") / "report.docx"
    return write_docx(path, body, comments_xml=comments((1, "Ann", p("A comment"))), title="R")


def test_render_prints_the_exact_string(report: Path) -> None:
    doc = read_docx(report)
    cases = [
        [],
        ["--outcap", "500"],
        ["--range", "P3..P9"],
        ["--anchor", f"P5#{doc.body.paragraphs[4].hash}", "--window", "2"],
        ["--grep", "item 1\\d", "--outcap", "900"],
        ["--scope", "comments"],
    ]
    for args in cases:
        options = DocxOptions(
            range=args[args.index("--range") + 1] if "--range" in args else "",
            anchor=args[args.index("--anchor") + 1] if "--anchor" in args else "",
            window=int(args[args.index("--window") + 1]) if "--window" in args else 6,
            grep=args[args.index("--grep") + 1] if "--grep" in args else "",
            scope=args[args.index("--scope") + 1] if "--scope" in args else "body",
            out_cap=int(args[args.index("--outcap") + 1]) if "--outcap" in args else 100_000,
        )
        result = siftui("render", report, *args)
        assert result.returncode == 0, result.stderr
        assert result.stdout == render_docx(doc, options).content.encode("utf-8")
        assert result.stderr == b""


def test_render_json(report: Path) -> None:
    result = siftui("render", report, "--range", "P70..", "--outcap", "300", "--json")
    data = json.loads(result.stdout)
    answer = render_docx(read_docx(report), DocxOptions(range="P70..", out_cap=300))
    assert data == {
        "content": answer.content,
        "map": False,
        "first": 70,
        "last": answer.last,
        "grep_hits": 0,
        "note": answer.note,
    }
    assert answer.note.startswith(f'cut at P{answer.last}; ask for range="P{answer.last + 1}..P81"')


def test_extract_then_render_reads_the_json_back(report: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    assert siftui("extract", report, "-o", out).returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["kind"] == "docx" and data["source"]["path"] == str(report)
    for args in ([], ["--outcap", "700"], ["--grep", "end", "--scope", "comments"]):
        assert siftui("render", out, *args).stdout == siftui("render", report, *args).stdout
    again = one_line_error(siftui("extract", report, "-o", out), 1)
    assert again.endswith("exists already; use --force to overwrite")
    assert "already a JSON file" in one_line_error(siftui("extract", out), 1)


def test_walk(report: Path) -> None:
    result = siftui("walk", report, "--outcap", "800", "--json")
    data = json.loads(result.stdout)
    calls = walk_docx(read_docx(report), 800)
    assert [c["range"] for c in data["calls"]] == [c.options.range for c in calls]
    assert data["calls"][0]["map"] is True and len(calls) > 3
    text = siftui("walk", report, "--outcap", "800").stdout.decode()
    assert text.splitlines()[1].split()[1] == f'range="P{calls[0].answer.last + 1}.."'
    lines = text.splitlines()
    assert lines[len(calls)].startswith(f"total: {len(calls)} calls at OutCap 800, ")
    assert lines[len(calls) + 1].startswith("unreachable by range= or anchor= at OutCap 800: ")
    assert lines[-1].startswith("nothing is unreachable from OutCap ")
    assert "unreachable" in data


@pytest.mark.skipif(not (CORPUS / "bug57031.docx").is_file(), reason="corpus not present")
def test_walk_reports_what_no_call_reaches() -> None:
    path = CORPUS / "bug57031.docx"
    text = siftui("walk", path, "--outcap", "2000").stdout.decode()
    assert (
        "unreachable by range= or anchor= at OutCap 2,000: 4,434 runes (23.8% of 18,660) "
        "on 3 paragraphs; a grep can show 4,356 of them\n"
        "  P72: 2,238 of 4,238 runes (grep can show 2,192)\n"
        "  P79: 1,441 of 3,441 runes (grep can show 1,420)\n"
        "  P90: 755 of 2,755 runes (grep can show 744)\n"
        "nothing is unreachable from OutCap 4,238 up: the largest block (P72)\n"
    ) in text
    data = json.loads(siftui("walk", path, "--outcap", "2000", "--json").stdout)
    assert [p["paragraph"] for p in data["unreachable"]["paragraphs"]] == [72, 79, 90]
    assert data["unreachable"]["smallest_out_cap"] == 4238


def test_walk_loads_no_tokenizer_without_tokens(report: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "siftui", "walk", str(report)],
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert b"tiktoken" not in done.stderr
    assert b"siftui.sources.tokens" not in done.stderr


def test_window_without_anchor_is_ignored_and_says_so(report: Path) -> None:
    plain = siftui("render", report, "--outcap", "800")
    windowed = siftui("render", report, "--outcap", "800", "--window", "3")
    assert windowed.returncode == 0 and windowed.stdout == plain.stdout
    assert windowed.stderr == b"siftui: warning: --window is ignored without --anchor\n"
    anchored = render_docx(read_docx(report), DocxOptions(range="P2"))
    anchor = anchored.content.split("]")[0].strip("[")
    with_anchor = siftui("render", report, "--anchor", anchor, "--window", "1")
    assert with_anchor.returncode == 0 and b"ignored" not in with_anchor.stderr


def test_option_errors_exit_2(report: Path) -> None:
    pdf = sample_path()
    errors = {
        (
            "render",
            report,
            "--pages",
            "1-2",
        ): '--pages is for PDFs, not Word documents; use --range "Pa..Pb"',
        (
            "render",
            pdf,
            "--range",
            "P1..P2",
        ): '--range is for Word documents, not PDFs; use --pages "a-b"',
        ("render", pdf, "--anchor", "P1#abcd"): "--anchor is for Word documents, not PDFs",
        ("walk", pdf, "--scope", "body"): "--scope is for Word documents, not PDFs",
        ("render", report, "--range", "x"): 'invalid range "x": use "Pa..Pb", "Pa" or "Pa.."',
        ("render", report, "--range", "P99"): "range out of range (P1..P81)",
        ("render", report, "--anchor", "P1#0000"): "stale anchor P1#0000: P1 is now P1#"
        + read_docx(report).body.paragraphs[0].hash
        + "; read it again",
        ("render", report, "--anchor", "P1#0000", "--window", "51"): "window must be 0-50",
        ("render", report, "--range", "P1", "--anchor", "P1#0000"): "use range or anchor, not both",
        ("render", report, "--scope", "x"): 'unknown scope "x": use body, footnotes, endnotes, '
        "comments, headers or footers",
        ("render", report, "--grep", "("): "invalid grep: missing ): (",
        ("render", report, "--range", "P300..P200"): (
            'range out of range (P1..P81): "P300..P200" is reversed: did you mean "P200..P300"?'
        ),
        (
            "render",
            report,
            "--outcap",
            "0",
        ): BAD_OUTCAP + "'0'",
        ("render", report, "--ocr"): "--ocr is for PDFs, not Word documents",
    }
    for args, message in errors.items():
        assert one_line_error(siftui(*args), 2) == message, args


def test_bad_options_are_found_before_reading(tmp_path: Path) -> None:
    missing = tmp_path / "missing.docx"
    assert one_line_error(siftui("render", missing, "--range", "bad"), 2).startswith(
        "invalid range"
    )
    assert one_line_error(siftui("render", missing), 1) == f"{missing}: no such file"


def test_document_errors_exit_1(tmp_path: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    message = one_line_error(siftui("render", broken), 1)
    assert message.startswith(f"{broken}: not a Word document (.docx): not a ZIP package")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"kind": "docx", "title": 5}', encoding="utf-8")
    assert one_line_error(siftui("render", bad_json), 1) == f'{bad_json}: "title" must be a string'


def test_notes_go_to_stderr(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "n.docx", p("Hello"), styles="<broken")
    result = siftui("render", path)
    assert result.returncode == 0 and result.stdout.endswith(b"Hello")
    assert result.stderr.decode().startswith("siftui: note: word/styles.xml: broken XML")


@pytest.mark.skipif(not (CORPUS / "delins.docx").is_file(), reason="no corpus-docx")
def test_a_real_document() -> None:
    result = siftui("render", CORPUS / "ComplexNumberedLists.docx", "--range", "P2..P4")
    assert result.stdout.decode().split("\n")[2].endswith("a. 2-a")


def test_a_fifo_is_not_opened_to_sniff_it(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert one_line_error(siftui("render", fifo), 1) == f"{fifo}: not a regular file"
    fifo_docx = tmp_path / "fifo.docx"
    os.mkfifo(fifo_docx)
    assert one_line_error(siftui("render", fifo_docx), 1) == f"{fifo_docx}: not a regular file"


def test_an_empty_body_says_where_the_text_is(tmp_path: Path) -> None:
    footnotes = notes("footnote", (1, p(t("The text is here."))))
    path = write_docx(tmp_path / "blank.docx", p() + p(), footnotes=footnotes)
    note = 'the body is empty; text is in scope="footnotes" (1 paragraph)'
    done = siftui("render", path)
    assert (done.returncode, done.stdout) == (0, b"")
    assert done.stderr.decode("utf-8") == f"siftui: note: {note}\n"
    done = siftui("render", path, "--json")
    assert json.loads(done.stdout)["note"] == note
    done = siftui("render", path, "--range", "P1..P2")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


@pytest.mark.skipif(not (CORPUS / "Headers.docx").is_file(), reason="corpus-docx not found")
def test_headers_docx_names_its_headers() -> None:
    done = siftui("render", CORPUS / "Headers.docx")
    assert (done.returncode, done.stdout) == (0, b"")
    assert done.stderr.decode("utf-8") == (
        'siftui: note: the body is empty; text is in scope="headers" (3 paragraphs)\n'
    )


def test_walk_in_bytes_reports_what_no_call_reaches(tmp_path: Path) -> None:
    # 900 characters of 3 bytes fit 1,000 code points but not 1,000 bytes.
    doc = DocxDoc("T", {"body": Story((Para("中" * 900), Para("short")))})
    path = tmp_path / "zh.json"
    path.write_text(docx_to_json(doc), encoding="utf-8")
    runes = siftui("walk", path, "--outcap", "1000").stdout.decode()
    assert "unreachable by range= or anchor= at OutCap 1,000: nothing\n" in runes
    text = siftui("walk", path, "--outcap", "1000", "--unit", "bytes").stdout.decode()
    assert (
        "unreachable by range= or anchor= at OutCap 1,000 bytes: 575 runes (60.1% of 956) "
        "on 1 paragraph; a grep can show 0 of them\n"
        "  P1: 575 of 925 runes (grep can show 0)\n"
        "nothing is unreachable from OutCap 2,725 bytes up: the largest block (P1)\n"
    ) in text
    data = json.loads(siftui("walk", path, "--outcap", "1000", "--unit", "bytes", "--json").stdout)
    assert data["unreachable"] == unreachable_json(docx_unreachable(doc, 1000, unit=BYTES))
    assert data["unreachable"]["smallest_out_cap"] == 2725
    assert data["unreachable"]["unit"] == "bytes"
