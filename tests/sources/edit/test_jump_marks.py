# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""A jump by refId marks the ref's text in the reader's page picture inside the box
MuPDF gives a highlight of the same quads (its /Rect, read back in MuPDF's page
space), on rotated pages and pages whose MediaBox does not start at 0,0
(siftui.sources.reader_page.page_pixels)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from support.editing import make_lines_pdf, open_editing

from siftui.core.edit.tools_annotations import Create, annotation_create
from siftui.core.halfblocks import Pixels
from siftui.sources.reader_page import page_pixels


def changed_box(before: Pixels, after: Pixels) -> tuple[int, int, int, int]:
    """The bounding box of the pixels that differ (x0, y0, x1, y1; end inclusive)."""
    assert (before.width, before.height) == (after.width, after.height)
    xs, ys = [], []
    for index in range(0, len(before.rgb), 3):
        if before.rgb[index : index + 3] != after.rgb[index : index + 3]:
            pixel = index // 3
            xs.append(pixel % before.width)
            ys.append(pixel // before.width)
    assert xs, "no pixel changed"
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("origin", [(0, 0), (-40.5, 120)])
def test_the_mark_lies_where_mupdf_puts_a_highlight_of_the_same_quads(
    tmp_path: Path, rotation: int, origin: tuple[float, float]
) -> None:
    path = make_lines_pdf(tmp_path / "made.pdf", pages=1, rotation=rotation, origin=origin)
    editing = open_editing(path, tmp_path / "drafts")
    ref_id = editing.ref(1, "epsilon zeta 1")
    annotation_create(
        editing.session, editing.copy, "doc-1",
        Create(0, "Highlight", {"kind": "reference", "refId": ref_id}),
    )  # fmt: skip
    with editing.copy.reading() as draft:
        page = draft[0]
        [annotation] = list(page.annots())
        key = draft.xref_get_key(annotation.xref, "QuadPoints")[1]
        scale = 300 / max(page.rect.width, page.rect.height)
        shown = annotation.rect * page.rotation_matrix * pymupdf.Matrix(scale, scale)
    numbers = [float(n) for n in key.strip("[]").split()]
    quads = [tuple(numbers[i : i + 8]) for i in range(0, len(numbers), 8)]
    with pymupdf.open(path) as plain:
        base = page_pixels(plain, 1, 300)
        marked = page_pixels(plain, 1, 300, tuple(quads))  # type: ignore[arg-type]
    x0, y0, x1, y1 = changed_box(base, marked)
    # inside the annotation's box (MuPDF pads it around the quads), a pixel of slack
    assert shown.x0 - 1 <= x0 and x1 <= shown.x1 + 1 and shown.y0 - 1 <= y0 and y1 <= shown.y1 + 1
    # and centred in it: the same place, not a corner of it
    assert abs((x0 + x1 + 1) / 2 - (shown.x0 + shown.x1) / 2) <= 2
    assert abs((y0 + y1 + 1) / 2 - (shown.y0 + shown.y1) / 2) <= 2
