"""Start the TUI from the command line."""

from __future__ import annotations

from siftui.serve.calllog import LogEntry
from siftui.tui.app import create_app, create_log_app


def run_tui(path: str | None, password: str | None = None) -> int:
    """Run the app until the user quits; the exit code of the process."""
    app = create_app(path, password)
    result = app.run()
    return 0 if result is None else int(result)


def run_log_tui(entries: list[LogEntry]) -> int:
    """Run the app on a call log until the user quits."""
    result = create_log_app(entries).run()
    return 0 if result is None else int(result)
