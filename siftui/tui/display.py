"""How the content is shown on a terminal: every unsafe character made visible.

Display only: the copied string is never touched. (Each line's role comes
from siftui.core.layout.)
"""

from __future__ import annotations

import re

from rich.cells import cell_len

# C0 controls show as their Unicode "control picture" (U+2400 + code).
_C0_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_C0_PICTURES[0x7F] = "\u2421"  # ␡
# Characters that reorder or hide text on a terminal (bidi overrides and isolates).
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}


def _escape_char(char: str) -> str:
    code = ord(char)
    if code in _C0_PICTURES:
        return _C0_PICTURES[code]
    if 0x80 <= code <= 0x9F or code in _BIDI:
        return f"<U+{code:04X}>"
    if 0xD800 <= code <= 0xDFFF:
        return "\N{REPLACEMENT CHARACTER}"
    return char


_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def escape_controls(line: str) -> str:
    """``line`` with every control, bidi or surrogate character made visible."""
    if _UNSAFE.search(line) is None:
        return line
    return _UNSAFE.sub(lambda found: _escape_char(found.group()), line)


def escape_lines(text: str) -> str:
    """``text`` escaped line by line (:func:`escape_controls`): its line breaks stay."""
    return "\n".join(map(escape_controls, text.split("\n")))


def shown_width(line: str) -> int:
    """The terminal cells ``line`` takes once escaped (:func:`escape_controls`)."""
    if line.isascii():  # an ASCII control's picture takes one cell, as the control did
        return len(line)
    safe = escape_controls(line)
    # Escaped ASCII is printable, one cell a character; asking Rich costs a call a line.
    return len(safe) if safe.isascii() else cell_len(safe)


def plural(count: int, word: str) -> str:
    """ "1 page", "3 pages", "1,200 calls"."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"
