"""Getting the answer out: copy (system clipboard and OSC 52), copy as JSON, save."""

from __future__ import annotations

from pathlib import Path

from textual import work

from siftui.output import encode_utf8, rendered_json, write_new_file
from siftui.render import Rendered
from siftui.tui.base import AppBase
from siftui.tui.clipboard import CopyReport, copy_system, osc52_too_large
from siftui.tui.screens import ConfirmScreen, PathScreen


class ExportMixin(AppBase):
    """``c``, ``j`` and ``s``: the exact bytes, and an honest report of where they went."""

    last_copy: CopyReport | None = None
    _path: Path | None

    def _answer(self) -> Rendered | None:
        if self.shown is None:
            self.notify("Nothing to copy yet: no document is open.", severity="warning")
            return None
        return self.shown.answer

    def action_copy(self) -> None:
        answer = self._answer()
        if answer is not None:
            self._copy(answer.content, "the answer")

    def action_copy_json(self) -> None:
        answer = self._answer()
        if answer is not None:
            self._copy(rendered_json(answer), "the answer as JSON")

    def _copy(self, text: str, what: str) -> None:
        # The bytes `siftui render` writes: a lone surrogate (only a Doc JSON can hold
        # one) becomes U+FFFD there, so it does here too.
        wire = encode_utf8(text).decode("utf-8")
        # OSC 52 goes through the terminal; app.clipboard keeps the text either way.
        self.copy_to_clipboard(wire)
        self._copy_system(wire, what, not self.is_headless)

    @work(thread=True, group="copy", description="copy to the system clipboard")
    def _copy_system(self, text: str, what: str, osc52_sent: bool) -> None:
        report = CopyReport(
            what=what,
            runes=len(text),
            osc52_sent=osc52_sent,
            osc52_too_large=osc52_too_large(text),
            system_error=copy_system(text),
        )
        self.call_from_thread(self._copied, report)

    def _copied(self, report: CopyReport) -> None:
        self.last_copy = report
        self.notify(report.message(), title="Copy", severity=report.severity, timeout=8)

    def action_save(self) -> None:
        answer = self._answer()
        if answer is None:
            return
        stem = self._path.stem if self._path else "answer"
        suggestion = str(Path.cwd() / f"{stem}.agent-view.txt")

        def chosen(target: str | None) -> None:
            if target is not None:
                self._save(Path(target), answer.content)

        self.push_screen(PathScreen("Save the answer to", suggestion), chosen)

    def _save(self, target: Path, content: str) -> None:
        if target.exists() and not target.is_dir():

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self._write(target, content, overwrite=True)
                else:
                    self.notify(f"Not saved: {target} was left as it was.")

            self.push_screen(ConfirmScreen(f"{target} exists. Overwrite it?"), confirmed)
        else:
            self._write(target, content, overwrite=False)

    def _write(self, target: Path, content: str, *, overwrite: bool) -> None:
        try:
            write_new_file(target, encode_utf8(content), overwrite=overwrite)
        except OSError as error:
            reason = error.strerror or str(error)
            self.notify(f"Not saved: {target}: {reason}", severity="error", timeout=8)
            return
        self.notify(f"Saved {len(content):,} runes to {target}")
