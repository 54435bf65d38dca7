"""What every answer shares, a PDF's (docs/SPEC.md) or a Word document's (docs/WORD.md).

Pure: no I/O. The answer's type, the OutCap's default and check, the token
estimate, and the map's outline section cut to the room it has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

__all__ = [
    "DEFAULT_OUT_CAP",
    "OUTLINE_HEADING",
    "Rendered",
    "check_out_cap",
    "estimated_tokens",
    "fit_outline",
    "more_line",
]

DEFAULT_OUT_CAP = 100_000
OUTLINE_HEADING = "## Outline\n"


@dataclass(frozen=True)
class Rendered:
    """The answer the agent receives (``content``) and how it was cut."""

    content: str
    map: bool
    first: int
    last: int
    grep_hits: int
    note: str


def check_out_cap(out_cap: object) -> int:
    """``out_cap`` when it is a whole number >= 1, else the ValueError every answer raises."""
    if isinstance(out_cap, bool) or not isinstance(out_cap, int) or out_cap < 1:
        raise ValueError(f"out_cap must be a whole number >= 1, not {out_cap!r}")
    return out_cap


def estimated_tokens(runes: int) -> int:
    """The contract's token estimate (R2's T): runes // 4. The only one in siftui."""
    return runes // 4


def more_line(left_out: int) -> str:
    """The outline's last line when ``left_out`` items did not fit."""
    return f"- … ({left_out} more)"


def fit_outline(
    lines: Sequence[str],
    room: int,
    sizes: Sequence[int] | None = None,
    size: Callable[[str], int] = len,
) -> str | None:
    """The outline section (its heading, then ``lines``) in at most ``room``
    characters (or bytes: ``size`` measures), or None when not even the heading
    and the "more" line fit.

    When the whole outline is too long, the most leading lines that fit are kept
    and the rest is counted in :func:`more_line`. ``sizes[k]`` is the length of
    the first k lines, each followed by "\\n" (a caller that renders often keeps
    it; it is computed otherwise).
    """
    if not lines:
        return None
    heading = OUTLINE_HEADING
    if sizes is None:
        sizes = (0, *accumulate(size(line) + 1 for line in lines))
    if len(heading) + sizes[-1] - 1 <= room:
        return heading + "\n".join(lines)

    # With k lines kept: heading + sizes[k] + len(more-line). This grows with k
    # (each line adds >= 3, the count shrinks by at most one digit), so bisect.
    def with_kept(kept: int) -> int:
        return len(heading) + sizes[kept] + size(more_line(len(lines) - kept))

    low, high = 0, len(lines) - 1
    if with_kept(low) > room:
        return None
    while low < high:
        middle = (low + high + 1) // 2
        if with_kept(middle) <= room:
            low = middle
        else:
            high = middle - 1
    return heading + "\n".join([*lines[:low], more_line(len(lines) - low)])
