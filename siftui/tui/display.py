"""How the content is shown on a terminal: every unsafe character made visible.

Display only: the copied string is never touched. (Each line's role comes
from siftui.core.layout.)
"""

from __future__ import annotations

from rich.cells import cell_len

from siftui.core.terminal import escape_controls, escape_lines

__all__ = ["escape_controls", "escape_lines", "plural", "shown_width"]


def shown_width(line: str) -> int:
    """The terminal cells ``line`` takes once escaped (:func:`escape_controls`)."""
    if line.isascii():  # an ASCII control's picture takes one cell, as the control did
        return len(line)
    safe = escape_controls(line)
    # Escaped ASCII is printable, one cell a character; asking Rich costs a call a line.
    return len(safe) if safe.isascii() else cell_len(safe)


def plural(count: int, noun: str) -> str:
    """ "1 page", "3 pages", "1,200 calls"."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
