"""The counter line: how much of the budget the answer uses, and what it holds."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from siftui.render import Rendered
from siftui.tokens import TokenCounts

BAR_CELLS = 20


@dataclass(frozen=True)
class DocTotals:
    page_count: int
    extracted: int
    full_runes: int


def budget_bar(used: int, cap: int, cells: int = BAR_CELLS) -> str:
    filled = min(cells, round(cells * used / cap)) if cap > 0 else 0
    return "█" * filled + "░" * (cells - filled)


def describe(answer: Rendered, is_grep: bool) -> str:
    """The Rendered flags in words: map, a page range or grep hits."""
    if is_grep:
        return f"grep · {answer.grep_hits:,} {'hit' if answer.grep_hits == 1 else 'hits'}"
    if answer.map:
        return f"map · pages {answer.first}-{answer.last} shown"
    if answer.first == 0:
        return "empty"
    return f"pages {answer.first}-{answer.last}"


def counter_text(
    answer: Rendered,
    out_cap: int,
    totals: DocTotals | None,
    is_grep: bool,
    ocr_pages: tuple[int, ...] = (),
) -> Text:
    runes = len(answer.content)
    percent = 100 * runes / out_cap
    text = Text()
    text.append(f"{runes:,}", style="bold")
    text.append(f" / {out_cap:,} runes ")
    text.append(f"{percent:5.1f}% ", style="bold")
    text.append(budget_bar(runes, out_cap), style="bold")
    text.append(f"  ~{runes // 4:,} tokens", style="bold")
    text.append("\n")
    text.append(describe(answer, is_grep), style="italic")
    if totals is None:
        text.append("  │  doc: not open")
        return text
    text.append("  │  doc: ")
    pages = "1 page" if totals.page_count == 1 else f"{totals.page_count:,} pages"
    text.append(pages)
    if totals.extracted < totals.page_count:
        text.append(f" ({totals.extracted:,} extracted)")
    text.append(f" · full text {totals.full_runes:,} runes")
    if ocr_pages:
        listed = ", ".join(map(str, ocr_pages[:10])) + (" ..." if len(ocr_pages) > 10 else "")
        text.append(f" · OCR: p. {listed}", style="bold")
    return text


def tokens_text(runes: int, counts: TokenCounts | None) -> Text:
    """Real token counts beside the contract's runes / 4, with the difference."""
    estimate = runes // 4
    text = Text()
    text.append("tokens: ", style="bold")
    text.append(f"~{estimate:,} runes/4")
    if counts is None:
        text.append("  · counting o200k_base and cl100k_base ...", style="italic")
        return text
    for name, real in counts.tokens:
        text.append("  · ")
        text.append(f"{name} {real:,}", style="bold")
        if real:
            text.append(f" (runes/4 {(estimate - real) / real * 100:+.0f}%)")
    for name, _ in counts.errors:
        text.append("  · ")
        text.append(f"{name}: vocabulary could not be loaded, showing runes/4", style="italic")
    return text
