"""Benchmark: whole-process `siftui render SMALL.pdf` (warm cache) against `import pymupdf`.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/startup.py              # ksp-thesis.pdf (8 pages), 10 rounds
    python bench/startup.py --reps 20 --pdf some/small.pdf

Each round runs, in turn, `python -c "import pymupdf"` and
`python -m siftui render PDF > /dev/null` with a warm cache in a temporary
XDG_CACHE_HOME. Prints the medians and siftui/import (target <= 1.3). See
what the command imports with `python -X importtime -m siftui render PDF`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from common import CORPUS, command_seconds, load

DEFAULT_PDF = CORPUS / "ksp-thesis.pdf"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--reps", type=int, default=10, help="rounds (default 10)")
    args = parser.parse_args()
    if not args.pdf.is_file():
        print(f"no file at {args.pdf}", file=sys.stderr)
        return 1
    print(f"siftui render {args.pdf.name} (warm cache) vs import pymupdf, load {load()}")
    render = [sys.executable, "-m", "siftui", "render", str(args.pdf)]
    importing = [sys.executable, "-c", "import pymupdf"]
    times: dict[str, list[float]] = {"import pymupdf": [], "siftui render": []}
    with tempfile.TemporaryDirectory() as home:
        environment = {**os.environ, "XDG_CACHE_HOME": home}
        command_seconds(render, environment)  # warms the cache
        for _ in range(args.reps):
            times["import pymupdf"].append(command_seconds(importing, environment))
            times["siftui render"].append(command_seconds(render, environment))
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, value in median.items():
        print(f"{name:14} median {value:.3f} s")
    ratio = median["siftui render"] / median["import pymupdf"]
    print(f"siftui render / import pymupdf {ratio:.2f} (target <= 1.3)")
    print(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
