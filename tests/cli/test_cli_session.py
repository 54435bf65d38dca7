"""`siftui session`: calls from a script or stdin, each result printed as the server sends it."""

from __future__ import annotations

import json
import os
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


TINY_HOST = """
[[agent]]
name = "Tiny host"
unit = "bytes"
limit = 150
"""


def test_tokens_adds_each_results_sizes_and_the_agents_check_on_stderr(tmp_path: Path) -> None:
    from siftui.core.agents import fit, verdicts_line
    from siftui.sources.agents_load import count_tokens, load_agents
    from siftui.sources.tokens import token_counts

    make_pdf(tmp_path / "a.pdf", ["Déjà vu, alpha beta " * 8, "gamma"])
    config = tmp_path / "config"
    (config / "siftui").mkdir(parents=True)
    (config / "siftui" / "agents.toml").write_text(TINY_HOST, encoding="utf-8")
    script = (
        b'{"tool": "pdf_open", "arguments": {"path": "a.pdf"}}\n'
        b"not a call\n"
        b'{"tool": "pdf_page_read", "arguments": {"documentId": "doc-1", "page": 1}}\n'
        b'{"tool": "pdf_page_read", "arguments": {"documentId": "doc-1", "page": 9}}\n'
    )

    def run(*extra: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "siftui", "session", "--root", str(tmp_path), *extra],
            input=script,
            capture_output=True,
            timeout=TIMEOUT,
            check=True,
            env={**os.environ, "XDG_CONFIG_HOME": str(config)},
        )

    plain, counted = run(), run("--tokens")
    assert counted.stdout == plain.stdout and plain.stderr == b""
    lines = plain.stdout.decode("utf-8").splitlines()
    texts = [lines[0], lines[2], lines[3].removeprefix("error: ")]
    agents = load_agents(config / "siftui" / "agents.toml")
    expected = []
    for number, (tool, text) in enumerate(
        zip(["pdf_open", "pdf_page_read", "pdf_page_read"], texts, strict=True), start=1
    ):
        counts = dict(token_counts(text).tokens)
        tokens = "  ".join(f"{name} {value:,}" for name, value in counts.items())
        expected += [
            f"call {number} {tool}: {len(text.encode()):,} bytes  {len(text):,} runes  "
            f"runes/4 {len(text) // 4:,}  {tokens}",
            f"call {number} {tool}: {verdicts_line(fit(text, agents, count_tokens))}",
        ]
    assert counted.stderr.decode("utf-8").splitlines() == expected
    assert "✗ Tiny host" in expected[3] and "✗" not in expected[1]
