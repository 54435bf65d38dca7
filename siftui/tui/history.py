"""The calls an agent has made so far, with back and forward, and what they cost."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from siftui.core.budget import BYTES, utf8_size
from siftui.tui.state import Answer, Held, Request


@dataclass(frozen=True)
class Spent:
    """One call's answer, measured both ways (the calls line says the unit shown)."""

    request: Request
    runes: int
    bytes: int

    @classmethod
    def of(cls, request: Request, content: str) -> Spent:
        return cls(request, len(content), utf8_size(content))


@dataclass
class CallHistory:
    """Calls in order; ``position`` is the one shown. A new call drops any forward ones."""

    calls: list[Spent] = field(default_factory=list)
    position: int = -1

    def current(self) -> Request | None:
        return self.calls[self.position].request if self.position >= 0 else None

    def record(self, request: Request, content: str) -> bool:
        """Make ``request``, answered with ``content``, a call (False when it is the
        call shown already)."""
        if self.current() == request:
            return False
        del self.calls[self.position + 1 :]
        self.calls.append(Spent.of(request, content))
        self.position = len(self.calls) - 1
        return True

    def back(self) -> Request | None:
        if self.position <= 0:
            return None
        self.position -= 1
        return self.calls[self.position].request

    def forward(self) -> Request | None:
        if self.position + 1 >= len(self.calls):
            return None
        self.position += 1
        return self.calls[self.position].request

    def spent_runes(self) -> int:
        """Runes received in the calls up to and including the one shown."""
        return sum(call.runes for call in self.calls[: self.position + 1])

    def spent_bytes(self) -> int:
        """UTF-8 bytes received in the calls up to and including the one shown."""
        return sum(call.bytes for call in self.calls[: self.position + 1])

    def clear(self) -> None:
        self.calls.clear()
        self.position = -1

    def snapshot(self) -> Calls:
        return Calls(tuple(self.calls), self.position, self.spent_runes(), self.spent_bytes())


@dataclass(frozen=True)
class Calls:
    """The history as a value, for the calls line; ``log``: the calls of a replayed log
    (``position`` the call chosen in it), not the user's. ``spent`` and
    ``spent_bytes``: what the calls up to it received, in runes and in bytes."""

    calls: tuple[Spent, ...] = ()
    position: int = -1
    spent: int = 0
    spent_bytes: int = 0
    log: bool = False


def calls_text(
    calls: Calls, request: Request | None, content: str, *, refused: bool = False
) -> str:
    """ "call 3 of 5 · this answer 11,006 runes · spent 40,530 runes · ~10,132 tokens";
    with the shown request's OutCap in bytes, the sizes are in bytes (the tokens stay
    R2's estimate, a quarter of the runes). ``refused``: the request held is refused,
    and the answer shown stands in for it (Enter would ask for the refused one again)."""
    in_bytes = request is not None and request.options.unit == BYTES.name
    word = "bytes" if in_bytes else "runes"
    used = calls.spent_bytes if in_bytes else calls.spent
    spent = f"spent {used:,} {word} · ~{calls.spent // 4:,} tokens"
    this = f"this answer {utf8_size(content) if in_bytes else len(content):,} {word}"
    count = len(calls.calls)
    shown = calls.position >= 0 and calls.calls[calls.position].request == request
    if calls.log:
        number = f"call {calls.position + 1} of {count} in the log"
        if shown:
            return f"{number} · {this} · the agent {spent} by then"
        return f"what-if beside {number}: not a call the agent made · {this}"
    if shown:
        return f"call {calls.position + 1} of {count} · {this} · {spent}"
    made = "1 call" if count == 1 else f"{count:,} calls"
    if refused:
        stands_in = "not a call: the request is refused, this is the last that renders"
        return f"{stands_in} · {this} · {spent} in {made}"
    return f"not a call yet (Enter asks for it) · {this} · {spent} in {made}"


class CallCounter:
    """Which answers are calls: one the user asked for (:meth:`asked`: Enter, `n`, `b` /
    `f`, the strip, the walk, a slider step or release, an open), once it is on screen.
    What the user only edits on the way (typing, dragging) is no call, however long
    it stands. The app is told the calls (``counted``) when one is made, and given
    them back by :meth:`moved` and :meth:`clear`."""

    def __init__(self, held: Held, counted: Callable[[Calls], None]) -> None:
        self.held, self.counted = held, counted
        self.history = CallHistory()
        self._asked: Request | None = None

    def asked(self, request: Request) -> None:
        """The user asked for ``request``: its answer, once shown, is a call."""
        self._asked = request

    def made(self, answer: Answer) -> None:
        """``answer`` (to the request) is on screen: a call if it was asked for."""
        if answer.request != self._asked:
            return
        self._asked = None
        shown = self.held.answer
        # The same answer, maybe since dressed with what background work found.
        if (
            shown is not None
            and shown.same_as(answer)
            and self.history.record(answer.request, answer.rendered.content)
        ):
            self.counted(self.history.snapshot())

    def moved(self) -> Calls:
        """``b`` / ``f`` moved the position: the calls now."""
        return self.history.snapshot()

    def clear(self) -> Calls:
        self.history.clear()
        self._asked = None
        return self.history.snapshot()
