"""What the benchmark scripts share: where the corpus is, the load, a stopwatch, the
checkouts compared."""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
HERE = Path(__file__).resolve().parents[1]
"""This checkout: the one measured when no --tree is given."""


def add_tree_option(parser: argparse.ArgumentParser) -> None:
    """``--tree DIR``, again for each siftui checkout to compare in one run."""
    parser.add_argument("--tree", type=Path, action="append", help="a siftui checkout")


def trees(args: argparse.Namespace) -> list[Path]:
    """The checkouts ``--tree`` named, resolved (default: this one)."""
    return [tree.resolve() for tree in args.tree or [HERE]]


def load() -> str:
    """The load average, printed beside every figure: these machines are shared."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def seconds(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def command_seconds(command: list[str], environment: dict[str, str] | None = None) -> float:
    """Wall time of a whole process, its output thrown away."""
    return seconds(
        lambda: subprocess.run(command, stdout=subprocess.DEVNULL, env=environment, check=True)
    )


def best(action: Callable[[], object], rounds: int) -> float:
    """The fastest of ``rounds`` runs of ``action``, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)
