# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Benchmark: inspecting a document for hidden text against extracting it.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/hidden.py                    # pgfmanual.pdf, one round
    python bench/hidden.py --rounds 3 --pdf some/other.pdf
    python bench/hidden.py --rounds 0 --stages 4   # where one process spends its time


Each round times, in turn, siftui's extract() (the contract's extraction,
parallel from 256 pages on) and inspect_document() (hidden text, parallel in
the same way), both with their defaults and without the disk cache, the
document opened anew each time. It prints both times, their ratio (target: at
most 3) and the load average, which matters on a shared 2-core machine.
With ``--stages N``, every N-th page is also inspected in this process alone,
stage by stage (the run of the page giving its text trace and painted
objects, the classification of its spans, the plain-rectangle check, the
render), and the time of each stage per page is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from common import CORPUS, load, seconds

from siftui.core.findings import summary
from siftui.sources.extract import extract
from siftui.sources.hidden.document import inspect_document


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=CORPUS / "pgfmanual.pdf")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="default: the usable cores")
    parser.add_argument("--stages", type=int, default=0, help="time the stages on every N-th page")
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
    if args.rounds > 0:
        extract_median = statistics.median(extracting)
        inspect_median = statistics.median(inspecting)
        print(f"{args.pdf.name}: findings {found}")
        print(
            f"median of {args.rounds}: extract {extract_median:.2f} s, inspect "
            f"{inspect_median:.2f} s, ratio {inspect_median / extract_median:.2f} "
            f"(target <= 3.00); load after: {load()}"
        )
    if args.stages > 0:
        stages(args.pdf, args.stages)
    return 0


def stages(pdf: Path, step: int) -> None:
    """Per-page time of each stage of hidden.detect.inspect_page, on every step-th page."""
    import gc

    import pymupdf

    from siftui.sources.hidden.detect import _classify, _page_bound, _pieces
    from siftui.sources.hidden.looks import render_check
    from siftui.sources.hidden.paint import Paints, paint_log
    from siftui.sources.hidden.plain import PlainCheck

    times = dict.fromkeys(("page run", "classify", "plain check", "render"), 0.0)
    drawn = 0
    with pymupdf.open(pdf) as document:
        numbers = range(0, document.page_count, step)
        for number in numbers:  # fonts and resources loaded before timing
            document[number].get_text()
        gc.disable()
        print(f"load before: {load()}", flush=True)
        for number in numbers:
            page = document[number]
            bound = _page_bound(page)
            start = time.perf_counter()
            painted = paint_log(page)
            after_run = time.perf_counter()
            pieces = [piece for span in painted.spans for piece in _pieces(span, bound)]
            paints = Paints(painted, bound)
            to_draw = [piece for piece in pieces if not _classify(piece, paints)]
            after_classify = time.perf_counter()
            plain = PlainCheck(paints, painted.spans, bound)
            to_draw = [piece for piece in to_draw if not plain.seen(piece)]
            after_plain = time.perf_counter()
            if to_draw:
                drawn += 1
                render_check(page, to_draw, bound)
            end = time.perf_counter()
            times["page run"] += after_run - start
            times["classify"] += after_classify - after_run
            times["plain check"] += after_plain - after_classify
            times["render"] += end - after_plain
        gc.enable()
    count = len(numbers)
    total = sum(times.values())
    print(
        f"{count} pages (every {step}), one process: {total / count * 1000:.2f} ms/page; "
        + ", ".join(f"{name} {value / count * 1000:.2f}" for name, value in times.items())
        + f"; drawn: {drawn} pages ({drawn / count:.0%}); load after: {load()}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
