"""The token line: real o200k_base and cl100k_base counts of the answer, beside runes / 4.

It owns its worker and its cache: counting starts only once an answer is on
screen, never blocks, and an old count never lands beside a newer answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from siftui.tui.state import Answer

if TYPE_CHECKING:
    from siftui.sources.tokens import TokenCounts

CACHE_SIZE = 16


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
    """Counts the answer shown in its own worker and caches the last few counts."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)

    class Counted(Message):
        """``content`` has these counts (the app puts them in the answer)."""

        def __init__(self, content: str, counts: TokenCounts) -> None:
            super().__init__()
            self.content = content
            self.counts = counts

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._cache: dict[str, TokenCounts] = {}
        self._counting: str | None = None

    def watch_answer(self, answer: Answer | None) -> None:
        if answer is None:
            self.update("", layout=False)
            return
        content = answer.rendered.content
        counts = answer.counts or self._cache.get(content)
        self._show(content, counts)
        if counts is None and content is not self._counting:
            self._counting = content  # after the answer is painted: counting must not delay it
            self.call_after_refresh(self._count, content)

    def _show(self, content: str, counts: TokenCounts | None) -> None:
        room = self.content_size.width or None  # None before the first layout: the long form
        self.update(tokens_text(len(content), counts, room), layout=False)

    def on_resize(self) -> None:
        if self.answer is not None:
            content = self.answer.rendered.content
            self._show(content, self.answer.counts or self._cache.get(content))

    @work(thread=True, exclusive=True, group="tokens", description="count the answer's tokens")
    def _count(self, content: str) -> None:
        from siftui.sources.tokens import token_counts  # after the first frame, not at start

        counts = token_counts(content)
        self.app.call_from_thread(self._counted, content, counts)

    def _counted(self, content: str, counts: TokenCounts) -> None:
        if self._counting is content:
            self._counting = None
        self._cache[content] = counts
        while len(self._cache) > CACHE_SIZE:
            del self._cache[next(iter(self._cache))]
        if self.answer is not None and self.answer.rendered.content == content:
            self._show(content, counts)
        self.post_message(self.Counted(content, counts))  # the counter's agents use them
