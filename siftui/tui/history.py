"""The calls an agent has made so far, with back and forward, and what they cost."""

from __future__ import annotations

from dataclasses import dataclass, field

from siftui.render import Options


@dataclass(frozen=True)
class Spent:
    options: Options
    runes: int


@dataclass
class CallHistory:
    """Calls in order; ``position`` is the one shown. A new call drops any forward ones."""

    calls: list[Spent] = field(default_factory=list)
    position: int = -1

    def record(self, options: Options, runes: int) -> None:
        if self.position >= 0 and self.calls[self.position].options == options:
            return
        del self.calls[self.position + 1 :]
        self.calls.append(Spent(options, runes))
        self.position = len(self.calls) - 1

    def back(self) -> Options | None:
        if self.position <= 0:
            return None
        self.position -= 1
        return self.calls[self.position].options

    def forward(self) -> Options | None:
        if self.position + 1 >= len(self.calls):
            return None
        self.position += 1
        return self.calls[self.position].options

    def spent_runes(self) -> int:
        """Runes received in the calls up to and including the one shown."""
        return sum(call.runes for call in self.calls[: self.position + 1])

    def clear(self) -> None:
        self.calls.clear()
        self.position = -1
