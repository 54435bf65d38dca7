"""The one place an unexpected exception goes: one line for the user, the traceback in a file.

Every catch-all (the TUI's render and load workers, the MCP call handler, the
document store) calls :func:`report_unexpected`: the user sees one line that
names the log file, and the whole traceback is appended there, so a bug report
can quote it. Writing the log never raises: a read-only or full disk costs the
traceback, not the line.
"""

from __future__ import annotations

import os
import threading
import traceback
from datetime import UTC, datetime
from pathlib import Path

from siftui.core.messages import one_line

_LOCK = threading.Lock()
MAX_LOG_BYTES = 4 * 1024 * 1024
"""The log is started afresh (the old one kept as errors.log.1) past this size."""


def error_log_path() -> Path:
    """``$XDG_STATE_HOME/siftui/errors.log`` (default ``~/.local/state``)."""
    state = os.environ.get("XDG_STATE_HOME", "").strip()
    base = Path(state) if state and Path(state).is_absolute() else Path.home() / ".local/state"
    return base / "siftui" / "errors.log"


def report_unexpected(error: BaseException, where: str) -> str:
    """Log ``error``'s traceback and return the one line to show.

    ``where`` says what was being done ("rendering", "loading report.pdf", ...).
    """
    logged = _append(error, where)
    detail = f"details in {logged}" if logged is not None else "its traceback could not be saved"
    return f"{where}: unexpected {type(error).__name__}: {one_line(error)} ({detail})"


def _append(error: BaseException, where: str) -> Path | None:
    path = error_log_path()
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    entry = f"--- {stamp} pid {os.getpid()} {where}\n{trace}\n"
    try:
        with _LOCK:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                if path.stat().st_size > MAX_LOG_BYTES:
                    os.replace(path, path.with_name(path.name + ".1"))
            except FileNotFoundError:
                pass
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(descriptor, "a", encoding="utf-8", errors="backslashreplace") as log:
                log.write(entry)
    except OSError:
        return None
    return path
