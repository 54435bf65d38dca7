"""What the app shows: the request, the answer and its drawable form."""

from __future__ import annotations

from dataclasses import dataclass

from siftui.render import Options, Rendered
from siftui.tui.display import Prepared


@dataclass(frozen=True)
class Shown:
    """What the view holds: the options asked, the answer, and its drawable form."""

    options: Options
    answer: Rendered
    prepared: Prepared


def mode_label(shown: Shown) -> str:
    pages = shown.options.pages.strip()
    if shown.options.grep:
        return "grep" + (f" in pages {pages}" if pages else "")
    if pages:
        return f"pages {pages}"
    return "map" if shown.answer.map else "full text"
