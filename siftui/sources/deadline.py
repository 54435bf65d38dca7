"""When a reading stops: :class:`Deadline`, checked between pages. Its own module, imported
when a document is read, not when a cached one is found: a frozen dataclass's methods
are compiled when its module is imported."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from siftui.core.messages import quoted
from siftui.sources.pdf_open import TimedOut


@dataclass(frozen=True)
class Deadline:
    """When the reading of ``path`` stops: ``timeout`` seconds after it started (``at``,
    on the monotonic clock; both None: never). :meth:`check`, between pages, raises
    :class:`TimedOut` saying that ``doing`` ("extraction", "inspection") took too long."""

    path: str | os.PathLike[str]
    timeout: float | None = None
    at: float | None = None
    doing: str = "extraction"

    @classmethod
    def start(
        cls, path: str | os.PathLike[str], timeout: float | None, doing: str = "extraction"
    ) -> Deadline:
        """The deadline of a reading that starts now."""
        return cls(path, timeout, None if timeout is None else time.monotonic() + timeout, doing)

    def check(self) -> None:
        if self.at is not None and time.monotonic() > self.at:
            raise TimedOut(
                f"{quoted(self.path)}: {self.doing} took longer than {self.timeout:g} s; stopped"
            )

    def left(self) -> float | None:
        """Seconds left (never below 0), or None without a deadline."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())
