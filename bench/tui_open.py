"""Time to first content: `siftui FILE` in a real terminal against cold `siftui render FILE`.

    python bench/tui_open.py [PDF] [--runs N]

Side by side, alternating, each run with its own empty cache ($XDG_CACHE_HOME
in a fresh temporary directory):

- CLI: the wall time of `python -m siftui render FILE` (output thrown away);
- TUI: `python -m siftui FILE` started in a private tmux server, and the time
  from starting it until the screen shows the answer (the view's title
  "what the agent receives · ..." and a page marker or the map's title).

Prints each pair, the medians and their ratio TUI / CLI (target: <= 1.1), and
the machine's load. Run by hand; needs tmux.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from common import CORPUS, command_seconds, load

POLL = 0.02


def environment(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "TMUX_PANE", "COLUMNS", "LINES"):
        env.pop(name, None)
    env["XDG_CACHE_HOME"] = str(cache)
    env["TERM"] = "xterm-256color"
    return env


def cli_seconds(path: Path) -> float:
    with tempfile.TemporaryDirectory() as cache:
        command = [sys.executable, "-m", "siftui", "render", str(path)]
        return command_seconds(command, environment(Path(cache)))


def tui_seconds(path: Path, timeout: float = 120) -> float:
    """From starting the app in tmux until the first answer is on the screen."""
    socket = f"siftui-bench-{uuid.uuid4().hex[:10]}"
    with tempfile.TemporaryDirectory() as cache:
        env = environment(Path(cache))

        def tmux(*args: str) -> str:
            done = subprocess.run(
                ["tmux", "-L", socket, "-f", "/dev/null", *args],
                capture_output=True,
                env=env,
                check=False,
            )
            return done.stdout.decode("utf-8", "replace")

        start = time.perf_counter()
        tmux(
            *("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40"),
            *(sys.executable, "-m", "siftui", str(path)),
        )
        try:
            while True:
                screen = tmux("capture-pane", "-p", "-t", "bench")
                if "what the agent receives ·" in screen and (
                    "--- page " in screen or "\n│ # " in screen
                ):
                    return time.perf_counter() - start
                if time.perf_counter() - start > timeout:
                    raise TimeoutError(f"no answer on screen after {timeout:.0f} s:\n{screen}")
                time.sleep(POLL)
        finally:
            tmux("kill-server")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", default=str(CORPUS / "pgfmanual.pdf"))
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    path = Path(args.pdf)
    print(f"{path.name}: time to first content, empty cache each run (load {load()})")
    cli, tui = [], []
    for run in range(1, args.runs + 1):
        cli.append(cli_seconds(path))
        tui.append(tui_seconds(path))
        print(f"  run {run}: siftui render {cli[-1]:6.2f} s   siftui (TUI) {tui[-1]:6.2f} s")
    cli_median, tui_median = statistics.median(cli), statistics.median(tui)
    print(
        f"median: render {cli_median:.2f} s, TUI first content {tui_median:.2f} s; "
        f"ratio TUI / CLI {tui_median / cli_median:.2f}x (target <= 1.1x); load {load()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
