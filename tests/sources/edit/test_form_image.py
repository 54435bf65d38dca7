# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""E17's image: drawn without widgets, each writable widget's label inside the box MuPDF
draws that widget in, whatever the page's rotation and MediaBox; and the labels of
qpdf's field-types.pdf are where its boxes are."""

from __future__ import annotations

from collections.abc import Callable

import pymupdf
import pytest
from support.forms import CORPUS_EDIT, MU

from siftui.sources.edit.form_image import labelled_page
from siftui.sources.edit.forms import page_widgets

Box = tuple[int, int, int, int]


def pixels_where(pixmap: pymupdf.Pixmap, test: Callable[[int, int, int], bool]) -> Box | None:
    """The bounding box of the pixels ``test`` takes, None when there is none."""
    samples, n, width = pixmap.samples, pixmap.n, pixmap.width
    xs, ys = [], []
    for y in range(pixmap.height):
        row = y * width * n
        for x in range(width):
            at = row + x * n
            if test(samples[at], samples[at + 1], samples[at + 2]):
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def red(r: int, g: int, b: int) -> bool:
    return r > 200 and g < 60 and b < 60


def label_yellow(r: int, g: int, b: int) -> bool:
    return r > 240 and g > 240 and b < 220


def inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


@pytest.mark.parametrize(
    ("rotation", "origin"), [(0, (0, 0)), (90, (100, 200)), (180, (50, 50)), (270, (0, 0))]
)
def test_the_label_sits_in_the_box_the_widget_is_drawn_in(
    rotation: int, origin: tuple[int, int]
) -> None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    left, bottom = origin
    page.set_mediabox(pymupdf.Rect(left, bottom, left + 400, bottom + 300))
    page.set_rotation(rotation)
    widget = pymupdf.Widget()
    widget.field_type = MU.PDF_WIDGET_TYPE_TEXT
    widget.field_name = "a"
    widget.rect = pymupdf.Rect(50, 40, 250, 80)
    widget.fill_color = (1, 0, 0)
    widget.border_width = 0
    page.add_widget(widget)
    drawn = document[0].get_pixmap(dpi=96, annots=True, alpha=False)
    box = pixels_where(drawn, red)
    labelled = labelled_page(document, 1, [one.rect for one in page_widgets(document, 1)])
    image = pymupdf.Pixmap(labelled.png)
    assert (image.width, image.height, labelled.dpi) == (drawn.width, drawn.height, 96)
    assert pixels_where(image, red) is None  # no widget appearance
    label = pixels_where(image, label_yellow)
    assert box is not None and label is not None
    assert inside(label, box) and (label[0] - box[0], label[1] - box[1]) == (1, 1)  # top left


def test_the_labels_of_field_types_pdf_stay_in_their_boxes_and_off_the_words() -> None:
    """Every label pixel is within its widget's box (a small box's label spills 3 px at
    most), and no printed word beside a box (none of its pixels in one) is more than a
    tenth under a label."""
    scale = 96 / 72
    with pymupdf.open(CORPUS_EDIT / "field-types.pdf") as document:
        widgets = page_widgets(document, 1)
        image = pymupdf.Pixmap(labelled_page(document, 1, [one.rect for one in widgets]).png)
        words = document[0].get_text("words")
    boxes = [tuple(round(value * scale) for value in widget.rect) for widget in widgets]
    samples, n, width = image.samples, image.n, image.width

    def yellow(x: int, y: int) -> bool:
        at = (y * width + x) * n
        return label_yellow(samples[at], samples[at + 1], samples[at + 2])

    spilt = [
        (x, y)
        for y in range(image.height)
        for x in range(width)
        if yellow(x, y)
        and not any(b[0] - 3 <= x <= b[2] + 3 and b[1] - 3 <= y <= b[3] + 3 for b in boxes)
    ]
    assert spilt == []
    assert len(boxes) == 15
    for word in words:
        x0, y0, x1, y1 = (round(value * scale) for value in word[:4])
        if any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in boxes):
            continue  # inside a box: not the text beside it
        area = [(x, y) for y in range(y0, y1) for x in range(x0, x1)]
        covered = sum(yellow(x, y) for x, y in area)
        assert covered <= len(area) / 10, word[4]
