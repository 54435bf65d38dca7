"""`e` in the TUI against the same call through `siftui session`, on a warm cache.

    python bench/evidence_preview.py [PDF] [--rounds N] [--tree DIR ...]

Default PDF: pgfmanual.pdf from the corpus. The disk cache is warmed first
(`siftui render` and one `siftui session` call on the file). Then, alternating,
each round a fresh process of each:

- session: `python -m siftui session --root DIR` given one `pdf_open` of the file,
  timed from start to exit (what a user waits for that one result);
- e (busy): `siftui FILE` headless (Pilot, 120x40), `e` pressed as soon as the first
  answer is shown, while the app's after-work (hidden text, tokens, images, grep
  tables) runs: from the key to the refresh that paints the preview's first result;
- e (idle): the same once every worker of the app has ended.

Target: the preview's first result within 1.5x `siftui session`.
Prints each round, the medians, the ratios measured in this run and the load. Each
`--tree` is a checkout put first on PYTHONPATH (default: this one), so `--tree
../main --tree .` gives before and after in one run. Run by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from common import CORPUS, add_tree_option, load, trees


def environment(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def session_seconds(tree: Path, path: Path) -> float:
    call = json.dumps({"tool": "pdf_open", "arguments": {"path": path.name}}) + "\n"
    command = [sys.executable, "-m", "siftui", "session", "--root", str(path.parent)]
    start = time.perf_counter()
    done = subprocess.run(
        command, input=call.encode(), capture_output=True, env=environment(tree), check=True
    )
    seconds = time.perf_counter() - start
    assert done.stdout.startswith(b'{"documentId":"doc-1"'), done.stdout[:200]
    return seconds


def preview_seconds(tree: Path, path: Path, idle: bool) -> float:
    """One fresh process: the seconds from `e` to the preview's first result."""
    command = [sys.executable, __file__, str(path), "--one", "idle" if idle else "busy"]
    done = subprocess.run(command, capture_output=True, env=environment(tree), check=True)
    return float(done.stdout.decode().strip().splitlines()[-1])


async def one(path: Path, idle: bool) -> float:
    """In this process: open ``path``, press `e`, time until the first result shows."""
    from textual.widgets import TextArea

    from siftui.cli.evidence_preview import preview_factory
    from siftui.tui.evidence.screen import EvidenceScreen
    from siftui.tui.factory import create_app

    # The moment the first result is painted: noted after the refresh that draws it
    # (a poll from here can be held back by the threads that start once it is drawn).
    painted: list[float] = []
    show = EvidenceScreen._made

    def made(screen: EvidenceScreen, result: Any) -> None:
        if not painted:
            screen.call_after_refresh(lambda: painted.append(time.perf_counter()))
        show(screen, result)

    EvidenceScreen._made = made  # type: ignore[method-assign,assignment]
    app = create_app(path, evidence=preview_factory)
    async with app.run_test(size=(120, 40)) as pilot:
        while app.answer is None:
            await pilot.pause(0.005)
        while idle and app.workers:
            await pilot.pause(0.05)
        start = time.perf_counter()
        await pilot.press("e")

        def shown() -> bool:
            screen = app.screen
            if not painted or not isinstance(screen, EvidenceScreen):
                return False
            return screen.query_one("#ev-view", TextArea).text.startswith('{"documentId"')

        while not shown():
            # A plain sleep: the app runs meanwhile. pilot.pause() every 5 ms ran the
            # app's idle work each time, and held the preview's thread back by ~0.4 s.
            await asyncio.sleep(0.01)
        seconds = painted[0] - start
        app.exit()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", type=Path, default=CORPUS / "pgfmanual.pdf")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", choices=("busy", "idle"), help=argparse.SUPPRESS)
    add_tree_option(parser)
    args = parser.parse_args()
    path = args.pdf.resolve()
    if args.one:
        print(asyncio.run(one(path, args.one == "idle")))
        return
    for tree in trees(args):
        env = environment(tree)
        render = [sys.executable, "-m", "siftui", "render", str(path)]
        subprocess.run(render, stdout=subprocess.DEVNULL, env=env, check=True)
        session_seconds(tree, path)  # the evidence tools' own cache, warm too
        times: dict[str, list[float]] = {"session": [], "e (busy)": [], "e (idle)": []}
        print(f"{tree} · {path.name} · load {load()}")
        for number in range(1, args.rounds + 1):
            times["session"].append(session_seconds(tree, path))
            times["e (busy)"].append(preview_seconds(tree, path, idle=False))
            times["e (idle)"].append(preview_seconds(tree, path, idle=True))
            row = "  ".join(f"{name} {values[-1]:.2f} s" for name, values in times.items())
            print(f"  round {number}: {row}")
        medians = {name: statistics.median(values) for name, values in times.items()}
        print("  medians: " + "  ".join(f"{name} {value:.2f} s" for name, value in medians.items()))
        for name in ("e (busy)", "e (idle)"):
            ratio = medians[name] / medians["session"]
            print(f"  {name} / session = {ratio:.2f}x (target <= 1.5x)")
        print(f"  load {load()}")


if __name__ == "__main__":
    main()
