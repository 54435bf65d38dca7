"""`siftui tools`: stdout is the tools/list result `siftui mcp` sends, byte for byte (the
official MCP client's tools/list over stdio, its wire bytes captured on the way); stderr
is one line with its size in bytes, code points and tokens."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from siftui.sources.tokens import token_counts

TIMEOUT = 60


def tools(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", "tools", *map(str, args)],
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )


def listed_over_stdio(args: list[str], wire: Path, stderr: Path) -> dict[str, object]:
    """The official client's tools/list of `siftui mcp ARGS`, the server's stdout copied
    to ``wire`` on its way to the client."""
    server = shlex.join([sys.executable, "-m", "siftui", "mcp", *args])
    params = StdioServerParameters(
        command="sh", args=["-c", f"{server} | tee {shlex.quote(str(wire))}"]
    )
    listed: dict[str, object] = {}

    async def main() -> None:
        with anyio.fail_after(TIMEOUT), open(stderr, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                result = await session.list_tools()
                listed.update(result.model_dump(by_alias=True, exclude_unset=True, mode="json"))

    anyio.run(main)
    return listed


def wire_result(wire: Path) -> bytes:
    """The ``result`` member of the tools/list answer, as the server wrote it."""
    for line in wire.read_bytes().splitlines():
        found = re.fullmatch(rb'\{"jsonrpc":"2\.0","id":\d+,"result":(\{"tools":.*)\}', line)
        if found is not None:
            return found.group(1)
    raise AssertionError("no tools/list answer on the wire")


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--tools", "read,evidence", "--unit", "bytes", "--outcap", "600"],
        ["--tools", "evidence", "--outcap", "20k"],
    ],
    ids=["read", "read-evidence-bytes", "evidence"],
)
def test_stdout_is_the_tools_list_result_the_server_sends(
    tmp_path: Path, options: list[str]
) -> None:
    root = tmp_path / "docs é"
    root.mkdir()
    done = tools("--root", root, *options)
    assert done.returncode == 0, done.stderr
    wire = tmp_path / "wire.jsonl"
    listed = listed_over_stdio(["--root", str(root), *options], wire, tmp_path / "err.txt")
    assert done.stdout == wire_result(wire)
    assert json.loads(done.stdout) == listed
    text = done.stdout.decode("utf-8")
    counts = token_counts(text)
    names = [tool["name"] for tool in json.loads(text)["tools"]]
    expected = " · ".join(
        [
            f"tools/list: {len(names)} tools",
            f"{len(done.stdout):,} bytes",
            f"{len(text):,} chars",
            *(f"{name} {count:,} tokens" for name, count in counts.tokens),
        ]
    )
    assert done.stderr.decode("utf-8") == expected + "\n"
    assert str(root) in text and ("600 bytes (UTF-8)" in text) == ("bytes" in options)


def test_the_default_root_is_the_current_directory(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "tools"],
        capture_output=True,
        timeout=TIMEOUT,
        check=True,
        cwd=tmp_path,
    )
    names = [tool["name"] for tool in json.loads(done.stdout)["tools"]]
    assert names == ["read_pdf", "read_docx"]
    assert f"Readable files lie under: {tmp_path}." in done.stdout.decode()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tools", "nothing"], "--tools"),
        (["--tools", "edit"], "add evidence"),
        (["--root", "/no/such/dir"], "/no/such/dir"),
        (["--outcap", "0"], "--outcap"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    done = tools(*args)
    assert done.returncode == 2 and done.stdout == b""
    [line] = done.stderr.decode().splitlines()
    assert line.startswith("siftui: error: ") and message in line
