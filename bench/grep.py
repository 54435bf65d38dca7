"""grep over pgfmanual: siftui's render() against Python's re line by line.

    python bench/grep.py [--reps N] [PDF]

Prints medians of: render(grep=...) cold (hits not cached yet; a fresh Doc
index each repetition), render warm (same pattern, another OutCap), and a
plain Python loop with the stdlib `re` searching every stripped line; and the
ratio siftui cold / re. Run by hand; the machine's load is printed too.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time
from pathlib import Path

from siftui.core.doc import Doc
from siftui.core.docindex import index_of
from siftui.core.render import Options, render
from siftui.sources.load import load_doc_report

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def python_re(doc: Doc, pattern: str) -> int:
    regex = re.compile(pattern, 0 if any(c.isupper() for c in pattern) else re.IGNORECASE)
    hits = 0
    for text in doc.pages:
        for line in text.split("\n"):
            if regex.search(line.strip()):
                hits += 1
    return hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", default=str(CORPUS / "pgfmanual.pdf"))
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--pattern", default="node")
    args = parser.parse_args()
    base = load_doc_report(args.pdf).doc
    print(f"{Path(args.pdf).name}: {len(base.pages)} pages; load {os.getloadavg()}")
    cold, tables, first, warm, stdlib = [], [], [], [], []
    for _ in range(args.reps):
        doc = Doc(base.title, base.page_count, tuple(p + "" for p in base.pages), base.outline)
        render(doc, Options(out_cap=1000))  # builds the index: blocks, prefix sums
        start = time.perf_counter()
        answer = render(doc, Options(grep=args.pattern))
        cold.append(time.perf_counter() - start)
        doc = Doc(base.title, base.page_count, tuple(p + "" for p in base.pages), base.outline)
        render(doc, Options(out_cap=1000))
        start = time.perf_counter()
        index_of(doc).prepare_grep()
        tables.append(time.perf_counter() - start)
        start = time.perf_counter()
        render(doc, Options(grep=args.pattern))
        first.append(time.perf_counter() - start)
        start = time.perf_counter()
        render(doc, Options(grep=args.pattern, out_cap=20_000))
        warm.append(time.perf_counter() - start)
        start = time.perf_counter()
        hits = python_re(doc, args.pattern)
        stdlib.append(time.perf_counter() - start)
        assert hits == answer.grep_hits, (hits, answer.grep_hits)
    med = statistics.median
    print(f'grep "{args.pattern}": {answer.grep_hits} matching lines, {args.reps} repetitions')
    print(f"siftui, first grep of a Doc (builds its line tables)  {med(cold) * 1000:8.2f} ms")
    print(f"siftui line tables alone (once per Doc, in a worker)   {med(tables) * 1000:8.2f} ms")
    print(f"siftui grep with the tables built                      {med(first) * 1000:8.2f} ms")
    print(f"siftui same pattern again, another OutCap (cached)     {med(warm) * 1000:8.2f} ms")
    print(f"python re, split + strip + search every line           {med(stdlib) * 1000:8.2f} ms")
    print(f"siftui grep (tables built) / python re {med(first) / med(stdlib):.2f} (target <= 1.0)")
    print(f"siftui first grep incl. tables / python re {med(cold) / med(stdlib):.2f}")
    long_line = Doc("t", 1, ("a" * 5_000 + "!",))
    start = time.perf_counter()
    render(long_line, Options(grep="(a+)+$"))
    print(f"(a+)+$ on a 5,000-character line: {(time.perf_counter() - start) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
