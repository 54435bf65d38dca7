# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Benchmark: siftui's parallel extract() against the bare single-process PyMuPDF loop.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/extract_parallel.py                 # pgfmanual.pdf, 5 rounds
    python bench/extract_parallel.py --reps 9 --sweep  # and the page-count threshold
    python bench/extract_parallel.py --floor         # and what two processes can do here

Each round times, in turn, the bare loop (`[p.get_text() for p in doc]`) and
extract() with its defaults (parallel from 256 pages on); it prints the medians
and their ratio (target <= 0.65), then the CPU time of further alternating rounds:
the bare loop's, extract()'s own process's and its helpers' (what the wall ratio would
be on two free cores, where a loaded machine's wall clock cannot say). First it checks
that the parallel Doc is the single-process Doc, byte for byte. --sweep times extract()
with workers=1 and workers=2 (forced parallel) on the first N pages, to place the threshold.
--floor times, alternating with the bare loop, two processes started beforehand (PyMuPDF
imported) that are told to go at once and each open the file and read every other page:
no start, no scheduling, no sharing, so their wall time over the bare loop's is the
least any two-process extraction can reach on this machine (two processes reading at
once each read slower than one alone: memory and caches are shared).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pymupdf
from common import load, seconds

from siftui.sources.extract import extract, extract_report
from siftui.sources.load_options import PARALLEL_MIN_PAGES, LoadOptions
from siftui.sources.parallel import default_workers

DEFAULT_PDF = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pgfmanual.pdf"


def cpu_seconds(work: Callable[[], object]) -> tuple[float, float]:
    """The CPU time ``work()`` took in this process and in the helper processes it
    started and waited for (user + system)."""
    mine, children = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    work()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    theirs = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    return time.process_time() - mine, theirs


def bare(path: Path) -> None:
    with pymupdf.open(path) as document:
        [page.get_text() for page in document]


_HALF = """
import sys, time, pymupdf
path, first = sys.argv[1], int(sys.argv[2])
print("ready", flush=True)
sys.stdin.readline()
start = time.perf_counter()
with pymupdf.open(path) as document:
    [document[number].get_text() for number in range(first, document.page_count, 2)]
print(time.perf_counter() - start, flush=True)
"""


def two_halves_at_once(path: Path) -> float:
    """The wall time of two processes, PyMuPDF imported, each reading every other page
    of ``path`` (the file opened and closed in the time), told to go at the same moment."""
    halves = [
        subprocess.Popen(
            [sys.executable, "-c", _HALF, str(path), str(first)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for first in (0, 1)
    ]
    for half in halves:
        assert half.stdout is not None and half.stdout.readline().strip() == "ready"
    start = time.perf_counter()
    for half in halves:
        assert half.stdin is not None
        half.stdin.write("go\n")
        half.stdin.flush()
    for half in halves:
        assert half.stdout is not None
        float(half.stdout.readline())  # its own time: it is done
    wall = time.perf_counter() - start
    for half in halves:
        half.wait()
    return wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--reps", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--sweep", action="store_true", help="also time small page counts")
    parser.add_argument(
        "--floor", action="store_true", help="also time two processes reading half each"
    )
    args = parser.parse_args()
    if not args.pdf.is_file():
        print(f"no file at {args.pdf}", file=sys.stderr)
        return 1
    print(f"PyMuPDF {pymupdf.VersionBind}, Python {sys.version.split()[0]}")
    print(f"cores used {default_workers()}, threshold {PARALLEL_MIN_PAGES} pages, load {load()}")
    same = extract(args.pdf) == extract_report(args.pdf, LoadOptions(workers=1)).doc
    print(f"parallel Doc == single-process Doc: {same}")
    times: dict[str, list[float]] = {"bare": [], "extract": []}
    cpu: dict[str, list[float]] = {"bare": [], "this process": [], "helpers": []}
    for _ in range(args.reps):
        times["bare"].append(seconds(lambda: bare(args.pdf)))
        times["extract"].append(seconds(lambda: extract(args.pdf)))
        cpu["bare"].append(cpu_seconds(lambda: bare(args.pdf))[0])
        mine, theirs = cpu_seconds(lambda: extract(args.pdf))
        cpu["this process"].append(mine)
        cpu["helpers"].append(theirs)
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        shown = " ".join(f"{value:.2f}" for value in values)
        print(f"{name:8} median {median[name]:.3f} s  ({shown})")
    print(f"extract/bare {median['extract'] / median['bare']:.2f} (target <= 0.65)")
    # On a loaded machine the wall clock says how many cores were free more than what
    # extract() costs; the CPU times of further rounds (alternating too) say what it costs
    # each process: the busier one bounds the wall time two free cores would give.
    used = {name: statistics.median(values) for name, values in cpu.items()}
    busier = max(used["this process"], used["helpers"])
    print(
        f"CPU: bare {used['bare']:.2f} s; extract() this process {used['this process']:.2f} s,"
        f" its helpers {used['helpers']:.2f} s; the busier / bare {busier / used['bare']:.2f}"
    )
    print(f"load after: {load()}")
    if args.floor:
        floor: dict[str, list[float]] = {"bare": [], "two halves": []}
        for _ in range(args.reps):
            floor["bare"].append(seconds(lambda: bare(args.pdf)))
            floor["two halves"].append(two_halves_at_once(args.pdf))
        low = {name: statistics.median(values) for name, values in floor.items()}
        shown = " ".join(f"{value:.2f}" for value in floor["two halves"])
        print(
            f"floor: two processes reading half each at once {low['two halves']:.3f} s "
            f"({shown}), bare {low['bare']:.3f} s: {low['two halves'] / low['bare']:.2f} of "
            f"the bare loop; extract() above {median['extract'] / median['bare']:.2f}"
        )
        print(f"load after: {load()}")
    if args.sweep:
        print(f"{'pages':>5} {'1 process':>10} {'2 processes':>12} {'ratio':>6}")
        for pages in (32, 64, 96, 128, 192, 256):
            one: list[float] = []
            two: list[float] = []
            for _ in range(args.reps):
                alone = LoadOptions(max_pages=pages, workers=1)
                shared = LoadOptions(max_pages=pages, workers=2, parallel_min_pages=1)
                one.append(seconds(partial(extract_report, args.pdf, alone)))
                two.append(seconds(partial(extract_report, args.pdf, shared)))
            a, b = statistics.median(one), statistics.median(two)
            print(f"{pages:5d} {a:9.3f}s {b:11.3f}s {b / a:6.2f}", flush=True)
        print(f"load after: {load()}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
