"""The evidence tools served by the real `siftui mcp --tools evidence` over stdio.

`siftui session` must print exactly the text blocks the server sends for the
same calls in a fresh session; two connections keep their identities apart; a
file rewritten after pdf_open is stale; hostile calls get one line and the
server goes on; the log names each call's session, arguments and result.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from support.mcp_wire import Wire, served_lines
from support.pdfs import make_pdf

from siftui.core.evidence.script import call_line
from siftui.sources.log.reading import read_log

TIMEOUT = 60

SCRIPT: list[tuple[str, Any]] = [
    ("pdf_info", {"path": "a.pdf"}),
    ("pdf_open", {"path": "a.pdf"}),
    ("pdf_current", {}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 1, "lastPage": 2, "maxChars": 30}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 1, "lastPage": 2, "offset": 30}),
    ("pdf_keyword_search", {"documentId": "doc-1", "query": "page", "maxResults": 1}),
    ("pdf_keyword_search", {"searchId": "search-1"}),
    ("pdf_keyword_search", {"searchId": "search-1", "query": "x"}),
    ("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1", "quote": "first"}),
    ("pdf_bookmark_list", {"documentId": "doc-1", "limit": 1}),
    ("pdf_page_render", {"documentId": "doc-1", "page": 2, "dpi": 40}),
    ("pdf_status", {"documentId": "doc-1"}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 9}),
    ("pdf_page_read", {"documentId": "doc-1", "page": "1"}),
    ("pdf_nothing", {}),
    # Lone surrogates, which the SDK's parser refuses: the tool's own errors all the same.
    ("pdf_keyword_search", {"documentId": "doc-1", "query": "\ud800"}),
    ("pdf_page_read", {"documentId": "doc-\udc00", "page": 1}),
    ("pdf_current", {"\ud800": 1}),
    ("pdf_close", {"documentId": "doc-1"}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 1}),
]


def documents(folder: Path) -> Path:
    folder.mkdir()
    path = make_pdf(folder / "a.pdf", ["The first page of text", "The second page of text"])
    return path


def session_lines(root: Path, script: list[tuple[str, Any]]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "session", "--root", str(root)],
        input="\n".join(call_line(tool, arguments) for tool, arguments in script).encode(),
        capture_output=True,
        timeout=TIMEOUT * 2,
        check=True,
    )
    return done.stdout.decode("utf-8").splitlines()


def test_session_prints_exactly_what_the_server_sends(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    documents(root)
    log = tmp_path / "calls.jsonl"
    served: list[str] = []
    with Wire(["--root", root, "--tools", "evidence", "--log", log], tmp_path / "err.txt") as wire:
        listed = wire.request("tools/list", {})
        assert listed is not None
        names = [tool["name"] for tool in listed["result"]["tools"]]
        assert names[:2] == ["pdf_info", "pdf_open"] and "read_pdf" not in names
        for tool, arguments in SCRIPT:
            served += served_lines(wire.call(arguments, tool=tool, timeout=TIMEOUT))
    assert session_lines(root, SCRIPT) == served
    assert served[-1] == 'error: unknown documentId "doc-1"'
    assert 'error: unknown tool "pdf_nothing"' in served
    assert "error: a continuation takes {searchId} alone" in served
    assert 'error: argument "page" must be an integer' in served
    assert 'error: argument "query" is not valid text' in served
    assert 'error: argument "documentId" is not valid text' in served
    assert 'error: unknown argument "\\ud800" (pdf_current takes no arguments)' in served
    entries = read_log(log)
    assert [entry.tool for entry in entries] == [tool for tool, _ in SCRIPT]
    assert {entry.session for entry in entries if entry.tool != "pdf_nothing"} == {1}
    read = entries[3]
    assert read.arguments == SCRIPT[3][1]
    assert read.result is not None and read.result.text == served[3]
    assert read.result.sha256 == hashlib.sha256(served[3].encode()).hexdigest()
    assert entries[-1].error and entries[-1].message == 'unknown documentId "doc-1"'


def test_two_connections_keep_their_identities_apart(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    documents(root)
    with (
        Wire(["--root", root, "--tools", "read,evidence"], tmp_path / "1.txt") as one,
        Wire(["--root", root, "--tools", "evidence"], tmp_path / "2.txt") as two,
    ):
        one.call({"path": "a.pdf"}, tool="pdf_open")
        one.call({"documentId": "doc-1", "page": 1}, tool="pdf_page_read")
        answer = two.call({"documentId": "doc-1", "refId": "ref-1"}, tool="pdf_evidence_read")
        assert served_lines(answer) == ['error: unknown documentId "doc-1"']
        assert served_lines(one.call({"path": "a.pdf"}, tool="read_pdf"))[0].startswith("--- page")


def test_a_file_rewritten_after_open_is_stale_over_the_wire(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    path = documents(root)
    with Wire(["--root", root, "--tools", "evidence"], tmp_path / "err.txt") as wire:
        opened = json.loads(served_lines(wire.call({"path": "a.pdf"}, tool="pdf_open"))[0])
        make_pdf(tmp_path / "new.pdf", ["Rewritten"])
        os.replace(tmp_path / "new.pdf", path)
        stale = wire.call({"documentId": "doc-1", "query": "page"}, tool="pdf_keyword_search")
        assert served_lines(stale) == [
            "error: doc-1 is stale: a.pdf changed since it was opened; open it again"
        ]
        again = json.loads(served_lines(wire.call({"path": "a.pdf"}, tool="pdf_open"))[0])
        assert again["documentId"] == "doc-2"
        assert again["contentVersion"] != opened["contentVersion"]
        assert wire.alive()


def test_hostile_calls_get_one_line_and_the_server_serves_on(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    documents(root)
    (tmp_path / "secret.pdf").write_bytes((root / "a.pdf").read_bytes())
    os.symlink(tmp_path / "secret.pdf", root / "link.pdf")
    hostile: list[tuple[str, Any]] = [
        ("pdf_open", {"path": "../secret.pdf"}),
        ("pdf_open", {"path": "link.pdf"}),
        ("pdf_open", {"path": "/etc/passwd"}),
        ("pdf_open", {"path": "a.pdf", "mode": "w"}),
        ("pdf_keyword_search", {"documentId": "doc-1", "query": "q" * 201}),
        ("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1", "range": {}}),
        ("ocr_recognize", {"imageHandle": "img-1"}),
        ("pdf_bookmark_list", {"documentId": "doc-1", "cursor": "cur-1", "limit": 5}),
        ("pdf_current", []),
    ]
    with Wire(["--root", root, "--tools", "evidence"], tmp_path / "err.txt") as wire:
        for tool, arguments in hostile:
            [line] = served_lines(wire.call(arguments, tool=tool, timeout=TIMEOUT))
            assert line.startswith("error: ") and "\n" not in line, (tool, line)
            assert "root:" not in line  # no file's text leaks
        huge = '{"documentId": "doc-1", "page": 1' + "0" * 5000 + "}"
        params = f'{{"name": "pdf_page_read", "arguments": {huge}}}'
        wire.send(
            f'{{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {params}}}'.encode()
        )
        [line] = served_lines(wire.receive(7, TIMEOUT))
        assert line.startswith("error: ") and len(line) < 200
        opened = served_lines(wire.call({"path": "a.pdf"}, tool="pdf_open"))
        assert json.loads(opened[0])["documentId"] == "doc-1"
        assert wire.alive()
