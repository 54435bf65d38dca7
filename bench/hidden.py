"""Benchmark: inspecting a document for hidden text against extracting it (issue 13).

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/hidden.py                    # pgfmanual.pdf, one round
    python bench/hidden.py --rounds 3 --pdf some/other.pdf

Each round times, in turn, siftui's extract() (the contract's extraction,
parallel from 256 pages on) and inspect_document() (hidden text, parallel in
the same way), both with their defaults and without the disk cache, the
document opened anew each time. It prints both times, their ratio (target: at
most 3) and the load average, which matters on a shared 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from common import CORPUS, load, seconds

from siftui.extract import extract
from siftui.findings import summary
from siftui.hidden_doc import inspect_document


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=CORPUS / "pgfmanual.pdf")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="default: the usable cores")
    args = parser.parse_args()
    if not args.pdf.is_file():
        print(f"no such file: {args.pdf}", file=sys.stderr)
        return 1
    extracting: list[float] = []
    inspecting: list[float] = []
    found: dict[str, int] = {}
    for _ in range(args.rounds):
        print(f"load before: {load()}", flush=True)
        extracting.append(seconds(lambda: extract(args.pdf, workers=args.workers)))
        start = time.perf_counter()
        found = summary(inspect_document(args.pdf, workers=args.workers).findings)
        inspecting.append(time.perf_counter() - start)
        print(
            f"extract {extracting[-1]:.2f} s, inspect {inspecting[-1]:.2f} s, "
            f"ratio {inspecting[-1] / extracting[-1]:.2f}",
            flush=True,
        )
    extract_median, inspect_median = statistics.median(extracting), statistics.median(inspecting)
    print(f"{args.pdf.name}: findings {found}")
    print(
        f"median of {args.rounds}: extract {extract_median:.2f} s, inspect "
        f"{inspect_median:.2f} s, ratio {inspect_median / extract_median:.2f} "
        f"(target <= 3.00); load after: {load()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
