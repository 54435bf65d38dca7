"""Text made safe for a terminal: every character that a terminal would obey rather
than show (C0 and C1 controls, which start escape sequences, and the bidi controls
that reorder what is shown) made visible.

Display only: what an agent receives, what is copied and what goes to a pipe or a
file is never changed; this is applied where text from a document, a log or an
agent reaches a terminal.
"""

from __future__ import annotations

import functools
import re

# C0 controls show as their Unicode "control picture" (U+2400 + code).
_C0_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_C0_PICTURES[0x7F] = "\u2421"  # ␡
# Characters that reorder or hide text on a terminal (bidi overrides and isolates).
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}

_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


@functools.cache
def _unsafe_in_text() -> re.Pattern[str]:
    """A terminal's own line breaks and tabs move the cursor, nothing more. Compiled on
    first use (the command line's output), not when the TUI imports this module."""
    return re.compile(
        "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
    )


def _escape_char(char: str) -> str:
    code = ord(char)
    if code in _C0_PICTURES:
        return _C0_PICTURES[code]
    if 0x80 <= code <= 0x9F or code in _BIDI:
        return f"<U+{code:04X}>"
    if 0xD800 <= code <= 0xDFFF:
        return "\N{REPLACEMENT CHARACTER}"
    return char


def escape_controls(line: str) -> str:
    """``line`` with every control, bidi or surrogate character made visible."""
    if _UNSAFE.search(line) is None:
        return line
    return _UNSAFE.sub(lambda found: _escape_char(found.group()), line)


def escape_lines(text: str) -> str:
    """``text`` escaped line by line (:func:`escape_controls`): its line breaks stay."""
    return "\n".join(map(escape_controls, text.split("\n")))


def terminal_text(text: str) -> str:
    """``text`` as a terminal may print it: line breaks and tabs kept, every other
    control (an escape sequence's start, a carriage return that overwrites a line),
    C1 and bidi control made visible."""
    unsafe = _unsafe_in_text()
    if unsafe.search(text) is None:
        return text
    return unsafe.sub(lambda found: _escape_char(found.group()), text)


def escape_in_place(line: str) -> str:
    """``line`` with every unsafe character made visible as one character (a C0
    control's picture, U+FFFD for a C1 or bidi control or a surrogate), so each
    character keeps its index: for an editable field, whose cursor counts characters."""
    if _UNSAFE.search(line) is None:
        return line
    return _UNSAFE.sub(
        lambda found: _C0_PICTURES.get(ord(found.group()), "\N{REPLACEMENT CHARACTER}"), line
    )
