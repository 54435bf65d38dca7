"""Benchmark: a cold `siftui render pgfmanual.pdf --pages 10-12` against a bare PyMuPDF read.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/cold_range.py                 # pgfmanual.pdf, pages 10-12, best of 5
    python bench/cold_range.py --reps 3 --pages 500-502 --pdf some/big.pdf

Each round runs, in turn, a bare `python -c` that opens the file with PyMuPDF
and reads the range's pages' `get_text()`, and `python -m siftui render PDF
--pages A-B > /dev/null` with a fresh, empty XDG_CACHE_HOME (cold: no cache
entry). Prints the best time of each and siftui/bare (target <= 2). The
siftui under test is the one on PYTHONPATH (run with PYTHONPATH=/path/to/tree
to measure another checkout).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import CORPUS, load, seconds

DEFAULT_PDF = CORPUS / "pgfmanual.pdf"

BARE = (
    "import sys, pymupdf\n"
    "document = pymupdf.open(sys.argv[1])\n"
    "first, last = int(sys.argv[2]), int(sys.argv[3])\n"
    "texts = [document[n - 1].get_text() for n in range(first, last + 1)]\n"
    "sys.stdout.write(''.join(texts))\n"
)


def _run(command: list[str], where: str, environment: dict[str, str]) -> float:
    """Wall time of a whole process run in ``where``: `python -m` puts its working
    directory first on sys.path, so a checkout's own folder would win over PYTHONPATH."""
    return seconds(
        lambda: subprocess.run(
            command, stdout=subprocess.DEVNULL, cwd=where, env=environment, check=True
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--pages", default="10-12", help='the range, "a-b" (default 10-12)')
    parser.add_argument("--reps", type=int, default=5, help="rounds; the best is kept (default 5)")
    args = parser.parse_args()
    if not args.pdf.is_file():
        print(f"no file at {args.pdf}", file=sys.stderr)
        return 1
    first, _, last = args.pages.partition("-")
    bare = [sys.executable, "-c", BARE, str(args.pdf), first, last or first]
    render = [sys.executable, "-m", "siftui", "render", str(args.pdf), "--pages", args.pages]
    print(f"cold siftui render {args.pdf.name} --pages {args.pages} vs bare PyMuPDF, load {load()}")
    times: dict[str, list[float]] = {"bare pymupdf": [], "siftui render": []}
    for _ in range(args.reps):
        with tempfile.TemporaryDirectory() as home:  # a fresh cache: every run is cold
            environment = {**os.environ, "XDG_CACHE_HOME": home}
            times["bare pymupdf"].append(_run(bare, home, environment))
            times["siftui render"].append(_run(render, home, environment))
    fastest = {name: min(values) for name, values in times.items()}
    for name, value in fastest.items():
        print(f"{name:14} best of {args.reps} {value:.3f} s")
    ratio = fastest["siftui render"] / fastest["bare pymupdf"]
    print(f"siftui render / bare pymupdf {ratio:.2f} (target <= 2)")
    print(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
