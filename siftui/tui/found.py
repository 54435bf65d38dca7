"""The one channel of after-work: what workers find once an answer is painted.

The helpers that decide the after-work (siftui.tui.extras, siftui.tui.background,
siftui.tui.hidden_flow) never write a widget and never hold the app: they return
*steps*. A :class:`Job` is work for a thread worker; what it finds is a
:class:`Fact` (a frozen value, siftui.tui.facts lists them), which comes back
to the app as a :class:`Found` message. A :class:`Notice` is a notification to
show. The app runs the jobs, shows the notices, keeps each fact in its
:class:`~siftui.tui.extras.Extras`, and shows its answer again, dressed with
what is known now (every widget draws from that one answer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.message import Message
from textual.notifications import SeverityLevel


class Fact:
    """Something found after an answer was painted (the kinds are in siftui.tui.facts)."""


@dataclass(frozen=True)
class Notice:
    """A notification for the app to show."""

    message: str
    title: str = ""
    severity: SeverityLevel = "information"
    timeout: float | None = None


@dataclass(frozen=True)
class Job:
    """Work for a thread worker: ``work`` returns a fact for the app (None: nothing to
    say, as when the work was stopped). ``exclusive``: a newer job of the same
    ``group`` cancels this one if it has not started."""

    work: Callable[[], Fact | None]
    group: str
    description: str
    exclusive: bool = True


Step = Notice | Job | Fact
"""What a helper hands the app: a notice to show, a job to run, or a fact it knew at
once (the app keeps it as it keeps a worker's)."""


class Found(Message):
    """A worker's fact, posted to the app from the worker's thread."""

    def __init__(self, fact: Fact) -> None:
        super().__init__()
        self.fact = fact
