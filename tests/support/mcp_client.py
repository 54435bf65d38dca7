"""A real MCP client (the official SDK) against `python -m siftui mcp` over stdio, and
the bytes `siftui render` prints for the same calls: what the MCP tests compare."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from siftui.core.render import Options

TIMEOUT = 60

Session = Callable[[ClientSession], Awaitable[None]]


def run_server(args: Sequence[str | Path], body: Session, stderr: Path) -> None:
    """Start `python -m siftui mcp ARGS`, initialize a session, run ``body`` in it."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "siftui", "mcp", *map(str, args)]
    )

    async def main() -> None:
        with anyio.fail_after(TIMEOUT), open(stderr, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await body(session)

    anyio.run(main)
    assert "Traceback" not in stderr.read_text(), stderr.read_text()


def cli_render(calls: Sequence[tuple[Path, Options]]) -> list[bytes]:
    """The bytes `siftui render` prints for each (path, options): what to match.

    The processes run side by side; each extracts its file, as a user's would.
    """
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "siftui", "render", str(path), "--outcap", str(options.out_cap)]
            + (["--pages", options.pages] if options.pages else [])
            + (["--grep", options.grep] if options.grep else []),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for path, options in calls
    ]
    outputs = []
    for process in processes:
        stdout, stderr = process.communicate(timeout=TIMEOUT)
        assert process.returncode == 0, stderr
        outputs.append(stdout)
    return outputs


def texts(result: CallToolResult) -> list[str]:
    blocks = []
    for block in result.content:
        assert isinstance(block, TextContent)
        blocks.append(block.text)
    return blocks


def error_of(result: CallToolResult) -> str:
    assert result.is_error, result
    assert result.structured_content is None
    [message] = texts(result)
    assert "\n" not in message and message
    return message
