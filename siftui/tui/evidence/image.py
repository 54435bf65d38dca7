"""A page image drawn in the terminal with half blocks, sized to the space it is given."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from siftui.core.halfblocks import RGB, Pixels, half_blocks

UPPER_HALF = "▀"


def _colour(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def image_text(pixels: Pixels, columns: int, rows: int) -> Text:
    """``pixels`` within ``columns`` x ``rows`` cells: each cell an upper half block whose
    foreground is the upper pixel and background the lower one."""
    text = Text(no_wrap=True, overflow="crop")
    for number, line in enumerate(half_blocks(pixels, columns, rows)):
        if number:
            text.append("\n")
        for upper, lower in line:
            background = _colour(lower) if lower is not None else None
            text.append(UPPER_HALF, Style(color=_colour(upper), bgcolor=background))
    return text


class PageImage(Widget):
    """The page image of a pdf_page_render result (nothing when it has none)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pixels: Pixels | None = None
        self._drawn: tuple[int, int, Text] | None = None  # the last size drawn, and its text

    def show(self, pixels: Pixels | None) -> None:
        self.pixels = pixels
        self._drawn = None
        self.display = pixels is not None
        self.refresh()

    def render(self) -> Text:
        if self.pixels is None:
            return Text()
        columns, rows = self.size
        if self._drawn is None or self._drawn[:2] != (columns, rows):
            self._drawn = (columns, rows, image_text(self.pixels, columns, rows))
        return self._drawn[2]
