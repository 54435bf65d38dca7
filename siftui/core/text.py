"""Text rules the PDF answers (docs/SPEC.md) and the Word answers (docs/WORD.md) share.

Pure: no I/O. White space collapsed to one line, lone surrogates made encodable,
and the value of a number as an agent types it in a range.
"""

from __future__ import annotations

import re

__all__ = [
    "LONE_SURROGATE",
    "MAX_DIGITS",
    "collapse_whitespace",
    "typed_number",
    "without_surrogates",
]

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point in a Python str: always a lone half (a decoded JSON string or
UTF-8 joins every valid pair into one code point), so not valid text, with no UTF-8
form; a name's undecodable byte is held as one too."""
# A number with more significant digits than this is beyond every page or paragraph
# count; int() would refuse a digit string past 4300 digits with a plain ValueError.
MAX_DIGITS = 18
_HUGE = 10**MAX_DIGITS


def collapse_whitespace(text: str) -> str:
    """``text`` on one line: every run of white space one space, none at the ends."""
    return " ".join(text.split())


def without_surrogates(text: str) -> str:
    """``text`` with every lone surrogate (a Doc read from JSON can hold one, and it
    has no UTF-8 form) as U+FFFD: one code point for one, so positions and
    lengths stay those of the original."""
    return LONE_SURROGATE.sub("\ufffd", text)


def typed_number(digits: str) -> int:
    """The value of an ASCII digit string, or 10**18 (more than any count) when it
    has more significant digits than :data:`MAX_DIGITS`."""
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= MAX_DIGITS else _HUGE
