"""Benchmark: the Word projection of one document against a bare lxml parse of its XML.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/docx_projection.py                        # bug65649.docx, 7 rounds
    python bench/docx_projection.py --docx FILE.docx --rounds 11
    python bench/docx_projection.py --profile 25           # and where the time goes

The document is Apache POI's ``test-data/document/bug65649.docx`` (475 KB, 12.6 MB
of word/document.xml, 731 body paragraphs in 21 tables of 13,367 cells) when it is
in ../shared/corpus-docx/, else the largest .docx there (or ``--docx``). Per round,
alternating the two in one run:

- bare: open the package with zipfile, read word/document.xml and walk every event
  of ``lxml.etree.iterparse`` over it (nothing kept but a count);
- projection: ``read_docx(path)``, the whole model every surface reads (every
  story, styles, numbering, tables, and the body's index of blocks and lines).

It prints the best and median wall time of each, their CPU time (this process's:
the machine is shared, and CPU time moves less with its load), the ratios
projection / bare (target: <= 3) and the load average before and after.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from common import load
from lxml import etree

from siftui.sources.word.read import read_docx

CORPUS_DOCX = Path(__file__).resolve().parents[2] / "shared" / "corpus-docx"
DEFAULT = "bug65649.docx"


def bare(path: Path) -> int:
    """Every event of an iterparse of word/document.xml, read from the package."""
    with zipfile.ZipFile(path) as package:
        data = package.read("word/document.xml")
    return sum(1 for _ in etree.iterparse(io.BytesIO(data)))


def projection(path: Path) -> int:
    return read_docx(path).body.count


def timed(action: Callable[[Path], int], path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    action(path)
    return time.perf_counter() - wall, time.process_time() - cpu


def document(asked: Path | None) -> Path:
    if asked is not None:
        return asked
    if (CORPUS_DOCX / DEFAULT).is_file():
        return CORPUS_DOCX / DEFAULT
    found = sorted(CORPUS_DOCX.glob("*.docx"), key=lambda path: path.stat().st_size)
    if not found:
        raise SystemExit(f"no .docx in {CORPUS_DOCX}: give one with --docx")
    print(f"({DEFAULT} is not in {CORPUS_DOCX}: the largest .docx there instead)")
    return found[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docx", type=Path, help=f"the document (default: {DEFAULT})")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--profile", type=int, metavar="N", help="print the N costliest calls")
    args = parser.parse_args(argv)
    path = document(args.docx)
    with zipfile.ZipFile(path) as package:
        size = package.getinfo("word/document.xml").file_size
    events = bare(path)
    paragraphs = projection(path)  # a first call each: imports and the disk's cache
    print(f"{path.name}: {path.stat().st_size:,} bytes, word/document.xml {size:,} bytes,")
    print(f"  {events:,} iterparse events, {paragraphs:,} body paragraphs")
    print(f"load before: {load()}")
    walls: dict[str, list[float]] = {"bare": [], "projection": []}
    cpus: dict[str, list[float]] = {"bare": [], "projection": []}
    for _ in range(args.rounds):
        for name, action in (("bare", bare), ("projection", projection)):
            wall, cpu = timed(action, path)
            walls[name].append(wall)
            cpus[name].append(cpu)
    print(f"load after:  {load()}  ({args.rounds} rounds each, alternating)")
    for name in ("bare", "projection"):
        print(
            f"{name:>10}: wall best {min(walls[name]):.3f} s, median "
            f"{statistics.median(walls[name]):.3f} s; CPU best {min(cpus[name]):.3f} s, "
            f"median {statistics.median(cpus[name]):.3f} s"
        )
    for label, figures in (("wall", walls), ("CPU", cpus)):
        best = min(figures["projection"]) / min(figures["bare"])
        median = statistics.median(figures["projection"]) / statistics.median(figures["bare"])
        print(f"projection / bare, {label}: {best:.2f}x best, {median:.2f}x median (target <= 3)")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(projection, path)
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
