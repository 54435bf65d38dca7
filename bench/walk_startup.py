# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial)
"""Benchmark: whole-process `siftui walk ONE-PAGE.pdf` against `siftui render` on it.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/walk_startup.py               # a one-page PDF made here, 7 rounds
    python bench/walk_startup.py --reps 11 --pdf some/one-page.pdf
    python bench/walk_startup.py --walk-args --tokens   # walk with real token counts

Each round starts fresh processes (cold interpreters) of, in turn,
`python -m siftui render PDF` and `python -m siftui walk PDF [WALK-ARGS]`,
both with the same warm extraction cache in a temporary XDG_CACHE_HOME, so
what differs is what each command loads before it prints. Prints the medians
and walk/render (target <= 2). The PDF is one page of text written with
PyMuPDF unless --pdf names one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from common import command_seconds, load


def _one_page_pdf(where: Path) -> Path:
    import pymupdf

    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 72), "One page of text.\n" * 20, fontname="helv", fontsize=11)
    path = where / "one-page.pdf"
    document.save(path)
    document.close()
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=None, help="a one-page PDF (default: made)")
    parser.add_argument("--reps", type=int, default=7, help="rounds (default 7)")
    parser.add_argument(
        "--walk-args", nargs=argparse.REMAINDER, default=[], help="extra arguments of walk"
    )
    args = parser.parse_args()
    print(f"load {load()}")
    with tempfile.TemporaryDirectory() as home:
        pdf = args.pdf if args.pdf is not None else _one_page_pdf(Path(home))
        if not pdf.is_file():
            print(f"no file at {pdf}", file=sys.stderr)
            return 1
        environment = {**os.environ, "XDG_CACHE_HOME": home}
        commands = {
            "siftui render": [sys.executable, "-m", "siftui", "render", str(pdf)],
            "siftui walk": [sys.executable, "-m", "siftui", "walk", str(pdf), *args.walk_args],
        }
        for command in commands.values():
            command_seconds(command, environment)  # warms the cache (and the disk)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.reps):
            for name, command in commands.items():
                times[name].append(command_seconds(command, environment))
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, value in median.items():
        spread = f"{min(times[name]):.3f}-{max(times[name]):.3f}"
        print(f"{name:14} median {value:.3f} s (range {spread} s, {args.reps} runs)")
    ratio = median["siftui walk"] / median["siftui render"]
    print(f"walk / render {ratio:.2f} (target <= 2)")
    print(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
