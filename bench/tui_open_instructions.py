"""Instructions until the first frame of `siftui FILE`, warm, against a bare Textual app.

    python bench/tui_open_instructions.py [PDF] [--tree DIR ...]

bench/tui_open.py times the same thing on the wall clock, where a shared
2-core machine makes single runs differ by a third; this counts the CPU
instructions each process executes until its first frame (valgrind's callgrind,
every thread), which repeat to about 0.3% whatever else the machine does. So a
change of a few milliseconds to the start shows here when the stopwatch cannot
see it. Each process runs in its own private tmux server (120x40), as the
stopwatch's do:

- bare: the bare Textual app (Header, Static, Footer), until Textual has
  written the first frame showing its text to the terminal;
- each tree (default: this checkout): `siftui PDF` (the command line's own
  start, then the TUI's) with the document already in the disk cache, until
  Textual has written the first frame showing the answer (the view's title); the
  work that starts after the first answer is painted (siftui.tui.background) is
  left out. valgrind runs one thread at a time, so the load begun before
  Textual is imported would still be running when the app mounts, which on two
  cores it is not: the driver waits for it before going on, so the count is the
  work of the path a real start takes.

Each command runs once untimed first, so no count includes compiling a module
(the bytecode goes to bench/tui_open.py's private PYTHONPYCACHEPREFIX). Prints
each count and its ratio to the bare app's, for all threads and for the main
thread alone, and the main thread's with the other threads' instructions that
hold the interpreter's lock. That last is the one to watch: an instruction of the
file's sha256 or of zlib's inflate on another core costs the first frame nothing
(they release the lock), a Python bytecode on the main thread costs it all, and
so does one of the preload thread's, during which the main thread waits for the
lock (pgfmanual, 2026-12-03: the main thread's CPU time fell behind its wall time
by the preload's Python work, 36 ms, before that work was cut by a third). Run by
hand; needs tmux and valgrind (Debian's valgrind), about half a minute per process.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import CORPUS, add_tree_option, command_seconds, load, trees
from tui_open import BARE_APP, PYCACHE, environment, private_tmux

# Both stop once the terminal has been handed the first frame that shows what is asked
# of it (its bytes written by Textual's driver), as the stopwatch stops when tmux shows it.
STOP_AT_FRAME = """
import os
from textual.drivers import linux_driver

written = linux_driver.LinuxDriver.write

def write(self, data):
    written(self, data)
    if {mark!r} in data:
        self.flush()
        os._exit(0)

linux_driver.LinuxDriver.write = write
"""

BARE_FIRST_FRAME = STOP_AT_FRAME.format(mark="bare app ready") + BARE_APP

SIFTUI_FIRST_FRAME = (
    """
import sys
from siftui.tui import preload

started = preload.start

def start(*args):
    started(*args)  # the load starts before Textual is imported, as `siftui FILE` does
    # valgrind runs one thread at a time, so the load would still be running when the
    # app mounts, which it is not on two cores: the count follows that path.
    preload._pending._thread.join()
    from siftui.tui.app import SiftApp  # imported next by the TUI's start anyway

    SiftApp._after_work = lambda *args: None  # after the first frame: not counted
"""
    + "\n".join(
        "    " + line for line in STOP_AT_FRAME.format(mark="what the agent receives ·").split("\n")
    )
    + """

preload.start = start
from siftui.cli import main

