"""Getting an evidence result out: copied exactly, a session saved as a script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from siftui.sources.output import encode_utf8
from siftui.tui.clipboard import CopyReport, copy_system, osc52_too_large
from siftui.tui.display import plural
from siftui.tui.saving import save_file
from siftui.tui.screens import PathScreen
from siftui.tui.screens.path import SAVE_HINT

LAST_COPY: dict[int, CopyReport] = {}
"""The last copy's report per app (by id), for tests and the help."""


def copy_text(app: App[Any], text: str, what: str) -> None:
    """``text`` to the terminal's clipboard (OSC 52) and the system one, and say so."""
    wire = encode_utf8(text).decode("utf-8")
    app.copy_to_clipboard(wire)
    sent = not app.is_headless

    def system() -> None:
        report = CopyReport(
            what=what,
            runes=len(wire),
            osc52_sent=sent,
            osc52_too_large=osc52_too_large(wire),
            system_error=copy_system(wire),
            # s here would save the read_pdf answer behind the preview, not this result
            save_hint="Press S to save the session's calls as a script.",
        )
        app.call_from_thread(_copied, app, report)

    app.run_worker(system, thread=True, group="copy", description="copy to the system clipboard")


def _copied(app: App[Any], report: CopyReport) -> None:
    LAST_COPY[id(app)] = report
    app.notify(report.message(), title="Copy", severity=report.severity, timeout=8)


def save_script(app: App[Any], script: str, suggestion: Path) -> None:
    """Ask for a path (``suggestion`` first) and write the script there; never
    overwrite a file without asking."""

    def chosen(target: str | None) -> None:
        if target is not None:
            saved = f"Saved the session, {plural(script.count(chr(10)), 'call')}, to {target}"
            save_file(app, Path(target), encode_utf8(script), saved)

    title = f"Save the session ({plural(script.count(chr(10)), 'call')}) as a script to"
    app.push_screen(PathScreen(title, str(suggestion), SAVE_HINT), chosen)
