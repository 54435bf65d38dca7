"""The app's base: the key actions and messages that only hand on (to
:class:`~siftui.tui.key_actions.Keys`, the replay, the evidence preview or a
widget), and one notification at a time. The actions that change the app's state
(`b` / `f`, `t`) stay in siftui/tui/app.py, the one place that assigns it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import App
from textual.notifications import Notify, SeverityLevel

from siftui.tui.display import escape_controls, escape_lines
from siftui.tui.state import Opened
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.replay import LogFollowed
from siftui.tui.widgets.view import ContentView

if TYPE_CHECKING:
    from siftui.tui.evidence.flow import EvidenceFlow
    from siftui.tui.extras import Extras
    from siftui.tui.key_actions import Keys
    from siftui.tui.replay_flow import ReplayFlow


class KeyActions(App[int]):
    """``action_*`` for the keys of siftui/tui/keys.py that act through a helper."""

    opened: Opened | None
    extras: Extras

    # The app's helpers, made when first used (siftui.tui.app).
    @property
    def keys(self) -> Keys:
        raise NotImplementedError

    @property
    def replay(self) -> ReplayFlow:
        raise NotImplementedError

    @property
    def evidence(self) -> EvidenceFlow:
        raise NotImplementedError

    @on(ContentView.LineChosen)
    def _line_chosen(self, event: ContentView.LineChosen) -> None:
        self.keys.line_chosen(event.unit)

    @on(LogFollowed)
    def _followed(self, event: LogFollowed) -> None:
        self.title = self.replay.followed(event.added, event.following, event.skipped)

    # The header shows file names, which may hold ESC or a bidi override: escaped.
    def validate_title(self, title: str) -> str:
        return escape_controls(title)

    def validate_sub_title(self, sub_title: str) -> str:
        return escape_controls(sub_title)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's notify, as plain text unless asked: a notification names files and
        echoes what was typed, and "[/]" in either is no markup (it would raise)."""
        # A file name may hold ESC or a bidi override: shown escaped, never sent raw.
        message, title = escape_lines(message), escape_controls(title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    @on(Notify)
    def _one_toast(self) -> None:
        """A new notification replaces the one shown (this runs before Textual adds it):
        toasts stacked up the screen would cover the view's first lines (each toast's
        height is bounded in siftui.tcss)."""
        self.clear_notifications()

    def action_copy(self) -> None:
        self.keys.copy()

    def action_copy_json(self) -> None:
        self.keys.copy(as_json=True)

    def action_save(self) -> None:
        self.keys.save()

    def action_focus_grep(self) -> None:
        self.keys.focus("grep")

    def action_focus_pages(self) -> None:
        self.keys.focus("pages")

    def action_focus_range(self) -> None:
        self.keys.focus("pages")  # a Word document's range field

    def action_focus_anchor(self) -> None:
        self.keys.focus("anchor")

    def action_focus_view(self) -> None:
        self.keys.focus("view")

    def action_map(self) -> None:
        self.keys.map()

    def action_follow(self) -> None:
        self.keys.follow()

    def action_walk(self) -> None:
        self.keys.walk()

    def action_outcap_down(self) -> None:
        self.keys.outcap(up=False)

    def action_outcap_up(self) -> None:
        self.keys.outcap(up=True)

    def action_open(self) -> None:
        self.keys.open()

    def action_follow_log(self) -> None:
        from siftui.tui.replay_flow import calls_of

        calls_of(self).toggle_follow()

    def action_log_report(self) -> None:
        self.replay.report()

    def action_evidence(self) -> None:
        self.evidence.toggle(self.opened.source.path if self.opened is not None else None)

    def action_details(self) -> None:
        self.keys.details()

    def action_toggle_unit(self) -> None:
        self.keys.toggle_unit()

    @on(OutCapControl.UnitPressed)
    def _unit_pressed(self) -> None:
        self.keys.toggle_unit()

    def action_hidden(self) -> None:
        self.keys.hidden()

    def action_help(self) -> None:
        self.keys.help()
