"""Figures: runes, runes/4 and real o200k_base / cl100k_base tokens of corpus files.

Run by hand (not by pytest, not in CI), from the repository root:

    python bench/tokens.py                        # lshort-zh-cn.pdf and beameruserguide.pdf
    python bench/tokens.py --corpus DIR a.pdf b.pdf

For each file it extracts the Doc, builds the R1 full text (what the agent gets
when the whole document fits), and prints its runes (code points), the
contract's estimate runes // 4, the real token counts with the vocabularies
shipped in siftui/data, and each count as a multiple of the estimate. It also
times loading each vocabulary and counting the full text and the pages.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from siftui.core.render import full
from siftui.sources import tokens
from siftui.sources.extract import extract

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
DEFAULT_FILES = ["lshort-zh-cn.pdf", "beameruserguide.pdf"]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("files", nargs="*", default=DEFAULT_FILES, help="PDF names in --corpus")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()

    for name in tokens.ENCODINGS:
        start = time.perf_counter()
        tokens.load_encoding(name)
        print(f"load {name}: {time.perf_counter() - start:.2f} s")
    print()

    header = ("file", "pages", "runes", "runes/4", *tokens.ENCODINGS)
    rows: list[tuple[str, ...]] = []
    timings: list[str] = []
    for file in args.files:
        path = args.corpus / file
        if not path.is_file():
            print(f"skipped: {path} is missing", file=sys.stderr)
            continue
        doc = extract(path)
        text = full(doc)
        start = time.perf_counter()
        counts = tokens.token_counts(text)
        counted = time.perf_counter() - start
        start = time.perf_counter()
        for encoding in tokens.ENCODINGS:
            tokens.count_pages(doc, encoding)
        paged = time.perf_counter() - start
        cells = [file, f"{doc.extracted:,}", f"{counts.runes:,}", f"{counts.estimate:,}"]
        counted_in, failed_in = dict(counts.tokens), dict(counts.errors)
        for encoding in tokens.ENCODINGS:
            if encoding in failed_in:
                cells.append(f"error: {failed_in[encoding]}")
            else:
                real = counted_in[encoding]
                cells.append(f"{real:,} ({real / max(counts.estimate, 1):.2f}x)")
        rows.append(tuple(cells))
        timings.append(f"{file}: full text, both encodings {counted:.2f} s; pages {paged:.2f} s")

    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    print()
    for line in timings:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
