"""Where the warm start of `siftui FILE` spends its time, phase by phase, against a bare
Textual app.

    python bench/tui_open_phases.py [PDF] [--runs N] [--tree DIR]

bench/tui_open.py says how much later than a bare Textual app the first content is on
screen; this says where that difference goes. Each process runs as the stopwatch's do
(its own tmux server, 120x40, a warm cache, bytecode already compiled), with its own
clock on a few functions of Python's and Textual's, each phase's time its own
(a phase inside another is taken off the outer one):

- modules: executing the bodies of siftui's modules, and of every other module
  (Textual, Rich, the standard library) as each is first imported;
- dataclasses: making the classes of ``@dataclass`` (siftui's, others'), which
  compiles their methods;
- compose: building the widgets (each ``compose()``);
- css parse, css apply: Textual reading the stylesheets, and styling each widget
  as it is mounted or its classes change;
- mount: the rest of mounting a widget (Textual's ``App._register``);
- layout, paint: Textual's arrangement of the screen and the drawing of its lines;

until the first frame that shows what is asked (the bare app's text; siftui's answer,
as in bench/tui_open.py). Prints the median of each phase over the runs for the bare app
and for siftui, the difference, and the first frame's time (from the driver's start,
after the interpreter's own start-up); the clock's own cost is in both.

Then a few moments: when Textual's ``App.run`` is called (everything before it is
imports and the app's construction), in the bare app, in siftui, and in siftui with
its preload thread turned off (the thread that opens the document and answers its
first call while Textual is imported: without it the app's loader does both in its
worker, after the first frame, so only this moment is compared); and when that thread
starts and ends, and its own CPU time. Its Python work takes turns with the imports
for the interpreter's lock: the difference between the last two columns of "app runs"
is what the head start costs the imports. Run by hand; needs tmux.
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

from common import CORPUS, add_tree_option, command_seconds, load, trees
from tui_open import BARE_APP, environment, private_tmux

DRIVER = r'''
import dataclasses, functools, importlib.abc, json, os, sys, time

START = time.perf_counter()
OUT, MARK = sys.argv[1], sys.argv[2]
spent = {}
inside = []


def timed(label, function):
    """``function``, its time (less that of timed calls inside it) added to ``label``."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        inside.append(0.0)
        begin = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            total = time.perf_counter() - begin
            label_now = label(*args) if callable(label) else label
            spent[label_now] = spent.get(label_now, 0.0) + total - inside.pop()
            if inside:
                inside[-1] += total

    return call


def at(label):
    """The moment ``label`` first happens, from the driver's start."""
    spent.setdefault(label, time.perf_counter() - START)


def whose(name):
    return "siftui" if name.startswith("siftui") else "others'"


dataclasses._process_class = timed(
    lambda cls, *rest: f"dataclasses ({whose(cls.__module__)})", dataclasses._process_class
)


def first_frame(driver):
    written = driver.LinuxDriver.write

    def write(self, data):
        written(self, data)
        if MARK in data:
            self.flush()
            spent["first frame"] = time.perf_counter() - START
            with open(OUT, "w") as out:
                json.dump({label: seconds * 1000 for label, seconds in spent.items()}, out)
            os._exit(0)

    driver.LinuxDriver.write = write


def clock(name, module):
    if name == "textual.css.stylesheet":
        sheet = module.Stylesheet
        sheet.parse = timed("css parse", sheet.parse)
        sheet.apply = timed("css apply", sheet.apply)
    elif name == "textual.app":
        module.App._register = timed("mount", module.App._register)
        module.compose = timed("compose", module.compose)
        run = module.App.run

        def run_app(self, *args, **kwargs):
            at("app runs")
            return run(self, *args, **kwargs)

        module.App.run = run_app
    elif name == "siftui.tui.preload":
        load = module.Preload._run

        def preload(self):
            at("preload starts")
            cpu = time.thread_time()
            load(self)
            spent["preload's CPU"] = time.thread_time() - cpu
            at("preload ends")

        module.Preload._run = preload
    elif name == "textual.widget":
        module.compose = timed("compose", module.compose)
    elif name == "textual._compositor":
        module.Compositor.reflow = timed("layout", module.Compositor.reflow)
        module.Compositor.render_update = timed("paint", module.Compositor.render_update)
    elif name == "textual.drivers.linux_driver":
        first_frame(module)


class Clocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = timed(f"modules ({whose(name)})", loader.exec_module)

        def exec_module(module, run=run, name=name):
            run(module)
            clock(name, module)

        loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, Clocked())
BODY = sys.argv[3]
if BODY.startswith("siftui"):
    if BODY == "siftui without preload":  # the app's loader reads the cache in its worker
        import siftui.tui.preload

        siftui.tui.preload.start = lambda path, password: None
    from siftui.cli import main

    main([sys.argv[4]])
else:
    exec(compile(open(BODY).read(), BODY, "exec"))
'''

PHASES = (
    "modules (siftui)",
    "modules (others')",
    "dataclasses (siftui)",
    "dataclasses (others')",
    "compose",
    "css parse",
    "css apply",
    "mount",
    "layout",
    "paint",
    "first frame",
)

MOMENTS = ("app runs", "preload starts", "preload ends", "preload's CPU")
"""When Textual's ``App.run`` is called, and siftui's preload thread (opening the document
and answering its first call while Textual starts): when it starts and ends, its own CPU."""


def phases(command: list[str], env: dict[str, str], out: Path, timeout: float) -> dict[str, float]:
    """Run ``command`` (the driver) in a private tmux until it has written ``out``."""
    out.unlink(missing_ok=True)
    tmux = private_tmux(env)
    tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", *command)
    start = time.monotonic()
    try:
        while not out.exists() or not out.read_text(encoding="utf-8"):
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"no first frame after {timeout:.0f} s: {command}")
            time.sleep(0.05)
        time.sleep(0.05)  # written whole: the driver exits right after
        found: dict[str, float] = json.loads(out.read_text(encoding="utf-8"))
        return found
    finally:
        tmux("kill-server")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", default=str(CORPUS / "pgfmanual.pdf"))
    parser.add_argument("--runs", type=int, default=5)
    add_tree_option(parser)
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    path = Path(args.pdf).resolve()
    checkouts = trees(args)
    if len(checkouts) > 1:  # each tree against the bare app: run it once per tree
        parser.error("one --tree: its phases are set against the bare app's")
    tree = checkouts[0]
    print(f"{path.name}: the warm start's phases, in ms (load {load()})")
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        os.chdir(scratch)  # `python -m` and a script put their folder first on sys.path
        driver, bare = scratch / "driver.py", scratch / "bare.py"
        driver.write_text(DRIVER, encoding="utf-8")
        bare.write_text(BARE_APP, encoding="utf-8")
        env = environment(tree, scratch / "cache")
        command_seconds([sys.executable, "-m", "siftui", "render", str(path)], env)  # warm
        commands = {
            "bare": [
                sys.executable,
                str(driver),
                str(scratch / "out"),
                "bare app ready",
                str(bare),
            ],
            "siftui": [
                *(sys.executable, str(driver), str(scratch / "out")),
                *("what the agent receives ·", "siftui", str(path)),
            ],
            "without preload": [
                *(sys.executable, str(driver), str(scratch / "out")),
                *("what the agent receives ·", "siftui without preload", str(path)),
            ],
        }
        for command in commands.values():  # untimed: each module's bytecode is written
            phases(command, env, scratch / "out", args.timeout)
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                runs[name].append(phases(command, env, scratch / "out", args.timeout))
    median = {
        name: {
            phase: statistics.median(run.get(phase, 0.0) for run in found)
            for phase in (*PHASES, *MOMENTS)
        }
        for name, found in runs.items()
    }
    print(f"{'phase':24} {'bare':>7} {'siftui':>7} {'more':>7}")
    for phase in PHASES:
        bare_ms, siftui_ms = median["bare"][phase], median["siftui"][phase]
        print(f"{phase:24} {bare_ms:7.1f} {siftui_ms:7.1f} {siftui_ms - bare_ms:+7.1f}")
    print(f"\n{'moment':24} {'bare':>7} {'siftui':>7} {'without preload':>16}")
    bare_ms, siftui_ms, without_ms = (median[name]["app runs"] for name in commands)
    print(f"{'app runs':24} {bare_ms:7.1f} {siftui_ms:7.1f} {without_ms:16.1f}")
    for moment in MOMENTS[1:]:  # siftui's preload thread's
        print(f"{moment:24} {'':7} {median['siftui'][moment]:7.1f}")
    print(f"{args.runs} runs of each, alternating; load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
