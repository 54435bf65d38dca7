"""Benchmark: whole-process `siftui render pgfmanual.pdf`, cold cache against warm.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/cache.py                # 3 rounds
    python bench/cache.py --reps 5 --pdf some/big.pdf

Each round runs, in turn, `python -m siftui render PDF > /dev/null` with an
empty cache directory (cold: extraction, then the entry is written) and with
a cache directory that holds the entry (warm). XDG_CACHE_HOME points at
temporary directories: the real cache is never touched. Prints the medians
and warm/cold (target <= 0.25).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import load

DEFAULT_PDF = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pgfmanual.pdf"


def run(pdf: Path, cache_home: str) -> float:
    environment = {**os.environ, "XDG_CACHE_HOME": cache_home}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "siftui", "render", str(pdf)],
        stdout=subprocess.DEVNULL,
        env=environment,
        check=True,
    )
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--reps", type=int, default=3, help="rounds (default 3)")
    args = parser.parse_args()
    if not args.pdf.is_file():
        print(f"no file at {args.pdf}", file=sys.stderr)
        return 1
    print(f"siftui render {args.pdf.name} > /dev/null, load {load()}")
    cold: list[float] = []
    warm: list[float] = []
    with tempfile.TemporaryDirectory() as warm_home:
        run(args.pdf, warm_home)  # fills the warm cache
        for _ in range(args.reps):
            with tempfile.TemporaryDirectory() as cold_home:
                cold.append(run(args.pdf, cold_home))
            warm.append(run(args.pdf, warm_home))
    for name, values in (("cold", cold), ("warm", warm)):
        shown = " ".join(f"{value:.2f}" for value in values)
        print(f"{name} median {statistics.median(values):.3f} s  ({shown})")
    print(f"warm/cold {statistics.median(warm) / statistics.median(cold):.2f} (target <= 0.25)")
    print(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
