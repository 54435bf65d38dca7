"""The host over MCP Streamable HTTP, reached by the official MCP client.

It answers what `siftui session` prints for the same calls; two clients at once
keep their identities apart (and the log tells their sessions apart); a request
without the token gets 401, a foreign Host 421 and a foreign Origin 403, as the
SDK's own transport security answers them; the reader file tells where it
serves, readable by its owner only, and is gone at stop.
"""

from __future__ import annotations

import base64
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from support.http_host import client, result_lines, serving
from support.pdfs import make_pdf

from siftui.core.evidence.script import call_line
from siftui.serve.reader_file import reader_path, runtime_folder
from siftui.sources.log.reading import read_log

TIMEOUT = 60
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("pdf_open", {"path": "a.pdf"}),
    ("pdf_current", {}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 1, "lastPage": 2, "maxChars": 30}),
    ("pdf_keyword_search", {"documentId": "doc-1", "query": "page", "maxResults": 1}),
    ("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1", "quote": "first"}),
    ("pdf_page_render", {"documentId": "doc-1", "page": 2, "dpi": 40}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 9}),
    ("pdf_nothing", {}),
    ("pdf_close", {"documentId": "doc-1"}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 1}),
]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def documents(root: Path) -> Path:
    root.mkdir()
    make_pdf(root / "b.pdf", ["Another file"])
    return make_pdf(root / "a.pdf", ["The first page of text", "The second page of text"])


def session_lines(
    root: Path, script: list[tuple[str, dict[str, Any]]], tools: str = "evidence"
) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "session", "--root", str(root), "--tools", tools],
        input="\n".join(call_line(tool, arguments) for tool, arguments in script).encode(),
        capture_output=True,
        timeout=TIMEOUT * 2,
        check=True,
    )
    return done.stdout.decode("utf-8").splitlines()


def test_the_official_client_gets_what_siftui_session_prints(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    documents(root)
    served: list[str] = []

    async def agent() -> None:
        async with client(host) as session:
            names = [tool.name for tool in (await session.list_tools()).tools]
            assert names[:3] == ["read_pdf", "read_docx", "pdf_info"]
            for tool, arguments in SCRIPT:
                served.extend(result_lines(await session.call_tool(tool, arguments)))

    with serving(root, {"read", "evidence"}) as host:
        anyio.run(agent)
    assert served == session_lines(root, SCRIPT)
    assert served[-1] == 'error: unknown documentId "doc-1"'


def test_siftui_session_previews_the_edit_tools_of_a_host_with_no_reader(
    tmp_path: Path,
) -> None:
    root = tmp_path / "docs"
    documents(root)
    script: list[tuple[str, dict[str, Any]]] = [
        ("pdf_open", {"path": "a.pdf"}),
        ("pdf_page_jump", {"documentId": "doc-1", "page": 2}),
        ("pdf_page_jump", {"documentId": "doc-1"}),
        ("pdf_page_jump", {"documentId": "doc-1", "page": 2, "tabId": 3}),
        ("pdf_page_jump", {"documentId": "doc-1", "page": 7}),
    ]
    served: list[str] = []

    async def agent() -> None:
        async with client(host) as session:
            names = [tool.name for tool in (await session.list_tools()).tools]
            assert names[-1] == "pdf_page_jump" and "read_pdf" not in names
            for tool, arguments in script:
                served.extend(result_lines(await session.call_tool(tool, arguments)))

    with serving(root, {"evidence", "edit"}) as host:
        anyio.run(agent)
    assert served == session_lines(root, script, "evidence,edit")
    assert served[1:] == [
        "error: no reader is attached",
        "error: give page or refId",
        'error: argument "tabId" must be a string',
        "error: page out of range (1-2)",
    ]


def test_two_clients_at_once_keep_their_identities_apart(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    documents(root)
    log = tmp_path / "calls.jsonl"
    current: dict[str, Any] = {}
    refused: list[str] = []

    async def agent(name: str, opened: anyio.Event, other: anyio.Event) -> None:
        async with client(host) as session:
            first = await session.call_tool("pdf_open", {"path": f"{name}.pdf"})
            assert json.loads(result_lines(first)[0])["documentId"] == "doc-1"
            opened.set()
            await other.wait()  # both connections are open at once
            listed = await session.call_tool("pdf_current", {})
            current[name] = json.loads(result_lines(listed)[0])
            if name == "b":  # a ref of the other connection is unknown here
                read = {"documentId": "doc-1", "refId": "ref-1"}
                refused.extend(result_lines(await session.call_tool("pdf_evidence_read", read)))

    async def both() -> None:
        a_open, b_open = anyio.Event(), anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(agent, "a", a_open, b_open)
            group.start_soon(agent, "b", b_open, a_open)

    with serving(root, {"evidence"}, log=log) as host:
        anyio.run(both)
    assert [doc["path"] for doc in current["a"]["documents"]] == ["a.pdf"]
    assert [doc["path"] for doc in current["b"]["documents"]] == ["b.pdf"]
    assert refused == ['error: unknown refId "ref-1"']
    opened = {entry.session: entry.path for entry in read_log(log) if entry.tool == "pdf_open"}
    assert opened == {1: str(root / "a.pdf"), 2: str(root / "b.pdf")} or opened == {
        1: str(root / "b.pdf"),
        2: str(root / "a.pdf"),
    }


def _post(url: str, headers: dict[str, str]) -> httpx2.Response:
    async def send() -> httpx2.Response:
        async with httpx2.AsyncClient(timeout=TIMEOUT) as http:
            return await http.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **headers})

    return anyio.run(send)


