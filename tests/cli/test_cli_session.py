"""`siftui session`: calls from a script or stdin, each result printed as the server sends it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.pdfs import CORPUS, make_pdf

from siftui.core.evidence.store import SERVED_LIMITS

TIMEOUT = 120


def session(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", "session", *args],
        input=stdin,
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )


def test_a_script_file_and_stdin_give_the_same_lines(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["alpha beta", "gamma"])
    script = tmp_path / "calls.jsonl"
    script.write_text(
        '{"tool": "pdf_open", "arguments": {"path": "a.pdf"}}\n'
        '{"tool": "pdf_page_read", "arguments": {"documentId": "doc-1", "page": 1}}\n'
        "[]\n",
        encoding="utf-8",
    )
    from_file = session("--root", str(tmp_path), str(script))
    from_stdin = session("--root", str(tmp_path), stdin=script.read_bytes())
    assert from_file.returncode == from_stdin.returncode == 0
    assert from_file.stdout == from_stdin.stdout
    lines = from_file.stdout.decode().splitlines()
    assert json.loads(lines[0])["documentId"] == "doc-1"
    assert json.loads(lines[1])["pages"][0]["text"].startswith("alpha beta")
    assert lines[2] == "error: line 3: not a call"


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--root", "/no/such/dir"], b"", "root /no/such/dir"),
        (["--root", ".", "missing.jsonl"], b"", "missing.jsonl: No such file or directory"),
        (["--root", ".", "--outcap", "0"], b"", "--outcap"),
        (["--root", ".", "--unit", "words"], b"", "--unit"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], stdin: bytes, message: str) -> None:
    done = session(*args, stdin=stdin)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.decode().splitlines()
    assert line.startswith("siftui: error: ") and message in line


def test_a_line_that_is_not_utf8_is_not_a_call(tmp_path: Path) -> None:
    done = session("--root", str(tmp_path), stdin=b'\xff\xfe{\n{"tool": "pdf_current"}\n')
    assert done.returncode == 0
    assert done.stdout.decode().splitlines() == [
        "error: line 1: not a call",
        '{"documents":[]}',
    ]


def test_help_says_what_a_session_holds() -> None:
    for command in ("session", "mcp"):
        done = subprocess.run(
            [sys.executable, "-m", "siftui", command, "--help"],
            capture_output=True,
            timeout=TIMEOUT,
            check=True,
        )
        text = " ".join(done.stdout.decode().split())
        assert f"at most {SERVED_LIMITS.documents} documents" in text
        assert "the oldest are forgotten" in text


@pytest.mark.skipif(not (CORPUS / "ksp-thesis.pdf").is_file(), reason="no corpus")
def test_a_corpus_thesis_reads_and_searches(tmp_path: Path) -> None:
    calls = [
        {"tool": "pdf_open", "arguments": {"path": "ksp-thesis.pdf"}},
        {"tool": "pdf_keyword_search", "arguments": {"documentId": "doc-1", "query": "the"}},
        {"tool": "pdf_keyword_search", "arguments": {"searchId": "search-1"}},
        # its fonts make MuPDF complain while drawing: nothing of that may reach stdout
        {"tool": "pdf_page_render", "arguments": {"documentId": "doc-1", "page": 1}},
    ]
    done = session(
        "--root", str(CORPUS), stdin="\n".join(json.dumps(call) for call in calls).encode()
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[3].startswith("image: ") and len(lines) == 5
    opened, first, more = (json.loads(line) for line in lines[:3])
    rendered = json.loads(lines[4])
    assert rendered["imageHandle"] == "img-1"
    assert opened["pages"] == 8
    assert first["total"] > 40 and len(first["hits"]) == 20 and first["hasMore"]
    assert more["hits"][0]["refId"] == "ref-21"
