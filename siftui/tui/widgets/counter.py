"""The counter: how much of the budget the answer uses, what it holds, and the document."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from siftui.core.agents import Fit
from siftui.core.layout import AnswerKind
from siftui.core.unreachable import counter_line as unreachable_line
from siftui.tui.display import plural
from siftui.tui.fits import answer_fits, measured
from siftui.tui.kinds import document_words, shown_units
from siftui.tui.state import Answer
from siftui.tui.widgets.view import hidden_of

BAR_CELLS = 20


def budget_bar(used: int, cap: int, cells: int = BAR_CELLS) -> str:
    filled = min(cells, round(cells * used / cap)) if cap > 0 else 0
    return "█" * filled + "░" * (cells - filled)


def describe(answer: Answer) -> str:
    """What the answer holds, in words: the map and its pages, a range, grep hits."""
    rendered, kind = answer.rendered, answer.layout.kind
    if kind is AnswerKind.GREP:
        return f"grep · {plural(rendered.grep_hits, 'hit')}"
    shown = shown_units(rendered, answer.options)
    if kind is AnswerKind.MAP:
        return f"map · {shown} shown"
    if kind is AnswerKind.EMPTY:
        return "empty"
    return shown


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
    text.append("  │  " + document_words(answer.doc, answer.options))
    if ocr_pages:
        listed = ", ".join(map(str, ocr_pages[:10])) + (" ..." if len(ocr_pages) > 10 else "")
        text.append(f" · OCR: p. {listed}", style="bold")
    warnings = [hidden_of(answer).counter_line()]
    if answer.unreachable is not None:
        warnings.append(unreachable_line(answer.unreachable))
    warnings = [line for line in warnings if line]
    if warnings:
        text.append("\n")
        text.append(" · ".join(warnings), style="bold")
    agents = agents_text(answer)
    if agents.plain:
        text.append("\n")
        text.append_text(agents)
    return text


_VERDICT_STYLES = {"✓": "green", "⚠": "bold yellow", "✗": "bold red", "?": "dim"}


def agents_text(answer: Answer) -> Text:
    """Each agent's verdict, grouped by the size measured in its unit:
    "agents: 63 tokens (o200k, as an estimate): ✓ Claude Code Read tool, ✓ … · 303 chars: ✓ …" """
    text = Text()
    if answer.agents is not None and answer.agents.error:
        text.append(f"agents: {answer.agents.error}", style="italic")
        return text
    fits = answer_fits(answer)
    if not fits:
        return text
    groups: dict[str, list[Fit]] = {}
    for each in fits:
        groups.setdefault(measured(each), []).append(each)
    text.append("agents: ", style="bold")
    for number, (size, members) in enumerate(groups.items()):
        if number:
            text.append(" · ")
        text.append(f"{size}: ", style="italic")
        for place, each in enumerate(members):
            if place:
                text.append(", ")
            text.append(each.verdict, style=_VERDICT_STYLES.get(each.verdict, ""))
            text.append(f" {each.agent.name}")
    return text


class CounterLine(Static):
    """Lines drawn from the answer shown: its size, what it holds, hidden and
    unreachable text, and which agents it fits."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)
    ocr_pages: reactive[tuple[int, ...]] = reactive((), init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._rows = 0

    def watch_answer(self) -> None:
        self._draw()

    def watch_ocr_pages(self) -> None:
        self._draw()

    def _draw(self) -> None:
        text = counter_text(self.answer, self.ocr_pages) if self.answer is not None else Text()
        # A layout pass (~40 ms on a full screen) only when the number of lines changes.
        width = max(1, self.content_size.width)
        rows = len(text.wrap(self.app.console, width)) if text.plain else 0
        self.update(text, layout=rows != self._rows)
        self._rows = rows