def test_a_request_without_the_token_gets_401(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    documents(root)
    with serving(root, {"evidence"}) as host:
        wrong = host.token[:-1] + ("A" if host.token[-1] != "A" else "B")
        assert _post(host.url, {}).status_code == 401
        assert _post(host.url, {"Authorization": f"Bearer {wrong}"}).status_code == 401
        assert _post(host.url, {"Authorization": host.token}).status_code == 401
        assert _post(host.url, {"Authorization": f"Bearer {host.token}"}).status_code == 200


def test_a_foreign_host_gets_421_and_a_foreign_origin_403(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    documents(root)
    with serving(root, {"evidence"}) as host:
        token = {"Authorization": f"Bearer {host.token}"}
        port = host.port
        other_port = port + 1 if port < 65535 else port - 1
        for bad in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{other_port}"):
            assert _post(host.url, {**token, "Host": bad}).status_code == 421, bad
        for bad in ("http://evil.example", f"http://evil.example:{port}", "null"):
            assert _post(host.url, {**token, "Origin": bad}).status_code == 403, bad
        for good in (f"localhost:{port}", f"[::1]:{port}"):
            assert _post(host.url, {**token, "Host": good}).status_code == 200, good
        assert _post(host.url, {**token, "Origin": f"http://localhost:{port}"}).status_code == 200


def test_each_start_has_a_new_token_of_32_bytes(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    documents(root)
    with serving(root, {"read"}) as one, serving(root, {"read"}) as two:
        assert one.token != two.token and one.port != two.port
        for token in (one.token, two.token):
            assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) >= 32


def test_the_reader_file_tells_where_the_host_serves_and_goes_at_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "docs"
    documents(root)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    path = reader_path(os.getpid())
    with serving(root, {"evidence"}, announce=True) as host:
        assert path.parent == tmp_path / "run" / "siftui"
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        written = json.loads(path.read_text())
        assert written == {"pid": os.getpid(), "url": host.url, "token": host.token}
        assert host.url.startswith("http://127.0.0.1:")
    assert not path.exists()
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert runtime_folder() == Path(f"/tmp/siftui-{os.getuid()}")


def test_a_connection_that_ends_lets_go_of_its_working_copies(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    path = documents(root)
    held: list[list[str]] = []

    async def agent() -> None:
        async with client(host) as session:
            await session.call_tool("pdf_open", {"path": "a.pdf"})
            listed = await session.call_tool("pdf_annotation_list", {"documentId": "doc-1"})
            assert json.loads(result_lines(listed)[0])["total"] == 0
            held.append(host.host.settings.edit.copies.paths())
        held.append(host.host.settings.edit.copies.paths())

    with serving(root, {"evidence", "edit"}) as host:
        anyio.run(agent)
    assert held == [[str(path)], []]
