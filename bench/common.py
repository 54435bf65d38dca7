"""What the benchmark scripts share: where the corpus is, the load, a stopwatch."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


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
