"""E13's arguments checked: subtype with target, color, comment, a region (pure)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from siftui.core.edit.annotations import MARKUPS, number_text
from siftui.core.edit.operations import Rect
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.utf16 import has_lone_surrogate, unit_length

__all__ = [
    "DEFAULT_COLOR",
    "MAX_COMMENT",
    "SUBTYPES",
    "Region",
    "check_color",
    "check_comment",
    "check_region",
    "reference_of",
    "target_kind",
]

SUBTYPES = (*MARKUPS, "Text")
DEFAULT_COLOR = "#ffff00"
MAX_COMMENT = 2000
MAX_SIDE = 10_000.0
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True, slots=True)
class Region:
    page: int
    rect: Rect


def _kind_for(subtype: str) -> str:
    return "pdf-region" if subtype == "Text" else "reference"


def target_kind(subtype: str, target: Mapping[str, object]) -> str:
    """The target's kind once it is the one ``subtype`` takes."""
    if subtype not in SUBTYPES:
        shown = ", ".join(f'"{name}"' for name in SUBTYPES[:-1])
        raise EvidenceError(f'argument "subtype" must be {shown} or "{SUBTYPES[-1]}"')
    kind = target.get("kind")
    if not isinstance(kind, str):
        raise EvidenceError(
            'missing argument "target.kind"'
            if kind is None
            else 'argument "target.kind" must be a string'
        )
    if kind != _kind_for(subtype):
        raise EvidenceError(f'subtype "{subtype}" takes a target of kind "{_kind_for(subtype)}"')
    allowed = ("kind", "refId") if kind == "reference" else ("kind", "page", "rectPdf")
    for key in target:
        if key not in allowed:
            raise EvidenceError(
                f'unknown argument "target.{key}" (a "{kind}" target takes {", ".join(allowed)})'
            )
    return kind


def reference_of(target: Mapping[str, object]) -> str:
    ref_id = target.get("refId")
    if ref_id is None:
        raise EvidenceError('missing argument "target.refId"')
    if not isinstance(ref_id, str):
        raise EvidenceError('argument "target.refId" must be a string')
    return ref_id


def check_color(color: str | None) -> str:
    """``#rrggbb`` in lower case (the default when absent)."""
    if color is None:
        return DEFAULT_COLOR
    if not isinstance(color, str) or not _COLOR.fullmatch(color):
        raise EvidenceError('argument "color" must be "#rrggbb"')
    return color.lower()


def check_comment(comment: str | None) -> str:
    if comment is None:
        return ""
    if not isinstance(comment, str):
        raise EvidenceError('argument "comment" must be a string')
    if has_lone_surrogate(comment):
        raise EvidenceError('argument "comment" is not valid text')
    if unit_length(comment) > MAX_COMMENT:
        raise EvidenceError(f'argument "comment" must be 0-{MAX_COMMENT} UTF-16 units')
    return comment


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def check_region(
    target: Mapping[str, object], page_count: int, media_box: Callable[[int], Rect]
) -> Region:
    """A region note's page and rect, inside the page's MediaBox, each side 1-10000 pt."""
    page = target.get("page")
    if page is None:
        raise EvidenceError('missing argument "target.page"')
    if not _integer(page):
        raise EvidenceError('argument "target.page" must be an integer')
    assert isinstance(page, int)
    if not 1 <= page <= page_count:
        raise EvidenceError(f"page out of range (1-{page_count})")
    given = target.get("rectPdf")
    if given is None:
        raise EvidenceError('missing argument "target.rectPdf"')
    if not isinstance(given, list | tuple) or len(given) != 4 or not all(map(_number, given)):
        raise EvidenceError('argument "target.rectPdf" must be 4 numbers')
    left, bottom, right, top = (float(number) for number in given)
    box = media_box(page)
    inside = (
        left < right
        and bottom < top
        and box[0] <= left
        and right <= box[2]
        and box[1] <= bottom
        and top <= box[3]
        and 1 <= right - left <= MAX_SIDE
        and 1 <= top - bottom <= MAX_SIDE
    )
    if not inside:
        numbers = " ".join(number_text(number) for number in box)
        raise EvidenceError(f"rectPdf must lie inside page {page} ({numbers})")
    return Region(page, (left, bottom, right, top))
