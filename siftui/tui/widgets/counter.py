"""The counter: how much of the budget the answer uses, what it holds, and the document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from siftui.core.budget import BYTES, byte_bound, check_unit
from siftui.core.layout import AnswerKind
from siftui.tui.display import plural
from siftui.tui.fits import answer_fits, measured
from siftui.tui.kinds import document_words, shown_units
from siftui.tui.state import Answer
from siftui.tui.widgets.view import hidden_line

if TYPE_CHECKING:
    from siftui.core.agents import Fit

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


def budget_text(answer: Answer, *, compact: bool = False) -> Text:
    """ "11,006 / 20,000 runes  55.0% ███████████░░░░░░░░░  ~2,751 tokens": the content's
    size in the OutCap's unit (runes, or UTF-8 bytes), and the contract's runes / 4;
    ``compact``: single spaces and a bar of 8 cells."""
    content = answer.rendered.content
    unit = check_unit(answer.options.unit)
    size, word = unit.size(content), "bytes" if unit is BYTES else "runes"
    out_cap = answer.options.out_cap
    percent, gap = f"{100 * size / out_cap:5.1f}%", "  "
    if compact:
        percent, gap = percent.lstrip(), " "
    text = Text()
    text.append(f"{size:,}", style="bold")
    text.append(f" / {out_cap:,} {word} ")
    text.append(percent + " ", style="bold")
    text.append(budget_bar(size, out_cap, 8 if compact else BAR_CELLS), style="bold")
    text.append(f"{gap}~{len(content) // 4:,} tokens", style="bold")
    return text


def reach_line(answer: Answer) -> str:
    """What no call shows, in the counter's words ("" until a walk has said)."""
    if answer.unreachable is None:
        return ""
    from siftui.core.unreachable import counter_line  # loaded by the walk that found it

    return counter_line(answer.unreachable)


def bound_text(answer: Answer) -> str:
    """For a budget in bytes, the bound it sets on any byte-level tokenizer's tokens."""
    return byte_bound(answer.options.out_cap) if answer.options.unit == BYTES.name else ""


AGENTS_IN_FULL, AGENTS_NAMED, AGENTS_COUNTED = range(3)
"""How the counter lists the agents, from the longest to the shortest: each with its
verdict; ✗ and ⚠ named, the rest counted; all counted."""


def counter_text(answer: Answer, *, agents: int = AGENTS_IN_FULL) -> Text:
    """The counter's lines, the agents listed as ``agents`` says (shorter when the full
    list has no room: the counter's last lines are cut at its height)."""
    text = budget_text(answer)
    text.append("\n")
    text.append(describe(answer), style="italic")
    if answer.doc is None:
        text.append("  │  as logged (the document is not open)")
        return text
    text.append("  │  " + document_words(answer.doc, answer.options))
    if ocr_pages := answer.ocr_pages:
        listed = ", ".join(map(str, ocr_pages[:10])) + (" ..." if len(ocr_pages) > 10 else "")
        text.append(f" · OCR: p. {listed}", style="bold")
    warnings = [line for line in (hidden_line(answer), reach_line(answer)) if line]
    if warnings:
        text.append("\n")
        text.append(" · ".join(warnings), style="bold")
    if bound := bound_text(answer):
        text.append("\n")
        text.append(bound, style="italic")
    verdicts = (
        agents_text(answer)
        if agents == AGENTS_IN_FULL
        else agents_summary(answer, named=agents == AGENTS_NAMED)
    )
    if verdicts.plain:
        text.append("\n")
        text.append_text(verdicts)
        if agents != AGENTS_IN_FULL:
            text.append(" (d: details)", style="italic")
    return text


_VERDICT_STYLES = {"✓": "green", "⚠": "bold yellow", "✗": "bold red", "?": "dim"}


def _fits_or_why(answer: Answer) -> tuple[Text, list[Fit]]:
    """An empty line and the agents' fits, or the line saying why there are none."""
    text = Text()
    if answer.agents is not None and answer.agents.error:
        text.append(f"agents: {answer.agents.error}", style="italic")
        return text, []
    return text, answer_fits(answer)


def agents_text(answer: Answer) -> Text:
    """Each agent's verdict, grouped by the size measured in its unit:
    "agents: 63 tokens (o200k, as an estimate): ✓ Claude Code Read tool, ✓ … · 303 chars: ✓ …" """
    text, fits = _fits_or_why(answer)
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


def summary_text(answer: Answer) -> Text:
    """The counter in one line, for a short terminal: the budget and what the answer holds."""
    text = budget_text(answer, compact=True)
    text.append(" · ")
    text.append(describe(answer), style="italic")
    return text


