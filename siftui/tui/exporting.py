"""Getting an answer out: copy (system clipboard and OSC 52), copy as JSON, save.

Each acts on the :class:`~siftui.tui.state.Answer` it is given (the one on
screen) and names its file in the notification, so a copy can never be
mistaken for another document's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from siftui.core.budget import BYTES
from siftui.sources.output import encode_utf8, rendered_json
from siftui.tui.clipboard import CopyReport, copy_system, osc52_too_large
from siftui.tui.saving import save_file
from siftui.tui.state import Answer


class Exports:
    """``c``, ``j`` and ``s`` for an app: the exact bytes, and an honest report."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.last_copy: CopyReport | None = None

    def copy(self, answer: Answer, *, as_json: bool = False) -> None:
        text = rendered_json(answer.rendered) if as_json else answer.rendered.content
        what = f"{answer.name} ({answer.label()}{' as JSON' if as_json else ''})"
        # The bytes `siftui render` writes: a lone surrogate (only a Doc JSON can hold
        # one) becomes U+FFFD there, so it does here too.
        wire = encode_utf8(text).decode("utf-8")
        # OSC 52 goes through the terminal; app.clipboard keeps the text either way.
        self.app.copy_to_clipboard(wire)
        osc52_sent = not self.app.is_headless
        in_bytes = answer.options.unit == BYTES.name  # the notice counts as the OutCap does
        self.app.run_worker(
            lambda: self._copy_system(wire, what, osc52_sent, in_bytes),
            thread=True,
            group="copy",
            description="copy to the system clipboard",
        )

    def _copy_system(self, text: str, what: str, osc52_sent: bool, in_bytes: bool) -> None:
        from siftui.tui import exporting  # looked up at call time: tests replace it

        report = CopyReport(
            what=what,
            runes=len(text),
            osc52_sent=osc52_sent,
            osc52_too_large=osc52_too_large(text),
            system_error=exporting.copy_system(text),
            utf8_bytes=len(encode_utf8(text)) if in_bytes else None,
        )
        self.app.call_from_thread(self._copied, report)

    def _copied(self, report: CopyReport) -> None:
        self.last_copy = report
        self.app.notify(report.message(), title="Copy", severity=report.severity, timeout=8)

    def save(self, answer: Answer) -> None:
        stem = answer.request.source.path.stem if answer.request.source else "answer"
        suggestion = str(Path.cwd() / f"{stem}.agent-view.txt")

        def chosen(target: str | None) -> None:
            if target is not None:
                self._save(Path(target), answer)

        title = f"Save the answer of {answer.name} ({answer.label()}) to"
        from siftui.tui.screens.path import SAVE_HINT, PathScreen

        self.app.push_screen(PathScreen(title, suggestion, SAVE_HINT), chosen)

    def _save(self, target: Path, answer: Answer) -> None:
        data = encode_utf8(answer.rendered.content)
        size = f"{len(answer.rendered.content):,} runes"
        if answer.options.unit == BYTES.name:
            size = f"{len(data):,} bytes"
        saved = f"Saved {answer.name} ({answer.label()}), {size}, to {target}"
        save_file(self.app, target, data, saved)


__all__ = ["Exports", "copy_system"]
