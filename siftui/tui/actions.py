"""The app's base: its helpers (made when first used), the services their steps ask
for (siftui.tui.found: notices, workers), the key actions and messages that only
hand on (to :class:`~siftui.tui.key_actions.Keys`, the replay, the evidence preview
or a widget), and one notification at a time. Nothing here assigns the app's state:
the actions that change it (`b` / `f`, `t`, `u`) and what a worker found stay in
siftui/tui/app.py, the one place that assigns it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import App, SystemCommand
from textual.notifications import Notify, SeverityLevel

from siftui.tui.display import escape_controls, escape_lines
from siftui.tui.found import Fact, Found
from siftui.tui.keys import available, system_commands
from siftui.tui.kinds import field_names, view_of
from siftui.tui.state import Opened, Request
from siftui.tui.widgets.loader import Loader, OpenAsked
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.replay import CallWanted, LogFollowed
from siftui.tui.widgets.request_bar import RequestBar
from siftui.tui.widgets.view import ContentView

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.screen import Screen

    from siftui.core.kind_view import KindView
    from siftui.tui.clipboard import CopyReport
    from siftui.tui.evidence.flow import EvidenceFlow
    from siftui.tui.evidence.model import PreviewFactory
    from siftui.tui.evidence_rerun import LogReplay
    from siftui.tui.exporting import Exports
    from siftui.tui.extras import Extras
    from siftui.tui.key_actions import Keys
    from siftui.tui.opening import OpenFlow
    from siftui.tui.replay_flow import ReplayFlow
    from siftui.tui.steps import Step
    from siftui.tui.widgets.call_list import CallList


class KeyActions(App[int]):
    """``action_*`` for the keys of siftui/tui/keys.py that act through a helper."""

    request: Request
    opened: Opened | None
    ocr: bool
    opener: OpenFlow
    extras: Extras
    _replayed: LogReplay | None
    _evidence_factory: PreviewFactory | None

    # The helpers of keys, exports, a replay and the evidence preview are made (and their
    # modules imported) when first used: a start needs none of them before its first frame.

    @property
    def keys(self) -> Keys:  # the app's (siftui.tui.app): it reads the app's state
        raise NotImplementedError

    @cached_property
    def exports(self) -> Exports:
        from siftui.tui.exporting import Exports

        return Exports(self)

    @cached_property
    def replay(self) -> ReplayFlow:
        from siftui.tui.replay_flow import ReplayFlow

        log = self._replayed
        return ReplayFlow(self, *((log.entries, log.rerun) if log is not None else (None, None)))

    @cached_property
    def evidence(self) -> EvidenceFlow:
        """`e`: the evidence tools on the PDF open."""
        from siftui.tui.evidence.flow import EvidenceFlow

        return EvidenceFlow(self, self._evidence_factory)

    def preview_shown(self, screen: Screen[Any] | None = None) -> bool:
        """Whether ``screen`` (default: the one shown) is the evidence preview, whose
        keys are its own (siftui.tui.keys.available)."""
        flow: EvidenceFlow | None = self.__dict__.get("evidence")  # made at the first `e`
        shown = self.screen if screen is None else screen
        return flow is not None and flow.screen is not None and shown is flow.screen

    @property
    def last_copy(self) -> CopyReport | None:
        return self.exports.last_copy

    @staticmethod
    def calls_type() -> type[CallList]:
        """The class of a log replay's list of calls (its module, a DataTable's, is a
        replay's only): the app hands it the keys and messages that move in it."""
        from siftui.tui.widgets.call_list import CallList

        return CallList

    def shown_view(self) -> KindView:
        """The kind whose fields the request bar shows (siftui.tui.app: its state)."""
        raise NotImplementedError

    def ask_open(self, asked: OpenAsked) -> None:
        """Ask the loader for an open (siftui.tui.app, which assigns what it is asked)."""
        raise NotImplementedError

    # ------------------------------------------ the steps of the after-work (found.py)

    @on(Found)
    def _found(self, event: Found) -> None:
        self.take(event.fact)

    def take(self, fact: Fact) -> None:
        """Keep what was found (siftui.tui.app, which assigns the answer dressed with it)."""
        raise NotImplementedError

    def do(self, steps: Iterable[Step]) -> None:
        """Show a helper's notices, run its jobs (each posts what it finds as ``Found``),
        and take the facts it knew at once."""
        from siftui.tui.steps import Job, Notice  # once the first answer is painted

        for step in steps:
            if isinstance(step, Notice):
                self.notify(
                    step.message, title=step.title, severity=step.severity, timeout=step.timeout
                )
            elif isinstance(step, Job):
                self.run_worker(
                    self._posting(step.work),
                    thread=True,
                    exclusive=step.exclusive,
                    group=step.group,
                    description=step.description,
                )
            elif isinstance(step, Fact):
                self.take(step)

    def _posting(self, work: Callable[[], Fact | None]) -> Callable[[], None]:
        """A job's worker: what it finds comes to the app as a message."""

        def run() -> None:
            if (fact := work()) is not None:
                self.post_message(Found(fact))

        return run

    # ------------------------------------------------------- which keys are shown

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = view_of(self.request.options)
        replay, preview = self._replayed is not None, self.preview_shown()
        shown, fields = view.range_action, field_names(view)
        return available(action, replay=replay, range_action=shown, fields=fields, preview=preview)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if self.preview_shown(screen):  # the preview's own keys, none of read_pdf's
            yield from self.evidence.system_commands()
        else:
            yield from system_commands(self)

    # --------------------------------------------------- messages and key actions

    @on(ContentView.LineChosen)
    def _line_chosen(self, event: ContentView.LineChosen) -> None:
        self.keys.line_chosen(event.unit)

    @on(LogFollowed)
    def _followed(self, event: LogFollowed) -> None:
        self.title = self.replay.followed(event.added, event.following, event.skipped)

    @on(Loader.NeedsPassword)
    def _needs_password(self, event: Loader.NeedsPassword) -> None:
        """Ask for the password; none given, the open failed (as if the loader said so)."""
        from siftui.tui.screens.password import PasswordScreen

        given = partial(self._password_given, event.path, self.ocr)
        self.push_screen(PasswordScreen(event.path.name, event.error), given)

    def _password_given(self, path: Path, ocr: bool, password: str | None) -> None:
        if (failed := self.opener.password_given(path, password)) is not None:
            self.post_message(failed)
        else:
            self.ask_open(OpenAsked(path, password, ocr))

    @on(CallWanted)
    def _call_wanted(self, event: CallWanted) -> None:
        self.query_one("#call-log", self.calls_type()).show_call(event.number)

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
        self._focus("grep")

    def action_focus_pages(self) -> None:
        self._focus("pages")

    def action_focus_range(self) -> None:
        self._focus("pages")  # a Word document's range field

    def action_focus_anchor(self) -> None:
        self._focus("anchor")

    def action_focus_window(self) -> None:
        self._focus("window")  # a Word document's (keys.available hides it elsewhere)

    def action_focus_scope(self) -> None:
        self._focus("scope")

    def action_focus_outcap(self) -> None:
        self.query_one(OutCapControl).input.focus()

    def action_focus_view(self) -> None:
        self.query_one(ContentView).focus()

    def _focus(self, field: str) -> None:
        """Focus a field of the request bar: ``pages`` (a Word document's range),
        ``grep``, or ``anchor``, ``window`` and ``scope`` (a Word document's only)."""
        view = self.shown_view()
        if field == "anchor" and view.anchor_field is None:
            self.notify(view.no_anchor)
            return
        self.query_one(RequestBar).field(view.range_field if field == "pages" else field).focus()

    def action_map(self) -> None:
        self.keys.map()
        self.query_one(ContentView).focus()

    def action_follow(self) -> None:
        self.keys.follow()

    def action_walk(self) -> None:
        self.keys.walk()

    def action_outcap_down(self) -> None:
        self.query_one(OutCapControl).step_down()

    def action_outcap_up(self) -> None:
        self.query_one(OutCapControl).step_up()

    def action_open(self) -> None:
        self.keys.open()

    def action_follow_log(self) -> None:
        self.query_one("#call-log", self.calls_type()).toggle_follow()

    def action_log_report(self) -> None:
        self.replay.report()

    def action_evidence(self) -> None:
        self.evidence.toggle(self.opened)

    def action_details(self) -> None:
        self.keys.details()

    def action_hidden(self) -> None:
        self.keys.hidden()

    def action_help(self) -> None:
        self.keys.help()
