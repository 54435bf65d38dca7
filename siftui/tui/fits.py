"""The agents' check of the answer shown, from the answer's own values.

Pure: the sizes in characters, bytes and lines are measured on the content;
the sizes in tokens are the token line's counts of it (``Answer.counts``), so
nothing is counted twice. Until they are known a token cap reads "counting".
An entry whose tokenizer is not the agent's own is labelled an estimate, as
siftui.core.agents labels it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from siftui.tui.state import Answer

if TYPE_CHECKING:
    from collections.abc import Sequence

    from siftui.core.agents import Agent, Fit, TokenCount
    from siftui.sources.tokens import TokenCounts

COUNTING = "counting tokens …"


def _counter(counts: TokenCounts | None) -> TokenCount:
    def count(text: str, encoding: str) -> int:
        if counts is None:
            raise ValueError(COUNTING)
        for name, tokens in counts.tokens:
            if name == encoding:
                return tokens
        for name, error in counts.errors:
            if name == encoding:
                raise ValueError(error)
        raise ValueError(f"{encoding} is not counted")

    return count


def answer_fits(answer: Answer) -> list[Fit]:
    """Each agent's verdict on the answer shown ([] without an agents table)."""
    if answer.agents is None or not answer.agents.table:
        return []
    return text_fits(answer.rendered.content, answer.agents.table, answer.counts)


def text_fits(text: str, table: Sequence[Agent], counts: TokenCounts | None) -> list[Fit]:
    """Each agent's verdict on ``text``, its tokens taken from ``counts`` (the token
    line's; "counting" until known, and when they are another text's)."""
    from siftui.core.agents import fit  # with the agents' table, after the first frame

    if counts is not None and counts.runes != len(text):
        counts = None  # counts of another text: not these
    return fit(text, table, _counter(counts))


def measured(fit_: Fit) -> str:
    """The size in the agent's unit: "3,210 tokens (o200k, as an estimate)", "counting tokens …"."""
    if fit_.size is None and fit_.measured.endswith(COUNTING):
        return COUNTING
    return fit_.measured


def short(fit_: Fit) -> str:
    """ "✓ Claude Code Read tool 3,210 tokens (o200k, as an estimate)" """
    return f"{fit_.verdict} {fit_.agent.name} {measured(fit_)}"
