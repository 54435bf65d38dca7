"""Running the real command line, `python -m siftui ...`, from a test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TIMEOUT = 60  # seconds: far beyond any command here, short of a hung test run


def siftui(
    *args: str | Path, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`python -m siftui ARGS` in a new process, with its exit code and raw output."""
    return subprocess.run(
        [sys.executable, "-m", "siftui", *map(str, args)],
        capture_output=True,
        timeout=TIMEOUT,
        env=env,
        cwd=cwd,
        check=False,
    )