def alerts_text(answer: Answer) -> Text:
    """The rest of the counter in one line, for a short terminal: the file (and the key
    that shows every detail in full), hidden and unreachable text, the agents over
    their caps, the bytes bound, the document."""
    text = Text()
    text.append(answer.name, style="bold")
    text.append(" (d: details)", style="italic")  # first, where no ellipsis cuts it
    parts: list[Text] = []
    if answer.doc is not None:
        warnings = [hidden_line(answer), reach_line(answer)]
        parts.extend(Text(line, style="bold") for line in warnings if line)
    if (agents := agents_summary(answer)).plain:
        parts.append(agents)
    if answer.options.unit == BYTES.name:  # what a bytes budget promises, in short
        cap = answer.options.out_cap
        parts.append(Text(f"at most {cap:,} tokens in any byte-level tokenizer"))
    if answer.doc is None:
        parts.append(Text("as logged (the document is not open)"))
    else:
        parts.append(Text(document_words(answer.doc, answer.options).removeprefix("doc: ")))
    for part in parts:
        text.append(" · ")
        text.append_text(part)
    return text


def agents_summary(answer: Answer, *, named: bool = True) -> Text:
    """ "agents: ✗ Codex CLI shell output, ⚠ …, 5 ✓, 2 ?": who is over its cap or warning
    level, then how many fit and how many are not measured yet (not ``named``: "3 ✗,
    1 ⚠, 5 ✓")."""
    text, fits = _fits_or_why(answer)
    if not fits:
        return text
    shown: list[tuple[str, str]] = []
    if named:
        over = (each for each in fits if each.verdict in "✗⚠")
        for each in sorted(over, key=lambda f: f.verdict != "✗"):
            shown.append((each.verdict, f" {each.agent.name}"))
    for verdict in "✓?" if named else "✗⚠✓?":
        if count := sum(each.verdict == verdict for each in fits):
            shown.append((f"{count:,} {verdict}", ""))
    text.append("agents: ", style="bold")
    for place, (mark, name) in enumerate(shown):
        if place:
            text.append(", ")
        text.append(mark, style=_VERDICT_STYLES.get(mark[-1], ""))
        text.append(name)
    return text


class CounterLine(Static):
    """Lines drawn from the answer shown: its size, what it holds, hidden and
    unreachable text, and which agents it fits."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._rows = 0
        self._drawn = Text()

    def watch_answer(self) -> None:
        self._draw()

    def _text(self, agents: int = AGENTS_IN_FULL) -> Text:
        answer = self.answer
        return Text() if answer is None else counter_text(answer, agents=agents)

    def _fitted(self, width: int) -> tuple[Text, int]:
        """The text at ``width``, its agents shortened until it fits the counter's height,
        and the rows it takes."""
        text = self._text()
        rows = len(text.wrap(self.app.console, width)) if text.plain else 0
        room = self.styles.max_height
        for shorter in (AGENTS_NAMED, AGENTS_COUNTED):
            # Cut at its height, the list (last) lost agents, a ✗ too, without a sign:
            # shorter, the agents over their caps are named, or at least counted.
            if self.answer is None or room is None or not room.is_cells or rows <= room.value:
                break
            text = self._text(shorter)
            rows = len(text.wrap(self.app.console, width))
        return text, rows

    def _draw(self) -> None:
        width = self.content_size.width
        if width:
            text, rows = self._fitted(width)
        else:
            # Not laid out yet (the first answer comes before the first layout): wrapped
            # at one column, it was hundreds of rows, its agents always counted. The
            # layout measures the whole text; on_resize fits it once it has a width.
            text, rows = self._text(), -1
        # A layout pass (~40 ms on a full screen) only when the number of lines changes.
        self.update(text, layout=rows != self._rows)
        self._rows, self._drawn = rows, text

    def on_resize(self) -> None:
        if not self.content_size.width:
            return
        text, rows = self._fitted(self.content_size.width)
        if text != self._drawn:  # the same text was measured by the layout that sized it
            self.update(text, layout=rows != self._rows)
        self._rows, self._drawn = rows, text


class SummaryLine(Static):
    """The counter's first line alone (a short terminal shows it instead of the counter)."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)

    def watch_answer(self, answer: Answer | None) -> None:
        self.update(summary_text(answer) if answer is not None else "", layout=False)


class AlertsLine(Static):
    """The rest of the counter in one line (a short terminal shows it instead)."""

    answer: reactive[Answer | None] = reactive(None, init=False, always_update=True)

    def watch_answer(self, answer: Answer | None) -> None:
        self.update(alerts_text(answer) if answer is not None else "", layout=False)
