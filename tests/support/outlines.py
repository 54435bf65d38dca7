# mypy: disallow-untyped-calls=False
# (PyMuPDF's and pypdf's annotations are partial)
"""Outlines for E16's tests: a PDF whose items hold every kind of destination and
style, and each item of a file's outline as two readers see it (PyMuPDF, pypdf),
its destination with page objects named by their page number, so an item can be
compared across a save that renumbers objects."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
import pypdf

_REF = re.compile(r"(\d+) 0 R")


def outlined_pdf(path: Path) -> Path:
    """Four pages and six items (E11's ids in brackets):

    - [ol-1] "Named": ``/Dest (chap-one)``, a named destination (page 3)
    - [ol-2] "GoTo": ``/A`` GoTo to page 2, red (``/C``), bold italic (``/F 3``),
      closed (``/Count -2``), with
      - [ol-3] "Child A": ``/Dest [page 2 /Fit]``
      - [ol-4] "Child B": ``/A`` URI
    - [ol-5] "Web": ``/A`` URI, italic (``/F 1``)
    - [ol-6] "Last": ``/Dest [page 4 /FitH 500]``
    """
    document = pymupdf.open()
    for number in range(1, 5):
        document.new_page().insert_text((72, 72), f"Page {number}")
    pages = [document.page_xref(i) for i in range(4)]
    root, items = document.get_new_xref(), [document.get_new_xref() for _ in range(6)]
    named, ol1, ol2, ol3, ol4, ol5, ol6 = document.get_new_xref(), *items
    document.update_object(named, f"<< /Names [(chap-one) [{pages[2]} 0 R /XYZ 0 600 0]] >>")
    catalog = document.pdf_catalog()
    document.xref_set_key(catalog, "Names", f"<< /Dests {named} 0 R >>")
    document.xref_set_key(catalog, "Outlines", f"{root} 0 R")

    def ref(xref: int) -> str:
        return f"{xref} 0 R"

    objects = {
        root: f"<< /Type /Outlines /First {ref(ol1)} /Last {ref(ol6)} /Count 4 >>",
        ol1: f"<< /Title (Named) /Dest (chap-one) /Parent {ref(root)} /Next {ref(ol2)} >>",
        ol2: f"<< /Title (GoTo) /A << /S /GoTo /D [{ref(pages[1])} /XYZ 0 700 0] >> "
        f"/C [1 0 0] /F 3 /Count -2 /First {ref(ol3)} /Last {ref(ol4)} "
        f"/Parent {ref(root)} /Prev {ref(ol1)} /Next {ref(ol5)} >>",
        ol3: f"<< /Title (Child A) /Dest [{ref(pages[1])} /Fit] /Parent {ref(ol2)} "
        f"/Next {ref(ol4)} >>",
        ol4: f"<< /Title (Child B) /A << /S /URI /URI (https://example.org/b) >> "
        f"/Parent {ref(ol2)} /Prev {ref(ol3)} >>",
        ol5: f"<< /Title (Web) /A << /S /URI /URI (https://example.org/) >> /F 1 "
        f"/Parent {ref(root)} /Prev {ref(ol2)} /Next {ref(ol6)} >>",
        ol6: f"<< /Title (Last) /Dest [{ref(pages[3])} /FitH 500] /Parent {ref(root)} "
        f"/Prev {ref(ol5)} >>",
    }
    for xref, text in objects.items():
        document.update_object(xref, text)
    document.save(path, no_new_id=True)
    return path


@dataclass(frozen=True)
class Item:
    """One outline item as PyMuPDF reads it: E11's level, title and page, and the
    keys that make its destination, style and open state (page objects named
    ``page<n>``, other references resolved to their objects' text)."""

    level: int
    title: str
    page: int
    destination: str  # /Dest and /A
    style: str  # /C and /F
    closed: bool  # /Count below 0


def _key(document: Any, xref: int, key: str, pages: dict[int, str]) -> str:
    kind, value = document.xref_get_key(xref, key)
    if kind == "xref":
        value = document.xref_object(int(value.split()[0]), compressed=True)
    elif kind == "null":
        return ""
    text = str(value)
    return _REF.sub(lambda found: pages.get(int(found[1]), found[0]), text)


def items_of(path: Path) -> list[Item]:
    """Every item of the file's outline, in E11's order, as PyMuPDF reads it."""
    document = pymupdf.open(path)
    pages = {document.page_xref(i): f"page{i + 1}" for i in range(document.page_count)}
    found = []
    for level, title, page, facts in document.get_toc(simple=False):
        xref = facts["xref"]
        destination = " ".join(
            part for part in (_key(document, xref, key, pages) for key in ("Dest", "A")) if part
        )
        style = " ".join(_key(document, xref, key, pages) for key in ("C", "F"))
        count = _key(document, xref, "Count", pages)
        found.append(Item(level, title, page, destination, style, bool(count) and int(count) < 0))
    return found


def pypdf_items(path: Path) -> list[tuple[int, str, int | None, str]]:
    """(level, title, page, destination) of every item as pypdf reads the outline:
    page None where pypdf finds none; destination pypdf's type and numbers, or the
    URI of a URI action."""
    reader = pypdf.PdfReader(path)
    found: list[tuple[int, str, int | None, str]] = []

    def walk(items: list[Any], level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            number = reader.get_destination_page_number(item)
            page = None if number is None or number < 0 else number + 1
            node = getattr(item, "node", None) or {}
            action = node.get("/A")
            uri = action.get_object().get("/URI") if action is not None else None
            shown = f"URI {uri}" if uri else f"{item.typ} {item.left} {item.top}"
            found.append((level, str(item.title), page, shown))

    walk(reader.outline, 1)
    return found


def poppler_items(path: Path) -> list[tuple[int, str, int | None]]:
    """(level, title, page) of every item as poppler reads the outline (``pdftohtml
    -xml``: an ``<outline>`` right after an ``<item>`` holds its children)."""
    import subprocess
    import xml.etree.ElementTree as ElementTree

    shown = subprocess.run(
        ["pdftohtml", "-xml", "-i", "-stdout", "-q", "-f", "1", "-l", "1", str(path)],
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout
    root = ElementTree.fromstring(shown)
    found: list[tuple[int, str, int | None]] = []

    def walk(outline: ElementTree.Element, level: int) -> None:
        for child in outline:
            if child.tag == "item":
                page = child.get("page")
                found.append((level, child.text or "", int(page) if page else None))
            elif child.tag == "outline":
                walk(child, level + 1)

    top = root.find("outline")
    if top is not None:
        walk(top, 1)
    return found
