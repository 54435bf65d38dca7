"""The calls an agent has made so far, with back and forward, and what they cost."""

from __future__ import annotations

from dataclasses import dataclass, field

from siftui.tui.state import Request


@dataclass(frozen=True)
class Spent:
    request: Request
    runes: int


@dataclass
class CallHistory:
    """Calls in order; ``position`` is the one shown. A new call drops any forward ones."""

    calls: list[Spent] = field(default_factory=list)
    position: int = -1

    def current(self) -> Request | None:
        return self.calls[self.position].request if self.position >= 0 else None

    def record(self, request: Request, runes: int) -> bool:
        """Make ``request`` a call (False when it is the call shown already)."""
        if self.current() == request:
            return False
        del self.calls[self.position + 1 :]
        self.calls.append(Spent(request, runes))
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

    def clear(self) -> None:
        self.calls.clear()
        self.position = -1

    def snapshot(self) -> Calls:
        return Calls(tuple(self.calls), self.position, self.spent_runes())


@dataclass(frozen=True)
class Calls:
    """The history as a value, for the calls line."""

    calls: tuple[Spent, ...] = ()
    position: int = -1
    spent: int = 0


def calls_text(calls: Calls, request: Request | None, runes: int) -> str:
    """ "call 3 of 5 · this answer 11,006 runes · spent 40,530 runes · ~10,132 tokens" """
    spent = f"spent {calls.spent:,} runes · ~{calls.spent // 4:,} tokens"
    this = f"this answer {runes:,} runes"
    count = len(calls.calls)
    if calls.position >= 0 and calls.calls[calls.position].request == request:
        return f"call {calls.position + 1} of {count} · {this} · {spent}"
    made = "1 call" if count == 1 else f"{count:,} calls"
    return f"not a call yet (Enter, or 1 s) · {this} · {spent} in {made}"
