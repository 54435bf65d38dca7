"""What the after-work finds, each kind of fact a frozen value.

Workers make them after an answer is painted (siftui.tui.extras for the answer's
own, siftui.tui.background and siftui.tui.hidden_flow for the document's); the app
hands each to :meth:`siftui.tui.extras.Extras.found`. A module apart, imported
when the first fact is made or kept: each frozen dataclass costs Python 3.11 five
or six methods compiled at import, which a start would otherwise pay before its
first frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from siftui.tui.found import Fact
from siftui.tui.state import Agents, Opened, Source

if TYPE_CHECKING:
    from siftui.core.findings import Inspection
    from siftui.core.unreachable import Unreachable
    from siftui.sources.tokens import TokenCounts
    from siftui.tui.steps import Notice

ReachKey = tuple[Source, int, str]
"""What an unreachable tail is worked out for: the document, the OutCap, its unit."""


@dataclass(frozen=True)
class Dressing(Fact):
    """An answer's own after-work: the token counts of ``content`` and the tail no
    ``pages=`` call shows at ``key`` (each None when it was not asked for)."""

    content: str | None
    counts: TokenCounts | None
    key: ReachKey | None
    reach: Unreachable | None


@dataclass(frozen=True)
class AgentsRead(Fact):
    agents: Agents


@dataclass(frozen=True)
class DocumentFact(Fact):
    """A fact about the document ``opened``: kept only while it is the one open."""

    opened: Opened


@dataclass(frozen=True)
class OcrRead(DocumentFact):
    """The document's after-work starts: the pages without text OCR read (none, without
    OCR); its page tokens and images are not known yet."""

    pages: tuple[int, ...]


@dataclass(frozen=True)
class PageTokens(DocumentFact):
    counts: tuple[int, ...]  # o200k_base tokens of each page's text


@dataclass(frozen=True)
class Images(DocumentFact):
    shown: tuple[bool, ...]  # which pages hold images (of the pages without text)


@dataclass(frozen=True)
class HiddenNote(DocumentFact):
    note: str  # why hidden text is not known yet (or at all)


@dataclass(frozen=True)
class HiddenFound(DocumentFact):
    inspection: Inspection
    notice: Notice | None  # what the app says of it (the alarms), if anything
