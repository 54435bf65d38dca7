"""An Input that never sends a control character of its value to the terminal.

A field can hold what a log or a document put there (a replayed call's pages and
grep): its value stays exactly that, and is drawn with each unsafe character shown
as one visible one (siftui.core.terminal.escape_in_place), so the cursor still
counts the value's characters.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Input

from siftui.core.terminal import escape_in_place


class SafeInput(Input):
    @property
    def _value(self) -> Text:
        text = super()._value
        shown = escape_in_place(text.plain)
        if shown == text.plain:
            return text
        safe = Text(shown, no_wrap=True, overflow="ignore", end="")
        for span in text.spans:  # the highlighter's, on the same indices
            safe.stylize(span.style, span.start, span.end)
        return safe
