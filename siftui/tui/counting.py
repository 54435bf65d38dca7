"""Real token counts of the answer and of each page, counted in workers."""

from __future__ import annotations

from textual import work
from textual.widgets import Static
from textual.worker import get_current_worker

from siftui.doc import Doc
from siftui.tokens import TokenCounts, VocabularyError, count_pages, token_counts
from siftui.tui.base import AppBase
from siftui.tui.counter import tokens_text
from siftui.tui.pagestrip import PageStrip

TOKEN_CACHE_SIZE = 16


class CountingMixin(AppBase):
    """Shows o200k_base and cl100k_base counts beside runes / 4, never blocking."""

    _token_cache: dict[str, TokenCounts]

    def _show_tokens(self, content: str) -> None:
        counts = self._token_cache.get(content)
        self.query_one("#tokens", Static).update(tokens_text(len(content), counts), layout=False)
        if counts is None:
            self._count_tokens(content)

    @work(thread=True, exclusive=True, group="tokens", description="count the answer's tokens")
    def _count_tokens(self, content: str) -> None:
        counts = token_counts(content)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._counted, content, counts)

    def _counted(self, content: str, counts: TokenCounts) -> None:
        self._token_cache[content] = counts
        while len(self._token_cache) > TOKEN_CACHE_SIZE:
            del self._token_cache[next(iter(self._token_cache))]
        if self.shown is not None and self.shown.answer.content == content:
            self.query_one("#tokens", Static).update(
                tokens_text(len(content), counts), layout=False
            )

    @work(thread=True, exclusive=True, group="page-tokens", description="count each page's tokens")
    def _count_pages(self, doc: Doc) -> None:
        try:
            counts = count_pages(doc, "o200k_base")
        except VocabularyError:
            return  # the tokens line already says the vocabulary could not be loaded
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._pages_counted, doc, counts)

    def _pages_counted(self, doc: Doc, counts: tuple[int, ...]) -> None:
        if self.doc is doc:
            self.query_one(PageStrip).set_page_tokens(counts)
