"""The size of an evidence result, as the read_pdf screen shows an answer's: the token
line (runes/4, o200k_base, cl100k_base) and the agents' check, in one line under the
result (its border's subtitle, so no row of the result is spent on it).

The text measured is what the agent reads of the result: its text blocks joined by
newlines, or the refusal's line (what ``siftui session --tokens`` measures too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from siftui.tui.evidence.model import Result
from siftui.tui.fits import text_fits
from siftui.tui.widgets.tokens import tokens_text

if TYPE_CHECKING:
    from siftui.core.agents import Agent
    from siftui.sources.tokens import TokenCounts


def measured_text(result: Result) -> str:
    """The text an agent reads of ``result``."""
    return "\n".join(result.texts)


def sizes_line(
    result: Result,
    counts: TokenCounts | None,
    table: Sequence[Agent] = (),
    agents_error: str = "",
) -> str:
    """ "tokens: ~2,516 runes/4 · o200k_base 2,267 = 0.90× · cl100k_base 2,263 = 0.90× ·
    agents: ✗ Codex CLI shell output, 7 ✓" (``counts`` None: still counting)."""
    from siftui.core.agents import verdicts_line  # with the agents' table, once counted

    text = measured_text(result)
    line = tokens_text(len(text), counts, room=0).plain  # the token line's short form
    if counts is None:
        return line
    if agents_error:
        return f"{line} · agents: {agents_error}"
    if table:
        line += " · " + verdicts_line(text_fits(text, table, counts))
    return line
