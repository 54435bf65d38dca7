"""A PDF's annotations read as ``Annotation`` values, from the objects themselves.

Each page's ``/Annots`` is read object by object (no page is loaded): widgets and
links are not listed, nor popups (a popup is its parent's window, not an
annotation of its own). Coordinates are the file's (PDF user space).
"""

from __future__ import annotations

import re
from typing import Any

from siftui.core.edit.annotations import Annotation
from siftui.core.edit.operations import Quad, Rect
from siftui.sources.pdf_open import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()
mupdf: Any = pymupdf.mupdf

__all__ = ["annotation_id_of", "page_annotations"]

NOT_LISTED = frozenset({"Widget", "Link", "Popup"})
_REFERENCE = re.compile(r"(\d+)\s+\d+\s+R")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)")


def _references(text: str) -> list[int]:
    return [int(found) for found in _REFERENCE.findall(text)]


def _numbers(text: str) -> list[float]:
    return [float(found) for found in _NUMBER.findall(text)]


_ANNOTS = mupdf.pdf_new_name("Annots")
_SUBTYPE = mupdf.pdf_new_name("Subtype")


def _annotation_xrefs(document: Any, page: int) -> list[tuple[int, str]]:
    """The page's annotation objects and their subtypes, through MuPDF's objects
    (a page of links is read in microseconds, not one key lookup per link)."""
    pdf = pymupdf._as_pdf_document(document)
    listed = mupdf.pdf_dict_get(mupdf.pdf_lookup_page_obj(pdf, page - 1), _ANNOTS)
    found = []
    for index in range(mupdf.pdf_array_len(listed)):
        item = mupdf.pdf_array_get(listed, index)
        xref = mupdf.pdf_to_num(item)
        if xref > 0:  # an annotation written into the array has no object to name it
            found.append((xref, mupdf.pdf_to_name(mupdf.pdf_dict_get(item, _SUBTYPE))))
    return found


def annotation_id_of(document: Any, xref: int) -> str:
    kind, name = document.xref_get_key(xref, "NM")
    return name if kind == "string" and name else f"xref-{xref}"


def _color(document: Any, xref: int) -> str | None:
    kind, value = document.xref_get_key(xref, "C")
    if kind != "array":
        return None
    numbers = [min(1.0, max(0.0, number)) for number in _numbers(value)]
    if len(numbers) == 1:
        numbers = numbers * 3
    elif len(numbers) == 4:
        cyan, magenta, yellow, black = numbers
        numbers = [
            (1 - cyan) * (1 - black),
            (1 - magenta) * (1 - black),
            (1 - yellow) * (1 - black),
        ]
    elif len(numbers) != 3:
        return None
    return "#" + "".join(f"{round(number * 255):02x}" for number in numbers)


def _text(document: Any, xref: int, key: str) -> str:
    kind, value = document.xref_get_key(xref, key)
    return str(value) if kind == "string" else ""


def _rect(document: Any, xref: int) -> Rect:
    kind, value = document.xref_get_key(xref, "Rect")
    numbers = _numbers(value) if kind == "array" else []
    if len(numbers) != 4:
        return (0.0, 0.0, 0.0, 0.0)
    return (numbers[0], numbers[1], numbers[2], numbers[3])


def _quads(document: Any, xref: int) -> tuple[Quad, ...]:
    kind, value = document.xref_get_key(xref, "QuadPoints")
    if kind != "array":
        return ()
    numbers = _numbers(value)
    return tuple(
        (a, b, c, d, e, f, g, h)
        for a, b, c, d, e, f, g, h in (
            numbers[start : start + 8] for start in range(0, len(numbers) - 7, 8)
        )
    )


def page_annotations(document: Any, page: int) -> list[Annotation]:
    """Page ``page``'s (1-based) listed annotations, in its ``/Annots`` order."""
    found = []
    for xref, subtype in _annotation_xrefs(document, page):
        if not subtype or subtype in NOT_LISTED:
            continue
        reply_kind, reply_to = document.xref_get_key(xref, "IRT")
        replied = _references(reply_to) if reply_kind == "xref" else []
        found.append(
            Annotation(
                annotation_id=annotation_id_of(document, xref),
                page=page,
                subtype=subtype,
                rect=_rect(document, xref),
                color=_color(document, xref),
                comment=_text(document, xref, "Contents"),
                author=_text(document, xref, "T"),
                in_reply_to=annotation_id_of(document, replied[0]) if replied else None,
                xref=xref,
                quads=_quads(document, xref),
            )
        )
    return found
