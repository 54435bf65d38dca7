# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Benchmark: siftui's extract() against a bare PyMuPDF loop and Poppler's pdftotext.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/extract.py                 # every corpus file, 5 repetitions
    python bench/extract.py --reps 9 --slow-reps 3 --corpus /path/to/corpus

For each file the three methods run in turn (extract, bare, pdftotext; then
again, ...), so a change in machine load hits all three alike. Each method
opens the file anew on every repetition. A file whose first extract() takes
longer than --slow-seconds gets --slow-reps repetitions instead of --reps.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

from siftui.sources.extract import extract

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PASSWORDS = {"libreoffice-writer-password.pdf": "openpassword"}


def bare(path: Path, password: str | None) -> int:
    """What an agent's tool does: open, get_text() of every page, close."""
    with pymupdf.open(path) as document:
        if password is not None:
            document.authenticate(password)
        return sum(len(page.get_text()) for page in document)


def siftui_extract(path: Path, password: str | None) -> int:
    return sum(len(page) for page in extract(path, password=password).pages)


def pdftotext(path: Path, password: str | None) -> int:
    command = ["pdftotext", "-q", "-enc", "UTF-8"]
    if password is not None:
        command += ["-upw", password]
    subprocess.run([*command, str(path), os.devnull], check=True)
    return 0


Method = Callable[[Path, str | None], int]


def timed(method: Method, path: Path, password: str | None) -> float:
    start = time.perf_counter()
    method(path, password)
    return time.perf_counter() - start


def corpus_files(corpus: Path) -> list[Path]:
    manifest = corpus / "MANIFEST.tsv"
    if manifest.is_file():
        with open(manifest, encoding="utf-8", newline="") as handle:
            return [corpus / row["file"] for row in csv.DictReader(handle, delimiter="\t")]
    return sorted(path for path in corpus.iterdir() if path.suffix.lower() == ".pdf")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--reps", type=int, default=5, help="repetitions per file (default 5)")
    parser.add_argument(
        "--slow-reps", type=int, default=3, help="repetitions for a slow file (default 3)"
    )
    parser.add_argument(
        "--slow-seconds",
        type=float,
        default=2.0,
        help="a file whose first extract() takes longer is slow (default 2.0)",
    )
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 1
    has_pdftotext = shutil.which("pdftotext") is not None
    methods: list[tuple[str, Method]] = [("extract", siftui_extract), ("bare", bare)]
    if has_pdftotext:
        methods.append(("pdftotext", pdftotext))
    else:
        print("pdftotext not found: its column is left out", file=sys.stderr)

    print(f"PyMuPDF {pymupdf.VersionBind}, Python {sys.version.split()[0]}, load {_load()}")
    header = f"{'file':34} {'pages':>5} {'reps':>4} {'extract':>9} {'bare':>9}"
    header += f" {'pdftotext':>9} {'ext/bare':>8} {'ext/p2t':>8}"
    print(header)
    ratios_bare: list[float] = []
    ratios_p2t: list[float] = []
    for path in corpus_files(args.corpus):
        password = PASSWORDS.get(path.name)
        with pymupdf.open(path) as document:
            if password is not None:
                document.authenticate(password)
            pages = document.page_count
        times: dict[str, list[float]] = {name: [] for name, _ in methods}
        reps = args.reps
        rep = 0
        while rep < reps:
            for name, method in methods:
                times[name].append(timed(method, path, password))
            if rep == 0 and times["extract"][0] > args.slow_seconds:
                reps = min(reps, args.slow_reps)
            rep += 1
        median = {name: statistics.median(values) for name, values in times.items()}
        ratio_bare = median["extract"] / median["bare"]
        ratios_bare.append(ratio_bare)
        line = f"{path.name:34} {pages:5d} {reps:4d} {median['extract']:8.3f}s"
        line += f" {median['bare']:8.3f}s"
        if has_pdftotext:
            ratio_p2t = median["extract"] / median["pdftotext"]
            ratios_p2t.append(ratio_p2t)
            line += f" {median['pdftotext']:8.3f}s {ratio_bare:8.2f} {ratio_p2t:8.2f}"
        else:
            line += f" {'-':>9} {ratio_bare:8.2f} {'-':>8}"
        print(line, flush=True)
    summary = f"geometric mean of ratios: extract/bare {statistics.geometric_mean(ratios_bare):.2f}"
    if ratios_p2t:
        summary += f", extract/pdftotext {statistics.geometric_mean(ratios_p2t):.2f}"
    print(summary)
    return 0


def _load() -> str:
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


if __name__ == "__main__":
    raise SystemExit(main())
