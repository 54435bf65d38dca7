"""read_docx through the real `siftui mcp` process (the official SDK's client, stdio).

The first text block must be the very bytes `siftui render FILE.docx ...` prints for
the same options and OutCap (files of the Word corpus and built ones),
structuredContent the fields of its --json; errors are one line with isError and the
CLI's wording; the call log records the tool and its options and reads back.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession
from mcp.types import CallToolResult
from support.docx_build import NS, docx_bytes, notes, p, t, write_docx
from support.mcp_client import error_of, run_server, texts
from support.pdfs import make_pdf

from siftui.core.word.model import DocxDoc
from siftui.serve.docx_tool import DOCX_OUTPUT_SCHEMA
from siftui.sources.log.fields import DocxArgs
from siftui.sources.log.reading import read_log
from siftui.sources.word.read import read_docx

CORPUS_DOCX = Path(__file__).resolve().parents[3] / "shared" / "corpus-docx"
OUTCAP = 1500
TIMEOUT = 60

needs_corpus = pytest.mark.skipif(not CORPUS_DOCX.is_dir(), reason="corpus-docx not found")

FLAGS = {"range": "--range", "anchor": "--anchor", "window": "--window", "grep": "--grep"}


def cli_render(path: Path, options: dict[str, Any], *, json_out: bool = False) -> bytes:
    """What `siftui render PATH --outcap OUTCAP ...` prints for read_docx's options."""
    command = [sys.executable, "-m", "siftui", "render", str(path), "--outcap", str(OUTCAP)]
    for key, value in options.items():
        if key != "path":
            command += [FLAGS.get(key, f"--{key}"), str(value)]
    if json_out:
        command.append("--json")
    done = subprocess.run(command, capture_output=True, timeout=TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def cli_error(path: Path, options: dict[str, Any]) -> str:
    command = [sys.executable, "-m", "siftui", "render", str(path), "--outcap", str(OUTCAP)]
    for key, value in options.items():
        if key != "path":
            command += [FLAGS.get(key, f"--{key}"), str(value)]
    done = subprocess.run(command, capture_output=True, timeout=TIMEOUT, check=False)
    assert done.returncode in (1, 2), done
    line = done.stderr.decode("utf-8").strip().splitlines()[-1]
    assert line.startswith("siftui: error: "), line
    return line.removeprefix("siftui: error: ")


def anchor(doc: DocxDoc, number: int, scope: str = "body") -> str:
    return f"P{number}#{doc.stories[scope].paragraphs[number - 1].hash}"


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
@needs_corpus
def test_read_docx_answers_are_the_bytes_of_siftui_render(tmp_path: Path) -> None:
    built = tmp_path / "built"
    built.mkdir()
    many = [
        p(
            t(f"Paragraph {n} says clause {n % 7} applies."),
            style="Heading1" if n % 10 == 1 else None,
        )
        for n in range(1, 120)
    ]
    write_docx(
        built / "notes.docx",
        "".join(many) + p(t("See the note"), '<w:r><w:footnoteReference w:id="1"/></w:r>'),
        footnotes=notes("footnote", (1, p(t("The footnote text.")))),
        title="A built document",
    )
    stress = read_docx(CORPUS_DOCX / "stress009.docx")
    ref = read_docx(CORPUS_DOCX / "Bug54849.docx")
    cases: list[tuple[Path, dict[str, Any]]] = [
        (CORPUS_DOCX / "stress009.docx", {}),  # a map
        (CORPUS_DOCX / "stress009.docx", {"range": "P3..P30"}),  # cut, with a note
        (CORPUS_DOCX / "stress009.docx", {"range": "p61.."}),
        (CORPUS_DOCX / "stress009.docx", {"anchor": anchor(stress, 7), "window": 2}),
        (CORPUS_DOCX / "stress009.docx", {"anchor": anchor(stress, 7), "window": 0}),
        (CORPUS_DOCX / "stress009.docx", {"anchor": anchor(stress, 10)}),  # default window
        (CORPUS_DOCX / "stress009.docx", {"grep": "NAND"}),
        (CORPUS_DOCX / "Bug54849.docx", {}),
        (CORPUS_DOCX / "Bug54849.docx", {"scope": "footnotes"}),
        (CORPUS_DOCX / "Bug54849.docx", {"scope": "headers"}),
        (CORPUS_DOCX / "Bug54849.docx", {"anchor": anchor(ref, 2), "grep": "."}),
        (CORPUS_DOCX / "ComplexNumberedLists.docx", {}),
        (CORPUS_DOCX / "delins.docx", {"grep": "del|ins"}),
        (CORPUS_DOCX / "NumberingWOverrides.docx", {"range": "P2..P8"}),
        (CORPUS_DOCX / "52449.docx", {"scope": "body", "range": "P1..P17"}),
        (built / "notes.docx", {}),
        (built / "notes.docx", {"grep": "clause 3", "range": "P1..P60"}),  # cut grep
        (built / "notes.docx", {"scope": "footnotes"}),
    ]
    bad: dict[str, tuple[Path, dict[str, Any]]] = {
        "stale": (CORPUS_DOCX / "stress009.docx", {"anchor": "P3#0000"}),
        "both": (CORPUS_DOCX / "stress009.docx", {"range": "P1", "anchor": anchor(stress, 1)}),
        "window": (CORPUS_DOCX / "stress009.docx", {"anchor": anchor(stress, 1), "window": 51}),
        "scope": (CORPUS_DOCX / "stress009.docx", {"scope": "nope"}),
        "syntax": (CORPUS_DOCX / "stress009.docx", {"range": "3-4"}),
        "out of range": (CORPUS_DOCX / "stress009.docx", {"range": "P900"}),
        "grep": (CORPUS_DOCX / "stress009.docx", {"grep": "("}),
        "anchor out of range": (CORPUS_DOCX / "stress009.docx", {"anchor": "P999#abcd"}),
    }
    log = tmp_path / "calls.jsonl"
    make_pdf(built / "a.pdf", ["a PDF page"])
    (built / "fake.docx").write_bytes(b"not a zip at all")
    got: list[CallToolResult] = []
    errors: dict[str, str] = {}
    others: dict[str, str] = {}

    async def body(session: ClientSession) -> None:
        listed = await session.list_tools()
        word = next(tool for tool in listed.tools if tool.name == "read_docx")
        assert set(word.input_schema["properties"]) == {
            "path",
            "range",
            "anchor",
            "window",
            "grep",
            "scope",
        }
        assert word.input_schema["required"] == ["path"]
        assert word.output_schema == DOCX_OUTPUT_SCHEMA
        assert word.description is not None and f"{OUTCAP:,} characters" in word.description
        assert 'range="Pa..Pb"' in word.description and "anchor=" in word.description
        for path, options in cases:
            got.append(await session.call_tool("read_docx", {"path": str(path), **options}))
        for key, (path, options) in bad.items():
            errors[key] = error_of(
                await session.call_tool("read_docx", {"path": str(path), **options})
            )
        for key, call in {
            "pages": ("read_docx", {"path": "a.pdf", "pages": "1"}),
            "window type": ("read_docx", {"path": "notes.docx", "window": "3"}),
            "a pdf": ("read_docx", {"path": "a.pdf"}),
            "not a zip": ("read_docx", {"path": "fake.docx"}),
            "missing": ("read_docx", {"path": "nope.docx"}),
            "outside": ("read_docx", {"path": "/etc/passwd"}),
            "word via read_pdf": ("read_pdf", {"path": "notes.docx"}),
        }.items():
            others[key] = error_of(await session.call_tool(call[0], call[1]))
        # The server still serves PDFs beside Word documents.
        pdf = await session.call_tool("read_pdf", {"path": "a.pdf"})
        assert not pdf.is_error and "a PDF page" in texts(pdf)[0]

    run_server(
        ["--root", built, "--root", CORPUS_DOCX, "--outcap", str(OUTCAP), "--log", log],
        body,
        tmp_path / "stderr",
    )

    for (path, options), result in zip(cases, got, strict=True):
        assert not result.is_error, (path.name, options, texts(result))
        blocks = texts(result)
        assert blocks[0].encode("utf-8") == cli_render(path, options), (path.name, options)
        expected = json.loads(cli_render(path, options, json_out=True))
        assert blocks[0] == expected.pop("content")
        assert result.structured_content == expected
        assert blocks[1:] == ([expected["note"]] if expected["note"] else [])
    notes_seen = [r.structured_content["note"] for r in got if r.structured_content]
    assert sum(1 for note in notes_seen if note) >= 2  # cut answers were among them
    assert any(r.structured_content and r.structured_content["map"] for r in got)

    for key, (path, options) in bad.items():
        assert errors[key] == cli_error(path, options), key
    assert errors["stale"] == f"stale anchor P3#0000: P3 is now {anchor(stress, 3)}; read it again"
    assert others["pages"] == (
        'unknown argument "pages" (read_docx takes path, range, anchor, window, grep, scope)'
    )
    assert others["window type"] == 'argument "window" must be an integer'
    real = built.resolve()
    assert others["a pdf"] == f"{real / 'a.pdf'}: a PDF; read it with read_pdf"
    assert others["not a zip"].startswith(f"{real / 'fake.docx'}: not a Word document")
    assert others["missing"] == f"{real / 'nope.docx'}: no such file"
    assert others["outside"].startswith("/etc/passwd")
    assert (
        others["word via read_pdf"]
        == f"{real / 'notes.docx'}: a Word document; read it with read_docx"
    )

    entries = read_log(log)
    assert len(entries) == len(cases) + len(bad) + len(others) + 1
    for entry, (path, options), result in zip(entries[: len(cases)], cases, got, strict=True):
        assert entry.tool == "read_docx" and entry.path == str(path.resolve())
        assert entry.docx == DocxArgs(
            options.get("range", ""),
            options.get("anchor", ""),
            options.get("window"),
            options.get("scope", ""),
        )
        assert entry.grep == options.get("grep", "")
        assert entry.rendered is not None and entry.rendered.content == texts(result)[0]
        assert entry.sha256 is not None and len(entry.sha256) == 64
        assert entry.unreadable is None and entry.hidden is None  # PDF facts only
    line = json.loads(log.read_text("utf-8").splitlines()[3])
    assert line["tool"] == "read_docx"
    assert line["options"] == {
        "range": "",
        "anchor": anchor(stress, 7),
        "window": 2,
        "grep": "",
        "scope": "",
    }
    assert entries[-1].tool == "read_pdf" and entries[-1].docx is None
    # `siftui log --report` still reads a log holding both tools' calls.
    report = subprocess.run(
        [sys.executable, "-m", "siftui", "log", str(log), "--report", "--json"],
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)


def test_read_docx_limits_hold_as_for_pdfs(tmp_path: Path) -> None:
    """The worker's limits bound Word documents too: a zip bomb, a text over --max-runes,
    a file over --max-bytes are one-line errors; the server serves on."""
    root = tmp_path / "root"
    root.mkdir()
    bomb = f"<w:document {NS}><w:body>" + " " * (65 * 1024 * 1024) + "</w:body></w:document>"
    (root / "bomb.docx").write_bytes(docx_bytes("", raw_document=bomb))
    write_docx(root / "long.docx", "".join(p(t("x" * 40)) for _ in range(10)))
    write_docx(root / "ok.docx", p(t("short")))
    (root / "big.docx").write_bytes(os.urandom(120_000))  # refused before it is read
    results: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        for name in ("bomb.docx", "long.docx", "big.docx", "ok.docx"):
            results[name] = await session.call_tool("read_docx", {"path": name})

    args: list[str | Path] = [
        "--root",
        root,
        "--max-runes",
        "100",
        "--max-bytes",
        "100000",
        "--timeout",
        "30",
    ]
    run_server(args, body, tmp_path / "stderr")
    real = root.resolve()
    assert "inflates past 64 MiB (a zip bomb" in error_of(results["bomb.docx"])
    assert error_of(results["long.docx"]) == (
        f"{real / 'long.docx'}: 400 characters of text, over this server's limit of 100"
    )
    assert "over this server's limit of 100,000 bytes" in error_of(results["big.docx"])
    assert texts(results["ok.docx"])[0].endswith("short")
