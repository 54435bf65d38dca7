"""The one channel of after-work: what workers find once an answer is painted.

The helpers that decide the after-work (siftui.tui.extras, siftui.tui.background,
siftui.tui.hidden_flow) never write a widget and never hold the app: they return
*steps* (siftui.tui.steps). A :class:`~siftui.tui.steps.Job` is work for a thread
worker; what it finds is a :class:`Fact` (a frozen value, siftui.tui.facts lists
them), which comes back to the app as a :class:`Found` message. A
:class:`~siftui.tui.steps.Notice` is a notification to show. The app runs the
jobs, shows the notices, keeps each fact in its :class:`~siftui.tui.extras.Extras`,
and shows its answer again, dressed with what is known now (every widget draws
from that one answer).
"""

from __future__ import annotations

from textual.message import Message


class Fact:
    """Something found after an answer was painted (the kinds are in siftui.tui.facts)."""


class Found(Message):
    """A worker's fact, posted to the app from the worker's thread."""

    def __init__(self, fact: Fact) -> None:
        super().__init__()
        self.fact = fact
