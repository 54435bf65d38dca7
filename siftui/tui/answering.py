"""The app's answers, worked out beside it: what a refused request falls back on, the
strip's facts carried from answer to answer, when the after-work starts, and the
view's title. The app holds the request and the answer; this holds the bookkeeping
and returns what the app needs.
"""

from __future__ import annotations

from pathlib import Path

from siftui.tui.kinds import AnyOptions
from siftui.tui.state import Answer, Opened, Outcome, Request, Source
from siftui.tui.strip_model import PageFacts

EARLIER = 32
"""Requests remembered to fall back on when the newest is refused."""


class Answering:
    """What the answers of one document carry along."""

    def __init__(self) -> None:
        self._earlier: list[AnyOptions] = []
        self._facts: PageFacts | None = None
        self.plain: Opened | None = None  # the document open last read without OCR
        self._painted: Source | None = None  # the source whose after-work has started

    def asked(self, shown: Answer | None, request: Request, new: Request) -> None:
        """``new`` replaces ``request``: on the same document, ``request`` is one to fall
        back on should ``new`` be refused."""
        if shown is not None and shown.request.source == new.source:
            self._earlier.append(request.options)
            del self._earlier[:-EARLIER]

    def opened(self, opened: Opened) -> None:
        """A document was opened: nothing carries over."""
        if not opened.source.ocr:
            self.plain = opened
        self._facts = None
        self._earlier.clear()

    def context(self) -> tuple[tuple[AnyOptions, ...], PageFacts | None]:
        """What the render worker takes beside the request: the fallbacks, newest first,
        and the facts of the answer before."""
        return tuple(reversed(self._earlier)), self._facts

    def answered(self, outcome: Outcome) -> bool:
        """The outcome answers the request held now: True when the request itself was
        answered (not refused), so the answer is a call."""
        if outcome.answer is None:
            return False
        self._facts = outcome.answer.facts
        if outcome.error:
            return False
        self._earlier.clear()
        return True

    def first_painted(self, answer: Answer, opened: Opened | None) -> Opened | None:
        """The document open, when ``answer`` is its first answer painted (its
        after-work then starts: siftui.tui.background); None otherwise."""
        if answer.doc is None or opened is None:
            return None
        source = answer.request.source
        if source == self._painted or source != opened.source:
            return None
        self._painted = source
        return opened


def view_title(answer: Answer | None, opening: Path | None) -> str:
    """The view's border title: what it shows, or why it shows nothing."""
    if answer is None:
        return f"opening {opening.name} …" if opening else "no document · press o"
    logged = "what the agent received (logged)" if answer.logged else "what the agent receives"
    return f"{logged} · {answer.label()}"
