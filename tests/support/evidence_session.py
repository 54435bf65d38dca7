"""Shared helpers of the evidence tests: an open session (tests/core/evidence), what
`siftui session` prints (the TUI's evidence preview is compared with it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from siftui.core.budget import CHARS, Unit
from siftui.core.evidence.bookmarks import OutlineTuple
from siftui.core.evidence.records import DocumentRead
from siftui.core.evidence.session import EvidenceSession
from siftui.core.evidence.store import Limits
from siftui.core.evidence.wire import dumps

WORKED_PAGES = ("Alpha beta\n", "gamma \U0001f600 delta\n", "beta-\nend\n")
WORKED_VERSION = "v-0123456789ab"

REPO = Path(__file__).resolve().parents[2]


def session_lines(folder: Path, calls: Sequence[tuple[str, Any]]) -> list[str]:
    """What `siftui session --root FOLDER` prints for ``calls``, in a process of its own."""
    script = "".join(json.dumps({"tool": t, "arguments": a}) + "\n" for t, a in calls)
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "session", "--root", str(folder)],
        input=script.encode(),
        capture_output=True,
        check=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    return done.stdout.decode("utf-8").splitlines()


def units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def unit_slice(text: str, start: int, end: int) -> str:
    """Units [start, end) of ``text``, by encoding (the reference, not the code under test)."""
    return text.encode("utf-16-le", "surrogatepass")[2 * start : 2 * end].decode(
        "utf-16-le", "surrogatepass"
    )


def splits_pair(text: str, unit: int) -> bool:
    data = text.encode("utf-16-le", "surrogatepass")
    if not 0 < unit < len(data) // 2:
        return False
    code = int.from_bytes(data[2 * unit : 2 * unit + 2], "little")
    return 0xDC00 <= code <= 0xDFFF


def open_session(
    pages: Sequence[str] = WORKED_PAGES,
    *,
    out_cap: int = 100_000,
    outline: Sequence[OutlineTuple] = (),
    limits: Limits | None = None,
    path: str = "doc.pdf",
    version: str = WORKED_VERSION,
    unit: Unit = CHARS,
) -> EvidenceSession:
    session = EvidenceSession(out_cap=out_cap, limits=limits, unit=unit)
    session.pdf_open(
        path=path,
        read=DocumentRead(
            real_path="/roots/" + path,
            content_version=version,
            title="A title",
            page_count=len(pages),
            pages=pages,
            outline=outline,
        ),
    )
    return session


def wire(result: object) -> Any:
    """A result as the agent reads it back (also checks it serializes)."""
    return json.loads(dumps(result))
