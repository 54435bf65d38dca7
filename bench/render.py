"""Benchmark: render() on pgfmanual.pdf (1,321 pages) over a sweep of out_cap values.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/render.py                       # 40 out_caps from 1k to 1M, 3 rounds
    python bench/render.py --caps 20 --rounds 5 --pdf /path/to/big.pdf

The document is extracted once. The first render() builds render's index of
the Doc (cached while the Doc lives); that cold call is reported on its own.
Then, for each round, every out_cap is rendered in each of the three modes in
turn: map (no options), pages (pages="100-400") and grep (grep="node"). The
median and 95th percentile of all those calls are printed per mode, next to
the time of one naive join of the whole text (what render avoids redoing).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

from siftui.core.doc import Doc
from siftui.core.render import Options, full, marker, render
from siftui.sources.extract import extract

DEFAULT_PDF = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pgfmanual.pdf"
MODES = {
    "map": Options(),
    "pages": Options(pages="100-400"),
    "grep": Options(grep="node"),
}


def caps(count: int, low: int = 1_000, high: int = 1_000_000) -> list[int]:
    """``count`` log-spaced whole numbers from ``low`` to ``high``."""
    step = math.log(high / low) / (count - 1)
    return [round(low * math.exp(step * i)) for i in range(count)]


def naive_full(doc: Doc) -> str:
    return "\n\n".join(
        marker(number) + "\n\n" + text.strip() for number, text in enumerate(doc.pages, 1)
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--caps", type=int, default=40, help="out_cap values (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="sweeps per mode (default 3)")
    args = parser.parse_args()
    if not args.pdf.is_file():
        print(f"no such file: {args.pdf}", file=sys.stderr)
        return 1

    start = time.perf_counter()
    doc = extract(args.pdf)
    extracted = time.perf_counter() - start
    print(f"{args.pdf.name}: {doc.page_count} pages, extracted in {extracted:.2f} s")

    start = time.perf_counter()
    text = naive_full(doc)
    naive = time.perf_counter() - start
    print(f"full text: {len(text):,} characters; one naive full() join: {ms(naive)}")

    start = time.perf_counter()  # before anything else builds (and caches) the index
    render(doc, Options())
    print(f"first render() (builds the index):           {ms(time.perf_counter() - start)}")
    start = time.perf_counter()
    assert full(doc) == text
    print(f"siftui.core.render.full() after it:               {ms(time.perf_counter() - start)}")

    sweep = caps(args.caps)
    samples: dict[str, list[float]] = {mode: [] for mode in MODES}
    sizes: dict[str, int] = {mode: 0 for mode in MODES}
    for _ in range(args.rounds):
        for cap in sweep:
            for mode, options in MODES.items():
                opt = Options(pages=options.pages, grep=options.grep, out_cap=cap)
                start = time.perf_counter()
                answer = render(doc, opt)
                samples[mode].append(time.perf_counter() - start)
                assert len(answer.content) <= cap
                sizes[mode] = max(sizes[mode], len(answer.content))

    print(
        f"{len(sweep)} out_caps {sweep[0]:,}..{sweep[-1]:,} x {args.rounds} rounds"
        f" = {len(sweep) * args.rounds} calls per mode"
    )
    print(f"{'mode':6} {'median':>12} {'p95':>12} {'max':>12} {'largest answer':>16}")
    for mode, values in samples.items():
        print(
            f"{mode:6} {ms(statistics.median(values))} {ms(percentile(values, 0.95))}"
            f" {ms(max(values))} {sizes[mode]:>16,}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
