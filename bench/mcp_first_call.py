"""The first MCP call on a PDF with `--log`: when the answer comes, when the log has its findings.

    python bench/mcp_first_call.py [PDF] [--runs N] [--tree DIR ...]

Each run starts `python -m siftui mcp --root DIR --log FILE` over stdio with the
official SDK's client, an empty disk cache ($XDG_CACHE_HOME in a fresh temporary
directory), makes one `read_pdf` call on the file and times, from the call:

- answer: until the client has the answer;
- findings: until the log holds the file's hidden-text findings (in the call's
  line, or in a later line of it).

Each `--tree` is a checkout put first on PYTHONPATH (default: this one), so
`--tree ../main --tree .` gives before and after in one run, alternating. Prints
each run, the medians and the load. Run by hand; needs the mcp SDK.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from common import CORPUS, add_tree_option, load, trees
from mcp import ClientSession, StdioServerParameters, stdio_client


def findings_logged(log: Path) -> bool:
    if not log.exists():
        return False
    for line in log.read_text("utf-8").splitlines():
        hidden: Any = json.loads(line).get("hidden") if line else None
        if isinstance(hidden, dict) and hidden and hidden != {"pending": True}:
            return True
    return False


def one_run(tree: Path, path: Path, timeout: float) -> tuple[float, float]:
    """(seconds to the answer, seconds until the log has the findings), from the call."""
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "calls.jsonl"
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(scratch) / "cache")}
        env["PYTHONPATH"] = str(tree)
        args = ["-m", "siftui", "mcp", "--root", str(path.parent), "--log", str(log)]
        # The server runs from the scratch folder: `python -m` puts its working
        # directory first on sys.path, which from a checkout would beat PYTHONPATH.
        params = StdioServerParameters(command=sys.executable, args=args, env=env, cwd=scratch)
        times: list[float] = []

        async def main() -> None:
            with anyio.fail_after(timeout), open(os.devnull, "w") as errlog:
                async with (
                    stdio_client(params, errlog=errlog) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    start = time.perf_counter()
                    result = await session.call_tool("read_pdf", {"path": path.name})
                    times.append(time.perf_counter() - start)
                    if result.is_error:
                        raise SystemExit(f"the call failed: {result.content}")
                    while not findings_logged(log):
                        await anyio.sleep(0.05)
                    times.append(time.perf_counter() - start)

        anyio.run(main)
        return times[0], times[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", default=str(CORPUS / "pgfmanual.pdf"))
    parser.add_argument("--runs", type=int, default=2)
    add_tree_option(parser)
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    path = Path(args.pdf).resolve()
    checkouts = trees(args)
    print(f"{path.name}: first read_pdf call with --log, empty cache (load {load()})")
    answers: dict[Path, list[float]] = {tree: [] for tree in checkouts}
    findings: dict[Path, list[float]] = {tree: [] for tree in checkouts}
    for run in range(1, args.runs + 1):
        for tree in checkouts:
            answer, found = one_run(tree, path, args.timeout)
            answers[tree].append(answer)
            findings[tree].append(found)
            print(
                f"  run {run} {tree.name}: answer {answer:6.2f} s, findings in the log "
                f"{found:6.2f} s (load {load()})",
                flush=True,
            )
    for tree in checkouts:
        print(
            f"{tree}: median answer {statistics.median(answers[tree]):.2f} s, "
            f"findings {statistics.median(findings[tree]):.2f} s"
        )
    print(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
