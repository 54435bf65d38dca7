"""parse_outcap in whole numbers agrees with exact decimal arithmetic on what people type."""

from __future__ import annotations

import re
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from siftui.core.outcap import ENTRY_MAX, ENTRY_MIN, parse_outcap


def reference(text: str) -> int | None:
    """The rule with Decimal: digits (grouped or not), an optional fraction, k or M."""
    match = re.fullmatch(
        r"(\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+|\d+(?:_\d+)*)?(?:\.(\d+))?\s*([kmKM])?",
        text.strip(),
    )
    if match is None or (match.group(1) is None and match.group(2) is None):
        return None
    number = Decimal(re.sub(r"[,_ ]", "", match.group(1) or "0") + "." + (match.group(2) or "0"))
    if match.group(3):
        number *= 1_000 if match.group(3).lower() == "k" else 1_000_000
    if number != number.to_integral_value() or not ENTRY_MIN <= number <= ENTRY_MAX:
        return None
    return int(number)


digits = st.text("0123456789", min_size=0, max_size=14)
typed = st.builds(
    lambda whole, fraction, dot, suffix, pad: f"{pad}{whole}{dot}{fraction}{suffix}{pad}",
    digits,
    digits,
    st.sampled_from(["", "."]),
    st.sampled_from(["", "k", "M", "m", " k"]),
    st.sampled_from(["", " "]),
)


@given(typed)
def test_agrees_with_decimal_arithmetic(text: str) -> None:
    assert parse_outcap(text) == reference(text)


@given(st.integers(ENTRY_MIN, ENTRY_MAX))
def test_every_outcap_written_out_is_read_back(value: int) -> None:
    assert parse_outcap(str(value)) == value
    assert parse_outcap(f"{value:,}") == value
    if value % 1000 == 0:
        assert parse_outcap(f"{value // 1000}k") == value


def test_thousands_of_digits_are_refused_or_read_exactly() -> None:
    assert parse_outcap("9" * 6000) is None
    assert parse_outcap("1." + "0" * 6000) == 1
    assert parse_outcap("0" * 6000 + "25k") == 25_000
    assert parse_outcap("0." + "0" * 6000 + "1M") is None
