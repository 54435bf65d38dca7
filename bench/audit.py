"""`siftui audit` against one `siftui walk` and one `siftui inspect` process per document.

    python bench/audit.py                  # the corpus but pgfmanual.pdf, each twice
    python bench/audit.py --reps 3 --jobs 2 --files ksp-thesis.pdf lshort-zh-cn.pdf

The corpus files are linked (symlinks, read in place) --reps times into a
temporary folder. Both sides run without the disk cache (--no-cache), so that
every copy is read and inspected again: `siftui audit DIR --hidden --jobs N`
once, against, for each document in turn, `siftui walk --tokens` then
`siftui inspect` (each exit code accepted: 3 is hidden text, 1 a refusal).
Prints documents per second of each and the ratio (target: >= 1.8 on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CORPUS, load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--files", nargs="*", default=None)
    args = parser.parse_args()
    names = args.files or sorted(
        path.name for path in CORPUS.glob("*.pdf") if path.name != "pgfmanual.pdf"
    )
    python = [sys.executable, "-m", "siftui"]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "store"
        root.mkdir()
        for rep in range(args.reps):
            for name in names:
                (root / f"{rep}-{name}").symlink_to(CORPUS / name)
        documents = sorted(root.iterdir())
        environment = {**os.environ, "XDG_CACHE_HOME": str(Path(folder) / "cache")}
        start = time.perf_counter()
        command = [*python, "audit", str(root), "--hidden", "--no-cache", "--jobs", str(args.jobs)]
        command += ["--out", str(Path(folder) / "audit.jsonl")]
        subprocess.run(command, stdout=subprocess.DEVNULL, env=environment, check=True)
        audit = time.perf_counter() - start
        start = time.perf_counter()
        for path in documents:
            for what in (["walk", "--tokens"], ["inspect"]):
                subprocess.run(
                    [*python, *what, str(path), "--no-cache"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env=environment,
                    check=False,
                )
        singles = time.perf_counter() - start
    count = len(documents)
    print(f"{count} documents ({len(names)} files x {args.reps}), jobs {args.jobs}, load {load()}")
    print(f"siftui audit --hidden:        {audit:7.1f} s  {count / audit:6.2f} documents/s")
    print(f"siftui walk + siftui inspect: {singles:7.1f} s  {count / singles:6.2f} documents/s")
    print(f"ratio: {singles / audit:.2f}x")


if __name__ == "__main__":
    main()
