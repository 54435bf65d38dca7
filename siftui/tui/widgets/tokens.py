"""The token line: real o200k_base and cl100k_base counts of the answer, beside runes / 4.

The counts are the answer's own (``Answer.counts``): the app counts an answer once
it is on screen, in a worker that never blocks it, and shows it again with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from siftui.tui.state import Answer

if TYPE_CHECKING:
    from siftui.sources.tokens import TokenCounts


def tokens_text(runes: int, counts: TokenCounts | None, room: int | None = None) -> Text:
    """ "tokens: ~4,066 runes/4 · o200k_base 9,553 = 2.35× runes/4 · cl100k_base ...";
    when that is wider than ``room`` cells, the short form
    "tokens: ~4,066 runes/4 · o200k_base 9,553 = 2.35× · cl100k_base ..."."""
    text = _tokens_text(runes, counts, short=False)
    if room is not None and text.cell_len > room:
        return _tokens_text(runes, counts, short=True)
    return text


def _tokens_text(runes: int, counts: TokenCounts | None, *, short: bool) -> Text:
    estimate = runes // 4
    gap = " · " if short else "  · "
    text = Text()
    text.append("tokens: ", style="bold")
    text.append(f"~{estimate:,} runes/4")
    if counts is None:
        text.append(f"{gap}counting o200k_base and cl100k_base ...", style="italic")
        return text
    for name, real in counts.tokens:
        text.append(gap)
        text.append(f"{name} {real:,}", style="bold")
        if estimate:
            text.append(f" = {real / estimate:.2f}×" + ("" if short else " runes/4"))
    for name, _ in counts.errors:
        text.append(gap)
        text.append(f"{name}: vocabulary could not be loaded, showing runes/4", style="italic")
    return text


class TokenLine(Static):
    """The token counts of the answer shown, drawn from it: "counting ..." until the app
    dresses the answer with them (siftui.tui.extras counts it after it is painted)."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)

    def watch_answer(self) -> None:
        self._show()

    def on_resize(self) -> None:
        self._show()

    def _show(self) -> None:
        answer = self.answer
        if answer is None:
            self.update("", layout=False)
            return
        room = self.content_size.width or None  # None before the first layout: the long form
        self.update(tokens_text(len(answer.rendered.content), answer.counts, room), layout=False)
