"""The steps a helper of the after-work hands the app (siftui.tui.found): a notice to
show, a job for a thread worker, or a fact it knew at once.

A module apart from the channel's message, imported once the first answer is
painted: each frozen dataclass costs Python 3.11 five or six methods compiled at
import, which a start would otherwise pay before its first frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.notifications import SeverityLevel

from siftui.tui.found import Fact


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
