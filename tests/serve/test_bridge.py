"""`siftui mcp --reader`: the official stdio client, through the bridge, to a running host.

The host runs in the test's process and announces itself in a reader file of
a runtime folder of the test's own; the bridge finds it there. Its answers are
the host's; once the host has gone, a call gets `the reader has closed`; with
no reader, or several, the bridge exits 1 with EDITING.md's line.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from support.http_host import client, result_lines, serving
from support.pdfs import make_pdf

from siftui.serve.edit.state import EditHost
from siftui.serve.reader_file import ReaderAddress, runtime_folder, write_reader_file
from siftui.sources.edit.drafts import DraftStore

TIMEOUT = 60


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of a bridge that looks for readers in a folder of this test's."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    return {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path / "run")}


def bridge(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", "mcp", "--reader", *args],
        input=b"",
        capture_output=True,
        env=env,
        timeout=TIMEOUT,
        check=False,
    )


def test_the_bridge_forwards_to_the_reader_until_it_closes(
    tmp_path: Path, runtime: dict[str, str]
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    make_pdf(root / "a.pdf", ["The first page of text", "The second page of text"])
    bridged: list[list[str]] = []
    direct: list[list[str]] = []
    calls: list[tuple[str, dict[str, Any]]] = [
        ("pdf_open", {"path": "a.pdf"}),
        ("pdf_page_read", {"documentId": "doc-1", "page": 1, "maxChars": 20}),
        ("pdf_nothing", {}),
        ("read_pdf", {"path": "a.pdf", "pages": "2"}),
    ]

    async def agents() -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "siftui", "mcp", "--reader"], env=runtime
        )
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            names = [tool.name for tool in (await session.list_tools()).tools]
            assert names[:3] == ["read_pdf", "read_docx", "pdf_info"]
            for tool, arguments in calls:
                bridged.append(result_lines(await session.call_tool(tool, arguments)))
            async with client(host) as straight:
                for tool, arguments in calls:
                    direct.append(result_lines(await straight.call_tool(tool, arguments)))
            host.stop()
            for _ in range(2):
                gone = await session.call_tool("pdf_current", {})
                assert result_lines(gone) == ["error: the reader has closed"]

    with serving(root, {"read", "evidence"}, announce=True) as host:
        anyio.run(agents)
    assert bridged == direct
    assert json.loads(bridged[0][0])["documentId"] == "doc-1"
    assert bridged[2] == ['error: unknown tool "pdf_nothing"']


def test_no_reader_running_is_one_line(runtime: dict[str, str], tmp_path: Path) -> None:
    done = bridge(runtime)
    assert done.returncode == 1
    line = "no siftui reader is running (start one with: siftui reader --root DIR)\n"
    assert done.stderr.decode() == line and done.stdout == b""
    # A file left by a reader that died is no running reader.
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        timeout=TIMEOUT,
        check=True,
    )
    write_reader_file(ReaderAddress(int(dead.stdout), "http://127.0.0.1:1/mcp", "t"))
    assert bridge(runtime).stderr.decode() == line
    assert bridge(runtime, str(os.getpid())).stderr.decode() == line


def test_a_reader_file_nested_too_deep_is_no_reader(runtime: dict[str, str]) -> None:
    """A reader file that is JSON deeper than the parser goes is no running reader (a
    RecursionError escaped the check of what the file holds)."""
    path = write_reader_file(ReaderAddress(os.getpid(), "http://127.0.0.1:1/mcp", "t"))
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    done = bridge(runtime)
    line = "no siftui reader is running (start one with: siftui reader --root DIR)\n"
    assert done.returncode == 1 and done.stderr.decode() == line


def test_several_readers_running_need_a_pid(runtime: dict[str, str]) -> None:
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        pids = sorted((os.getpid(), other.pid))
        for pid in pids:
            write_reader_file(ReaderAddress(pid, "http://127.0.0.1:1/mcp", "t"))
        done = bridge(runtime)
        assert done.returncode == 1
        assert done.stderr.decode() == (
            f"several siftui readers are running ({pids[0]}, {pids[1]}): give one\n"
        )
    finally:
        other.kill()
        other.wait()


class _DecidesOnProgress:
    """A reader that approves the save once the agent has heard it waits."""

    def __init__(self) -> None:
        self.decision: Future[bool] = Future()

    def tabs(self) -> list[Any]:
        return []

    def jump(self, tab_id: str, page: int, marks: tuple[Any, ...] = ()) -> int:
        raise LookupError(tab_id)

    def ask_save(self, path: str, revision: int, timeout: float) -> Future[bool]:
        return self.decision

    def save_ended(self, path: str, outcome: str, saved: bool) -> None:
        pass  # told nobody: no person reads this reader


@pytest.mark.slow  # the first progress notification comes 5 s into the wait
def test_progress_notifications_pass_the_bridge(tmp_path: Path, runtime: dict[str, str]) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    make_pdf(root / "a.pdf", ["The first page of text", "The second page of text"])
    reader = _DecidesOnProgress()
    told: list[tuple[float, float | None, str | None]] = []
    saved: list[list[str]] = []

    async def progress(progress: float, total: float | None, message: str | None) -> None:
        told.append((progress, total, message))
        if not reader.decision.done():
            reader.decision.set_result(True)

    async def agent() -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "siftui", "mcp", "--reader"], env=runtime
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("pdf_open", {"path": "a.pdf"})
            await session.call_tool("pdf_keyword_search", {"documentId": "doc-1", "query": "first"})
            target = {"kind": "reference", "refId": "ref-1"}
            create: dict[str, Any] = {
                "documentId": "doc-1",
                "expectedRevision": 0,
                "subtype": "Highlight",
                "target": target,
            }
            await session.call_tool("pdf_annotation_create", create)
            save: dict[str, Any] = {"documentId": "doc-1", "expectedRevision": 1}
            got = await session.call_tool("pdf_save", save, progress_callback=progress)
            saved.append(result_lines(got))

    edit = EditHost(drafts=DraftStore(tmp_path / "drafts"))
    with serving(root, {"read", "evidence", "edit"}, announce=True, edit=edit) as host:
        host.host.settings.edit.attach(reader)
        anyio.run(agent)
    assert told and told[0][:2] == (5, 300)
    assert told[0][2] == "waiting for the person's decision: 5 of 300 s"
    assert json.loads(saved[0][0])["saved"] is True


NOT_PRIVATE = "not a private folder of this user ({}); remove it, or set XDG_RUNTIME_DIR"


def test_a_folder_open_to_others_or_a_link_is_trusted_by_neither_side(
    runtime: dict[str, str], tmp_path: Path
) -> None:
    """/tmp/siftui-<uid> (the folder without XDG_RUNTIME_DIR) is a name any user can take
    first: the bridge read any reader file there and forwarded an agent's calls to the
    URL it named, and the reader wrote its token into it. A folder that is a link, or that
    other users may enter, is now refused by both, in one line."""
    folder = runtime_folder()
    folder.parent.mkdir(parents=True)
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    done = bridge(runtime)
    said = NOT_PRIVATE.format("open to other users: mode 777")
    assert done.returncode == 1 and done.stderr.decode() == f"{folder}: {said}\n"
    # The reader's side: its own folder, made under a loose umask, is closed, then used.
    address = ReaderAddress(os.getpid(), "http://127.0.0.1:1/mcp", "t")
    path = write_reader_file(address)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.unlink()
    folder.rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    folder.symlink_to(elsewhere)
    with pytest.raises(PermissionError) as caught:
        write_reader_file(address)
    assert str(caught.value) == f"[Errno 1] {NOT_PRIVATE.format('a symbolic link')}: '{folder}'"
    assert list(elsewhere.iterdir()) == []
    done = bridge(runtime)
    expected = f"{folder}: {NOT_PRIVATE.format('a symbolic link')}\n"
    assert done.returncode == 1 and done.stderr.decode() == expected


@pytest.mark.skipif(os.getuid() != 0, reason="giving a folder to another user needs root")
def test_another_users_folder_is_trusted_by_neither_side(runtime: dict[str, str]) -> None:
    folder = runtime_folder()
    folder.mkdir(parents=True, mode=0o700)
    os.chown(folder, 4242, 4242)
    with pytest.raises(PermissionError, match="owned by user 4242; this user is 0"):
        write_reader_file(ReaderAddress(os.getpid(), "http://127.0.0.1:1/mcp", "t"))
    done = bridge(runtime)
    said = NOT_PRIVATE.format("owned by user 4242; this user is 0")
    assert done.returncode == 1 and done.stderr.decode() == f"{folder}: {said}\n"


@pytest.mark.parametrize(
    "change",
    ["readable by others", "a link", "https", "another host", "no port"],
)
def test_a_reader_file_others_could_have_made_is_no_reader(
    change: str, runtime: dict[str, str], tmp_path: Path
) -> None:
    """The file must be this user's alone and name a loopback http address: the host
    serves 127.0.0.1 only, and anything else would send an agent's calls away."""
    url = {
        "https": "https://127.0.0.1:1/mcp",
        "another host": "http://192.0.2.7:8080/mcp",
        "no port": "http://127.0.0.1/mcp",
    }.get(change, "http://127.0.0.1:1/mcp")
    path = write_reader_file(ReaderAddress(os.getpid(), url, "t"))
    if change == "readable by others":
        path.chmod(0o644)
    elif change == "a link":
        real = tmp_path / "real.json"
        real.write_bytes(path.read_bytes())
        real.chmod(0o600)
        path.unlink()
        path.symlink_to(real)
    done = bridge(runtime)
    line = "no siftui reader is running (start one with: siftui reader --root DIR)\n"
    assert done.returncode == 1 and done.stderr.decode() == line
