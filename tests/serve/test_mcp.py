"""`siftui mcp`: a real MCP client (the official SDK) against the server over stdio.

What the agent receives must be the very string `siftui render` prints: the
first text block is compared byte for byte with the CLI's stdout for the same
options and --outcap, the note is the second block, and structuredContent holds
the fields of `siftui render --json`. Refusals and bad options are tool errors
and the server keeps serving; the call log has one line per call.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult
from support.mcp_client import cli_render, error_of, run_server, texts
from support.pdfs import make_pdf

from siftui.core.doc import Doc
from siftui.core.outcap import INVALID_MESSAGE
from siftui.core.render import Options, render
from siftui.core.textless import answer_textless, textless_warning
from siftui.serve.access import Refused, Roots
from siftui.serve.pdf_tool import NO_TEXT_ADVICE, OUTPUT_SCHEMA
from siftui.sources.load import load_doc_report
from siftui.sources.log.reading import read_log
from siftui.sources.output import rendered_json

BAD_OUTCAP = f"argument --outcap: {INVALID_MESSAGE}, not "

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
OUTCAP = 3000
TIMEOUT = 60

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not found")


def arguments(name: str, options: Options) -> dict[str, Any]:
    given: dict[str, Any] = {"path": name}
    if options.pages:
        given["pages"] = options.pages
    if options.grep:
        given["grep"] = options.grep
    return given


@needs_corpus
def test_answers_are_the_bytes_of_siftui_render(tmp_path: Path) -> None:
    """The corpus through the server, against the CLI; errors in between, then a log."""
    extra = tmp_path / "extra"
    extra.mkdir()
    # A Doc JSON with a lone surrogate: the CLI prints U+FFFD, so must the server.
    (extra / "broken.json").write_text(
        '{"title": "B", "page_count": 2, "pages": ["caf\\ud800 ok", "two"]}', "utf-8"
    )
    log = tmp_path / "calls.jsonl"
    cases = [
        ("ksp-thesis.pdf", Options(out_cap=OUTCAP)),  # a map
        ("ksp-thesis.pdf", Options(pages="3-8", out_cap=OUTCAP)),  # cut, with a note
        ("ksp-thesis.pdf", Options(pages="2", out_cap=OUTCAP)),
        ("ksp-thesis.pdf", Options(grep="thesis", out_cap=OUTCAP)),  # blocks dropped, a note
        ("ksp-thesis.pdf", Options(pages="1-3", grep=r"Install\w*", out_cap=OUTCAP)),
        ("lshort-zh-cn.pdf", Options(pages="5-6", out_cap=OUTCAP)),  # CJK
        ("lshort-zh-cn.pdf", Options(grep="文档", out_cap=OUTCAP)),
        ("c03-29.pdf", Options(out_cap=OUTCAP)),  # image only: no text
        (str(extra / "broken.json"), Options(out_cap=OUTCAP)),
    ]
    got: list[CallToolResult] = []
    errors: dict[str, str] = {}

    async def body(session: ClientSession) -> None:
        listed = await session.list_tools()
        tool, word = listed.tools
        assert (tool.name, word.name) == ("read_pdf", "read_docx")
        assert tool.input_schema["required"] == ["path"]
        assert set(tool.input_schema["properties"]) == {"path", "pages", "grep"}
        assert tool.output_schema == OUTPUT_SCHEMA
        assert tool.description is not None
        assert f"{OUTCAP:,} characters" in tool.description
        assert 'pages="a-b"' in tool.description and "grep=" in tool.description
        for name, options in cases[:4]:
            got.append(await session.call_tool("read_pdf", arguments(name, options)))
        # Bad options are tool errors; the server answers the next call as usual.
        bad: dict[str, dict[str, Any]] = {
            "grep": {"path": "ksp-thesis.pdf", "grep": "("},
            "long": {"path": "ksp-thesis.pdf", "grep": "x" * 201},
            "syntax": {"path": "ksp-thesis.pdf", "pages": "3..4"},
            "range": {"path": "ksp-thesis.pdf", "pages": "9-12"},
            "missing": {"path": "nope.pdf"},
            "not a pdf": {"path": "MANIFEST.tsv"},
            "password": {"path": "libreoffice-writer-password.pdf"},
            "out_cap": {"path": "ksp-thesis.pdf", "out_cap": 10},
        }
        for key, args in bad.items():
            errors[key] = error_of(await session.call_tool("read_pdf", args))
        for name, options in cases[4:]:
            got.append(await session.call_tool("read_pdf", arguments(name, options)))

    run_server(
        ["--root", CORPUS, "--root", extra, "--outcap", str(OUTCAP), "--log", log],
        body,
        tmp_path / "stderr",
    )

    paths = [Path(name) if Path(name).is_absolute() else CORPUS / name for name, _ in cases]
    printed = cli_render([(path, options) for path, (_, options) in zip(paths, cases, strict=True)])
    docs: dict[Path, Doc] = {}
    for path, (name, options), result, stdout in zip(paths, cases, got, printed, strict=True):
        assert not result.is_error, texts(result)
        blocks = texts(result)
        assert blocks[0].encode("utf-8") == stdout, (name, options)
        doc = docs.setdefault(path, load_doc_report(path).doc)
        answer = render(doc, options)
        expected = json.loads(rendered_json(answer).replace("\ud800", "\ufffd"))
        # The text is sent once, as the first block; structuredContent has the rest,
        # and the agent is told of pages that have no text (the scan's only page).
        assert blocks[0] == expected.pop("content")
        empty = answer_textless(doc, answer)
        if empty:
            expected["warning"] = "warning: " + textless_warning(empty, NO_TEXT_ADVICE)
        assert result.structured_content == expected
        after = "\n".join(part for part in (expected["note"], expected.get("warning", "")) if part)
        assert blocks[1:] == ([after] if after else [])
        assert bool(empty) == (name == "c03-29.pdf")
    assert got[1].structured_content is not None and got[1].structured_content["note"]
    assert "\ufffd" in texts(got[-1])[0]

    assert errors["grep"] == "invalid grep: missing ): ("
    assert errors["long"] == "pattern longer than 200 bytes"
    assert errors["syntax"] == 'invalid pages "3..4": use "a-b", "a" or "a-"'
    assert errors["range"] == "pages out of range (1-8)"
    # The server names real paths (the roots resolved, symlinks followed).
    real = CORPUS.resolve()
    assert errors["missing"] == f"{real / 'nope.pdf'}: no such file"
    assert errors["not a pdf"].startswith(f"{real / 'MANIFEST.tsv'}: ")
    assert "password" in errors["password"]
    assert errors["out_cap"] == 'unknown argument "out_cap" (read_pdf takes path, pages, grep)'

    # One valid JSON line per call, failed ones included, in call order.
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert all(isinstance(line, dict) for line in lines)
    # A document's hidden-text findings come after its first answer, as a later line
    # naming that call.
    calls = [line for line in lines if "findings_of" not in line]
    later = [line for line in lines if "findings_of" in line]
    assert len(calls) == len(cases) + len(errors)
    assert {line["findings_of"] for line in later} <= {call["time"] for call in calls}
    entries = read_log(log)
    answered = [e for e in entries if not e.error]
    failed = [e for e in entries if e.error]
    assert [e.message for e in failed] == list(errors.values())
    assert len(answered) == len(cases)
    for entry, path, (_, options), result in zip(answered, paths, cases, got, strict=True):
        assert entry.path == str(path.resolve())
        assert entry.options == options
        assert entry.out_cap == OUTCAP
        assert entry.rendered is not None
        logged = json.loads(rendered_json(entry.rendered))
        assert logged.pop("content") == texts(result)[0]
        if entry.warning:  # the log keeps the warning the agent got beside the answer
            logged["warning"] = entry.warning
        assert logged == result.structured_content
        assert entry.sha256 is not None and len(entry.sha256) == 64
        assert entry.duration_ms >= 0
    assert entries[0].sha256 == _manifest_sha256("ksp-thesis.pdf")
    assert failed[0].path == str(real / "ksp-thesis.pdf") and failed[0].sha256 is None


def _manifest_sha256(name: str) -> str:
    for line in (CORPUS / "MANIFEST.tsv").read_text("utf-8").splitlines()[1:]:
        fields = line.split("\t")
        if fields[0] == name:
            return fields[9]
    raise AssertionError(name)


def test_only_files_under_the_roots_are_readable(tmp_path: Path) -> None:
    root, root2, outside = tmp_path / "root", tmp_path / "root2", tmp_path / "outside"
    for folder in (root, root2, outside, root / "sub"):
        folder.mkdir()
    make_pdf(root / "real.pdf", ["inside text"])
    make_pdf(outside / "secret.pdf", ["secret text"])
    (root / "escape.pdf").symlink_to(outside / "secret.pdf")  # a symlink out of the root
    (root / "linkdir").symlink_to(outside, target_is_directory=True)
    (root2 / "alias.pdf").symlink_to(root / "real.pdf")  # lands in a root: allowed
    refused = {
        "../outside/secret.pdf": "../outside/secret.pdf",
        "sub/../../outside/secret.pdf": "sub/../../outside/secret.pdf",
        "absolute": str(outside / "secret.pdf"),
        "absent outside": str(outside / "absent.pdf"),
        "symlink": "escape.pdf",
        "symlinked dir": "linkdir/secret.pdf",
        "etc": "/etc/passwd",
        "root's parent": "..",
    }
    allowed = ["real.pdf", "sub/../real.pdf", str(root / "real.pdf"), str(root2 / "alias.pdf")]
    results: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        for key, path in refused.items():
            results[key] = await session.call_tool("read_pdf", {"path": path})
        for path in allowed:
            results[path] = await session.call_tool("read_pdf", {"path": path})
        with pytest.raises(MCPError, match="unknown tool: write_pdf"):
            await session.call_tool("write_pdf", {"path": "real.pdf"})
        results["dir"] = await session.call_tool("read_pdf", {"path": "sub"})
        results["no path"] = await session.call_tool("read_pdf", {})
        results["int pages"] = await session.call_tool("read_pdf", {"path": "real.pdf", "pages": 1})

    log = tmp_path / "calls.jsonl"
    run_server(["--root", root, "--root", root2, "--log", log], body, tmp_path / "stderr")

    for key, path in refused.items():
        message = error_of(results[key])
        assert message == f"{path} is outside the allowed roots ({root}, {root2})", key
    for path in allowed:
        assert not results[path].is_error, texts(results[path])
        assert texts(results[path]) == ["--- page 1 ---\n\ninside text"]
    assert error_of(results["dir"]) == f"{root / 'sub'}: is a directory, not a file"
    assert error_of(results["no path"]) == 'missing argument "path"'
    assert error_of(results["int pages"]) == 'argument "pages" must be a string'
    # The log names where a refused path led, not only what was asked.
    entries = read_log(log)
    by_request = {e.requested: e for e in entries}
    assert by_request["escape.pdf"].path == str(outside / "secret.pdf")
    assert by_request["escape.pdf"].error and by_request["escape.pdf"].sha256 is None
    assert all("secret text" not in line for line in log.read_text("utf-8").splitlines())


def test_roots_resolve_without_the_server(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    roots = Roots([tmp_path / "a", tmp_path / "a" / ".." / "a"])
    assert roots.dirs == ((tmp_path / "a").resolve(),)
    assert roots.resolve("x.pdf") == (tmp_path / "a" / "x.pdf").resolve()
    for bad in ("", "  ", "a\x00b", "../a2/x.pdf"):
        with pytest.raises(Refused):
            roots.resolve(bad)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "the following arguments are required: --root"),
        (["--root", "/nonexistent/dir"], "root /nonexistent/dir: no such directory"),
        (["--root", "/etc/passwd"], "root /etc/passwd: not a directory"),
        (
            ["--root", "/tmp", "--outcap", "0"],
            BAD_OUTCAP + "'0'",
        ),
        (
            ["--root", "/tmp", "--outcap", "2000000000"],
            BAD_OUTCAP + "'2000000000'",
        ),
        (["--root", "/tmp", "--timeout", "0"], "--timeout must be > 0, not 0"),
        (["--root", "/tmp", "--timeout", "nan"], "--timeout must be > 0, not nan"),
        (
            ["--root", "/tmp", "--timeout", "inf"],
            "--timeout must be a finite number of seconds, not inf",
        ),
        (["--root", "/tmp", "--workers", "0"], "--workers must be >= 1, not 0"),
        (
            ["--root", "/tmp", "--worker-memory", "1000"],
            "--worker-memory must be 0 (no limit) or >= 134,217,728 bytes (an extraction "
            "process needs ~100 MB to start), not 1,000",
        ),
        (["--root", "/tmp", "--max-runes", "0"], "--max-runes must be >= 1, not 0"),
        (["--root", "/tmp", "--max-bytes", "0"], "--max-bytes must be >= 1, not 0"),
        (
            ["--root", "/tmp", "--tools", "read,write"],
            '--tools: unknown tool family "write" (families: read, evidence, edit)',
        ),
        (
            ["--root", "/tmp", "--tools", ","],
            "--tools: no tool family (families: read, evidence, edit)",
        ),
    ],
)
def test_bad_server_options_exit_2(args: list[str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "siftui", "mcp", *args],
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode() == f"siftui: error: {message}\n"


def test_help_names_the_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "siftui", "mcp", "--help"],
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert result.returncode == 0
    assert b"--root" in result.stdout and b"--outcap 20000" in result.stdout


def test_render_does_not_import_the_sdk() -> None:
    """`siftui render` and the TUI do not pay for the MCP SDK: only `siftui mcp` loads it."""
    modules = "siftui.cli, siftui.serve.access, siftui.sources.log.calllog, siftui.serve.docstore"
    probe = f"import sys, {modules}\n"
    probe += "print(sorted({m.split('.')[0] for m in sys.modules} & {'mcp', 'mcp_types', 'anyio'}))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=TIMEOUT
    )
    assert done.stdout.strip() == "[]"