main([sys.argv[1]])  # as `siftui FILE` starts: the command line, then the TUI
"""
)


def run_to_end(command: list[str], env: dict[str, str], timeout: float) -> None:
    """Run ``command`` in a private tmux (120x40) until it exits."""
    tmux = private_tmux(env)
    tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", *command)
    start = time.monotonic()
    try:
        while "bench" in tmux("list-sessions", "-F", "#{session_name}"):
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"{command} still running after {timeout:.0f} s")
            time.sleep(0.5)
    finally:
        tmux("kill-server")


# C functions that release the interpreter's lock while they run (hashlib's update with
# OpenSSL, zlib's inflate): another thread's instructions in them cost the main
# thread nothing on two cores. Any other instruction of another thread holds the lock,
# and the main thread, running Python, waits for it.
RELEASE_THE_LOCK = ("EVP_DigestUpdate", "inflate")


def lock_held(thread_file: Path) -> int:
    """The instructions of one thread's callgrind file that hold the interpreter's lock:
    all of them but those in :data:`RELEASE_THE_LOCK` (inclusive)."""
    text = thread_file.read_text(encoding="utf-8", errors="replace")
    found = re.search(r"^(?:summary|totals): (\d+)", text, re.MULTILINE)
    total = int(found.group(1)) if found else 0
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(thread_file)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    released = 0
    for name in RELEASE_THE_LOCK:
        line = next((line for line in annotated.splitlines() if f":{name} " in line), "")
        if line:
            released += int(line.split()[0].replace(",", ""))
    return total - released


def instructions(
    command: list[str], env: dict[str, str], out: Path, timeout: float
) -> tuple[int, int, int]:
    """The instructions ``command`` executed under callgrind: in all its threads, in its
    main thread alone, and in its other threads holding the interpreter's lock (the
    main thread waits for those). It runs once untimed first, so the count never
    includes compiling a module the process imports."""
    run_to_end(command, env, timeout)
    log = out.with_suffix(".log")
    callgrind = [
        "--tool=callgrind",
        "--separate-threads=yes",  # one file per thread: out-01 is the main thread's
        f"--callgrind-out-file={out}",
        f"--log-file={log}",
    ]
    run_to_end(["valgrind", *callgrind, *command], env, timeout)
    found = re.search(r"Collected : (\d+)", log.read_text(encoding="utf-8", errors="replace"))
    main_file = out.with_name(f"{out.name}-01")
    main = re.search(
        r"^(?:summary|totals): (\d+)",
        main_file.read_text(encoding="utf-8", errors="replace") if main_file.exists() else "",
        re.MULTILINE,
    )
    if found is None or main is None:
        raise RuntimeError(f"callgrind counted nothing: see {log}")
    others = sorted(out.parent.glob(f"{out.name}-*"), key=lambda path: path.name)
    held = sum(lock_held(path) for path in others if path != main_file)
    return int(found.group(1)), int(main.group(1)), held


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", default=str(CORPUS / "pgfmanual.pdf"))
    add_tree_option(parser)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    path = Path(args.pdf).resolve()
    checkouts = trees(args)
    print(f"{path.name}: instructions until the first frame (load {load()})")
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        os.chdir(scratch)  # `python -m`, and a script, put their folder first on sys.path
        bare, driver = scratch / "bare.py", scratch / "siftui_first_frame.py"
        bare.write_text(BARE_FIRST_FRAME, encoding="utf-8")
        driver.write_text(SIFTUI_FIRST_FRAME, encoding="utf-8")
        env = environment(checkouts[0], scratch / "bare-cache")
        bare_count, bare_main, bare_held = instructions(
            [sys.executable, str(bare)], env, scratch / "bare.out", 600
        )
        print(
            f"  bare app: {bare_count / 1e9:.3f} G instructions, "
            f"main thread {bare_main / 1e9:.3f} G, other threads holding the interpreter's "
            f"lock {bare_held / 1e9:.3f} G"
        )
        for number, tree in enumerate(checkouts):
            env = environment(tree, scratch / f"warm-{number}")
            render = [sys.executable, "-m", "siftui", "render", str(path)]
            command_seconds(render, env)  # fills the warm cache
            out = scratch / f"tree-{number}.out"
            count, main, held = instructions(
                [sys.executable, str(driver), str(path)], env, out, args.timeout
            )
            print(
                f"  {tree}: {count / 1e9:.3f} G instructions = {count / bare_count:.2f}x bare; "
                f"main thread {main / 1e9:.3f} G = {main / bare_main:.2f}x bare's "
                "(the first frame waits on the main thread; the wall-clock target of "
                "bench/tui_open.py is 1.35x); "
                f"other threads holding the interpreter's lock {held / 1e9:.3f} G, "
                f"so main + held {(main + held) / 1e9:.3f} G = "
                f"{(main + held) / (bare_main + bare_held):.2f}x bare's "
                "(the main thread waits for those too)"
            )
    print(f"bytecode cache: {PYCACHE}; load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
