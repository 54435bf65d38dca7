# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Benchmark: inspecting a document for hidden text against extracting it.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/hidden.py                    # pgfmanual.pdf and issue12963.pdf, one round
    python bench/hidden.py --rounds 3 --pdf some/other.pdf
    python bench/hidden.py --rounds 0 --stages 4   # where one process spends its time


Each round times, per file, siftui's extract() (the contract's extraction,
parallel from 256 pages on) and inspect_document() (hidden text, parallel in
the same way), both with their defaults and without the disk cache, the
document opened anew each time; then the whole commands, ``siftui render
--no-cache FILE`` and ``siftui inspect --no-cache FILE``, as a user runs them
(for a short file the process's start counts). It prints the times, both
ratios (target: at most 3, per file) and the load average, which matters on
a shared 2-core machine.
With ``--stages N``, every N-th page is also inspected in this process alone,
stage by stage (the run of the page giving its text trace and painted
objects, the classification of its spans, the plain-rectangle check, the
render), and the time of each stage per page is printed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import CORPUS, command_seconds, load, seconds

from siftui.core.findings import summary
from siftui.sources.extract import extract_report
from siftui.sources.hidden.document import inspect_document
from siftui.sources.load_options import LoadOptions

FILES = [CORPUS / "pgfmanual.pdf", CORPUS.parent / "corpus-hidden-text" / "issue12963.pdf"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pdf",
        type=Path,
        action="append",
        help="default: " + ", ".join(path.name for path in FILES),
    )
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="default: the usable cores")
    parser.add_argument("--stages", type=int, default=0, help="time the stages on every N-th page")
    args = parser.parse_args()
    files = args.pdf or FILES
    for pdf in files:
        if not pdf.is_file():
            print(f"no such file: {pdf}", file=sys.stderr)
            return 1
    for pdf in files:
        one_file(pdf, args.rounds, args.workers)
        if args.stages > 0:
            stages(pdf, args.stages)
    return 0


def one_file(pdf: Path, rounds: int, workers: int | None) -> None:
    extracting: list[float] = []
    inspecting: list[float] = []
    rendering: list[float] = []
    commands: list[float] = []
    found: dict[str, int] = {}
    apart = 0
    siftui = [sys.executable, "-m", "siftui"]
    for _ in range(rounds):
        print(f"{pdf.name}: load before: {load()}", flush=True)
        extracting.append(seconds(lambda: extract_report(pdf, LoadOptions(workers=workers)).doc))
        start = time.perf_counter()
        inspection = inspect_document(pdf, LoadOptions(workers=workers))
        inspecting.append(time.perf_counter() - start)
        found, apart = summary(inspection.findings), len(inspection.unextracted)
        rendering.append(command_seconds([*siftui, "render", "--no-cache", str(pdf)]))
        # siftui inspect exits 3 when it finds hidden text: not a failure here.
        commands.append(
            seconds(
                lambda: subprocess.run(
                    [*siftui, "inspect", "--no-cache", str(pdf)], stdout=subprocess.DEVNULL
                )
            )
        )
        print(
            f"extract {extracting[-1]:.2f} s, inspect {inspecting[-1]:.2f} s, "
            f"ratio {inspecting[-1] / extracting[-1]:.2f}; siftui render {rendering[-1]:.2f} s, "
            f"siftui inspect {commands[-1]:.2f} s, ratio {commands[-1] / rendering[-1]:.2f}",
            flush=True,
        )
    if rounds > 0:
        extract_median = statistics.median(extracting)
        inspect_median = statistics.median(inspecting)
        render_median = statistics.median(rendering)
        command_median = statistics.median(commands)
        print(f"{pdf.name}: findings {found}, not extracted {apart}")
        print(
            f"{pdf.name}: median of {rounds}: extract {extract_median:.2f} s, inspect "
            f"{inspect_median:.2f} s, ratio {inspect_median / extract_median:.2f}; siftui render "
            f"{render_median:.2f} s, siftui inspect {command_median:.2f} s, ratio "
            f"{command_median / render_median:.2f} (target <= 3.00); load after: {load()}"
        )


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
