"""A dialog's title: what it asks or shows, as plain text.

Titles name files, which may hold "[/]" (no markup: it would raise) and ESC or a
bidi override (escaped, never sent raw to the terminal).
"""

from __future__ import annotations

from textual.widgets import Label

from siftui.tui.display import escape_controls


def dialog_title(text: str) -> Label:
    return Label(escape_controls(text), classes="dialog-title", markup=False)
