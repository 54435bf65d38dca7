"""The OutCap slider's scale: 1,000 .. 1,000,000 runes, logarithmic, with "nice" steps
(1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 per decade). Change the steps here."""

from __future__ import annotations

import math

from siftui.core.render import DEFAULT_OUT_CAP

__all__ = [
    "DEFAULT_OUT_CAP",
    "LADDER",
    "SLIDER_MAX",
    "SLIDER_MIN",
    "ladder_step",
    "position_of",
    "value_at",
]

SLIDER_MIN = 1_000
"""Left end of the slider, in runes."""
SLIDER_MAX = 1_000_000
"""Right end of the slider, in runes."""

_MANTISSAS_TENTHS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
LADDER: tuple[int, ...] = (
    *(m * 10 ** (k - 1) for k in (3, 4, 5) for m in _MANTISSAS_TENTHS),
    SLIDER_MAX,
)
"""The "nice" values the keyboard steps through, ascending, 1,000 .. 1,000,000."""

_LOG_MIN = math.log10(SLIDER_MIN)
_LOG_SPAN = math.log10(SLIDER_MAX) - _LOG_MIN
BIG_STEP = 10  # ladder steps per PageUp/PageDown: one decade


def ladder_step(value: int, steps: int) -> int:
    """Move `steps` ladder values up (positive) or down (negative) from `value`.

    From a value not on the ladder the first step goes to the next ladder value in
    that direction.  Stepping stops at the ends of the ladder; a value beyond an
    end stays put when stepping further out.
    """
    current = value
    for _ in range(abs(steps)):
        if steps > 0:
            nxt = next((v for v in LADDER if v > current), None)
        else:
            nxt = next((v for v in reversed(LADDER) if v < current), None)
        if nxt is None:
            break
        current = nxt
    return current


def _round_sig(x: float, digits: int = 3) -> int:
    """Round a positive number to `digits` significant digits, as an int."""
    if x <= 0:
        return 0
    exponent = math.floor(math.log10(x)) - digits + 1
    scale = 10.0**exponent
    return round(round(x / scale) * scale)


def value_at(fraction: float) -> int:
    """The slider value at `fraction` (0 = left end, 1 = right end) of the track.

    Log mapping, rounded to 3 significant digits, clamped to the slider range.
    """
    fraction = min(1.0, max(0.0, fraction))
    value = _round_sig(10 ** (_LOG_MIN + _LOG_SPAN * fraction))
    return min(SLIDER_MAX, max(SLIDER_MIN, value))


def position_of(value: int) -> float:
    """The fraction (0..1) of the track at which `value` is drawn (clamped)."""
    clamped = min(SLIDER_MAX, max(SLIDER_MIN, value))
    return (math.log10(clamped) - _LOG_MIN) / _LOG_SPAN
