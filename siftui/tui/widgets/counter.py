"""The counter: how much of the budget the answer uses, what it holds, and the document."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from siftui.layout import Kind
from siftui.tui.state import Answer, shown_pages, totals_of

BAR_CELLS = 20


def budget_bar(used: int, cap: int, cells: int = BAR_CELLS) -> str:
    filled = min(cells, round(cells * used / cap)) if cap > 0 else 0
    return "█" * filled + "░" * (cells - filled)


def plural(count: int, word: str) -> str:
    """ "1 page", "3 pages", "1,200 calls"."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def describe(answer: Answer) -> str:
    """What the answer holds, in words: the map and its pages, a range, grep hits."""
    rendered, kind = answer.rendered, answer.layout.kind
    if kind is Kind.GREP:
        return f"grep · {plural(rendered.grep_hits, 'hit')}"
    if kind is Kind.MAP:
        return f"map · {shown_pages(answer)} shown"
    if kind is Kind.EMPTY:
        return "empty"
    return shown_pages(answer)


def counter_text(answer: Answer, ocr_pages: tuple[int, ...] = ()) -> Text:
    runes = len(answer.rendered.content)
    out_cap = answer.options.out_cap
    text = Text()
    text.append(f"{runes:,}", style="bold")
    text.append(f" / {out_cap:,} runes ")
    text.append(f"{100 * runes / out_cap:5.1f}% ", style="bold")
    text.append(budget_bar(runes, out_cap), style="bold")
    text.append(f"  ~{runes // 4:,} tokens", style="bold")
    text.append("\n")
    text.append(describe(answer), style="italic")
    if answer.doc is None:
        text.append("  │  as logged (the document is not open)")
        return text
    totals = totals_of(answer.doc)
    text.append("  │  doc: " + plural(totals.page_count, "page"))
    if totals.extracted < totals.page_count:
        text.append(f" ({totals.extracted:,} extracted)")
    text.append(f" · full text {totals.full_runes:,} runes")
    if ocr_pages:
        listed = ", ".join(map(str, ocr_pages[:10])) + (" ..." if len(ocr_pages) > 10 else "")
        text.append(f" · OCR: p. {listed}", style="bold")
    return text


class CounterLine(Static):
    """Two fixed lines drawn from the answer shown."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)
    ocr_pages: reactive[tuple[int, ...]] = reactive((), init=False)

    def watch_answer(self) -> None:
        self._draw()

    def watch_ocr_pages(self) -> None:
        self._draw()

    def _draw(self) -> None:
        # Fixed-height lines: no layout pass needed (it costs ~40 ms on a full screen).
        text = counter_text(self.answer, self.ocr_pages) if self.answer is not None else ""
        self.update(text, layout=False)
