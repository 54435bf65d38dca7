# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Form PDFs the form tests make (E17, E18): a field whose widgets sit on two pages, a
checkbox whose on-state is not "Yes", fields E17 leaves out, an XFA-only form.

Nothing here is a test: pytest collects only ``test_*.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pymupdf

from support.editing import CORPUS_EDIT

__all__ = ["CORPUS_EDIT", "make_form_pdf", "make_xfa_only_pdf"]

MU: Any = pymupdf  # its constants are not in its stubs


def _widget(
    page: pymupdf.Page, kind: int, name: str, rect: tuple[float, ...], **keys: object
) -> int:
    widget = pymupdf.Widget()
    widget.field_type = kind
    widget.field_name = name
    widget.rect = pymupdf.Rect(*rect)
    for key, value in keys.items():
        setattr(widget, key, value)
    made = page.add_widget(widget)
    return int(made.xref)


def _rename_on_state(document: pymupdf.Document, xref: int, name: str) -> None:
    """The checkbox's on-state is called ``name`` (its appearances and value follow)."""
    for which in ("N", "D"):
        kind, value = document.xref_get_key(xref, f"AP/{which}")
        if kind == "dict":
            document.xref_set_key(xref, f"AP/{which}", re.sub(r"/Yes\b", f"/{name}", value))
    document.xref_set_key(xref, "AS", "/Off")
    document.xref_set_key(xref, "V", "/Off")


def make_form_pdf(path: Path) -> Path:
    """Two pages. Page 1: text "name" (maxLength 5), checkbox "agree" whose on-state
    is "Ja", read-only text "fixed", push button "go", text "shared" (its first
    widget). Page 2: text "city", the second widget of "shared", and a multi-select
    listbox "colors"."""
    document = pymupdf.open()
    first = document.new_page(width=612, height=792)
    first.insert_text((72, 90), "Name", fontsize=11)
    _widget(first, MU.PDF_WIDGET_TYPE_TEXT, "name", (150, 75, 350, 95), text_maxlen=5)
    first.insert_text((72, 130), "I agree", fontsize=11)
    agree = _widget(first, MU.PDF_WIDGET_TYPE_CHECKBOX, "agree", (150, 115, 165, 130))
    _widget(
        first,
        MU.PDF_WIDGET_TYPE_TEXT,
        "fixed",
        (150, 155, 350, 175),
        field_value="fixed value",
        field_flags=MU.PDF_FIELD_IS_READ_ONLY,
    )
    _widget(first, MU.PDF_WIDGET_TYPE_BUTTON, "go", (150, 195, 250, 215))
    first.insert_text((72, 250), "Shared", fontsize=11)
    _widget(first, MU.PDF_WIDGET_TYPE_TEXT, "shared", (150, 235, 350, 255))
    second = document.new_page(width=612, height=792)
    second.insert_text((72, 90), "City", fontsize=11)
    _widget(second, MU.PDF_WIDGET_TYPE_TEXT, "city", (150, 75, 350, 95))
    _widget(second, MU.PDF_WIDGET_TYPE_TEXT, "shared", (150, 115, 350, 135))
    _widget(
        second,
        MU.PDF_WIDGET_TYPE_LISTBOX,
        "colors",
        (150, 155, 300, 235),
        choice_values=["red", "green", "blue"],
        field_flags=MU.PDF_CH_FIELD_IS_MULTI_SELECT,
    )
    _rename_on_state(document, agree, "Ja")
    document.save(path)
    document.close()
    return path


def make_xfa_only_pdf(path: Path) -> Path:
    """One page, and an AcroForm holding an /XFA and no field."""
    document = pymupdf.open()
    document.new_page(width=612, height=792)
    stream = document.get_new_xref()
    document.update_object(stream, "<<>>")
    document.update_stream(stream, b"<xdp:xdp xmlns:xdp='http://ns.adobe.com/xdp/'/>")
    form = document.get_new_xref()
    document.update_object(form, f"<</Fields[]/XFA {stream} 0 R>>")
    document.xref_set_key(document.pdf_catalog(), "AcroForm", f"{form} 0 R")
    document.save(path)
    document.close()
    return path
