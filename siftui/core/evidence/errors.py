"""The one error of the evidence tools: a tool error with a one-line message."""

from __future__ import annotations

__all__ = ["EvidenceError"]


class EvidenceError(Exception):
    """A tool's refusal; ``message`` is what the agent reads, as EVIDENCE.md words it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
