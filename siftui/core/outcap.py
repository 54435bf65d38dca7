"""OutCap as people type it: "20000", "20,000", "20k", "1.5M" (pure).

One parser and one rule for every surface: the CLI's ``--outcap`` (render, walk,
the TUI's command line, mcp, session), the TUI's entry and the MCP server's
host take a whole number from ENTRY_MIN to ENTRY_MAX, and refuse anything else
with INVALID_MESSAGE.
"""

from __future__ import annotations

import argparse
import re
from decimal import Decimal, InvalidOperation

__all__ = [
    "ENTRY_MAX",
    "ENTRY_MIN",
    "INVALID_MESSAGE",
    "check_outcap",
    "invalid_outcap",
    "outcap_argument",
    "parse_outcap",
]

ENTRY_MIN = 1
"""Smallest OutCap accepted."""
ENTRY_MAX = 1_000_000_000
"""Largest OutCap accepted."""
INVALID_MESSAGE = f"OutCap must be a whole number from {ENTRY_MIN:,} to {ENTRY_MAX:,}"
"""The one message for an OutCap refused, wherever it was given."""


def invalid_outcap(given: object) -> str:
    """INVALID_MESSAGE, naming what was given: "OutCap must be ..., not '0'"."""
    return f"{INVALID_MESSAGE}, not {given!r}"


def check_outcap(value: int) -> int:
    """``value`` when it is an OutCap the rule accepts, else ValueError(invalid_outcap)."""
    if isinstance(value, bool) or not isinstance(value, int) or not ENTRY_MIN <= value <= ENTRY_MAX:
        raise ValueError(invalid_outcap(value))
    return value


_NUMBER_RE = re.compile(
    r"""^
    (?P<int>\d{1,3}(?:,\d{3})+      # 20,000
          |\d{1,3}(?:[ ]\d{3})+     # 20 000
          |\d+(?:_\d+)*             # 20000, 20_000
    )?
    (?:\.(?P<frac>\d+))?
    \s*(?P<suffix>[km])?
    $""",
    re.VERBOSE | re.IGNORECASE | re.ASCII,  # ASCII: \d would take "١٠٠" (Arabic digits)
)


def parse_outcap(text: str) -> int | None:
    """Parse an OutCap typed by the user; None if it is not acceptable.

    Accepts plain digits ("20000"), grouped digits ("20,000", "20_000",
    "20 000") and a k / M suffix ("20k", "1.5M").  The result must be a whole
    number from ENTRY_MIN to ENTRY_MAX.
    """
    match = _NUMBER_RE.match(text.strip(" \t\r\n"))
    if match is None:
        return None
    int_part, frac_part, suffix = match.group("int", "frac", "suffix")
    if int_part is None and frac_part is None:
        return None
    digits = re.sub(r"[,_ ]", "", int_part or "0")
    try:
        number = Decimal(f"{digits}.{frac_part or '0'}")
    except InvalidOperation:  # pragma: no cover - the regex admits digits only
        return None
    if suffix is not None:
        number *= 1_000 if suffix.lower() == "k" else 1_000_000
    if number != number.to_integral_value():
        return None
    result = int(number)
    if not ENTRY_MIN <= result <= ENTRY_MAX:
        return None
    return result


def outcap_argument(text: str) -> int:
    """``--outcap`` as the TUI's entry takes it (an argparse type): 20000, 20,000, 20k,
    1.5M, from ENTRY_MIN to ENTRY_MAX; anything else is INVALID_MESSAGE."""
    value = parse_outcap(text)
    if value is None:
        raise argparse.ArgumentTypeError(invalid_outcap(text))
    return value
