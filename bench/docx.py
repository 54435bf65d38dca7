"""Benchmark: reading and answering a generated Word document, against its time targets.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/docx.py                  # 5,000 paragraphs, 200 tables, 5 rounds
    python bench/docx.py --paragraphs 20000 --tables 400 --rounds 3

The document is written once with python-docx (headings, numbered and bulleted
list items, plain paragraphs, 200 tables of 4x3 cells spread through the body).
Then, per round and taking the best round of each:

- python-docx: ``Document(path)`` and every body paragraph's ``.text``;
- siftui: ``read_docx(path)`` (the whole projection model: every story, styles,
  numbering, tables, hashes, and the body's index of blocks and lines);

and the ratio siftui / python-docx (target: <= 2). Then every answer kind is
rendered at three OutCaps: the first call on its own, then each answer with grep's memo cleared
before every call, best and median of the rounds (target: < 16 ms each).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import best  # before the bench folder leaves sys.path, just below

# This script is named docx.py, and Python puts its folder first on sys.path:
# without this, "import docx" would import the script itself, not python-docx.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import docx  # noqa: E402

from siftui.core.word.render import DocxOptions, render_docx  # noqa: E402
from siftui.sources.word.read import read_docx  # noqa: E402


def write_document(path: Path, paragraphs: int, tables: int) -> None:
    document = docx.Document()
    document.core_properties.title = "Generated benchmark document"
    every = max(1, paragraphs // max(tables, 1))
    made = 0
    for i in range(paragraphs):
        if i % 50 == 0:
            document.add_heading(f"Section {i // 50 + 1}", 1 + (i // 50) % 3)
        elif i % 7 == 0:
            document.add_paragraph(f"Numbered item {i} of the list", style="List Number")
        elif i % 11 == 0:
            document.add_paragraph(f"Bullet point {i}", style="List Bullet")
        else:
            document.add_paragraph(
                f"Paragraph {i}: the parties agree that clause {i % 97} applies to every "
                f"order placed after the effective date, unless item {i % 13} says otherwise."
            )
        if tables and made < tables and i % every == every - 1:
            table = document.add_table(rows=4, cols=3)
            for r, row in enumerate(table.rows):
                for c, cell in enumerate(row.cells):
                    cell.text = f"r{r}c{c} of table {made + 1}"
            made += 1
    document.save(str(path))


def python_docx_walk(path: Path) -> int:
    document = docx.Document(str(path))
    return sum(len(paragraph.text) for paragraph in document.paragraphs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paragraphs", type=int, default=5_000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.docx"
        write_document(path, args.paragraphs, args.tables)
        size = path.stat().st_size
        baseline = best(lambda: python_docx_walk(path), args.rounds)
        ours = best(lambda: read_docx(path), args.rounds)
        doc = read_docx(path)
    body = doc.body
    print(
        f"document: {body.count:,} body paragraphs, {len(body.tables)} tables, "
        f"{size:,} bytes (load average {load})"
    )
    print(f"python-docx load + paragraph text: {baseline * 1000:8.1f} ms")
    print(f"siftui read_docx (whole model):    {ours * 1000:8.1f} ms")
    print(f"ratio siftui / python-docx:        {ours / baseline:8.2f}   (target <= 2)")

    middle = body.count // 2
    anchor = f"P{middle}#{body.paragraphs[middle - 1].hash}"
    kinds = {
        "whole/map": DocxOptions(),
        "range": DocxOptions(range=f"P{middle}..P{middle + 400}"),
        "range to end": DocxOptions(range="P2.."),
        "anchor": DocxOptions(anchor=anchor),
        "anchor w0": DocxOptions(anchor=anchor, window=0),
        "grep": DocxOptions(grep="clause 4"),
        "grep range": DocxOptions(grep="item", range=f"P1..P{middle}"),
    }
    start = time.perf_counter()
    render_docx(doc, DocxOptions())
    print(
        f"first render (read_docx built the body index): "
        f"{(time.perf_counter() - start) * 1000:.1f} ms"
    )
    worst = 0.0
    for out_cap in (2_000, 100_000, 1_000_000):
        for name, options in kinds.items():
            options = DocxOptions(**{**options.__dict__, "out_cap": out_cap})
            fresh = []
            for _ in range(args.rounds):
                # forget the grep memo (keep the index): each call searches anew
                for key in [k for k in body.cache if k != "index"]:
                    del body.cache[key]
                start = time.perf_counter()
                render_docx(doc, options)
                fresh.append(time.perf_counter() - start)
            worst = max(worst, min(fresh))
            print(
                f"  out_cap {out_cap:>9,}  {name:<12} best {min(fresh) * 1000:6.2f} ms"
                f"  median {statistics.median(fresh) * 1000:6.2f} ms"
            )
    print(f"slowest answer (best of {args.rounds}): {worst * 1000:.2f} ms (target < 16 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
