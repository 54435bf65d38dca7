"""Half blocks: a picture as terminal cells, two pixels a cell, shrunk by averaging."""

from __future__ import annotations

import pytest

from siftui.core.halfblocks import MARK, Pixels, fitted, half_blocks, shrunk, tinted

WHITE, BLACK = (255, 255, 255), (0, 0, 0)


def picture(rows: list[list[tuple[int, int, int]]]) -> Pixels:
    return Pixels(len(rows[0]), len(rows), bytes(c for row in rows for px in row for c in px))


def test_fitted_keeps_the_shape_within_the_cells_and_never_enlarges() -> None:
    assert fitted(200, 100, 50, 50) == (50, 25)  # width bound
    assert fitted(100, 400, 80, 20) == (10, 40)  # two pixel rows per cell row
    assert fitted(10, 6, 80, 20) == (10, 6)
    assert fitted(0, 6, 80, 20) == (0, 0)
    assert fitted(10, 6, 0, 20) == (0, 0)


def test_shrunk_averages_the_area_each_pixel_covers() -> None:
    checker = picture([[BLACK, WHITE] * 2, [WHITE, BLACK] * 2])
    assert shrunk(checker, 2, 1) == [[(128, 128, 128), (128, 128, 128)]]
    assert shrunk(checker, 4, 2) == [[BLACK, WHITE] * 2, [WHITE, BLACK] * 2]


def test_half_blocks_pairs_rows_and_leaves_an_odd_last_row_alone() -> None:
    red = (255, 0, 0)
    cells = half_blocks(picture([[red, BLACK], [WHITE, WHITE], [BLACK, red]]), 10, 10)
    assert cells == [[(red, WHITE), (BLACK, WHITE)], [(BLACK, None), (red, None)]]
    assert half_blocks(picture([[red]]), 0, 5) == []


def test_a_square_in_the_middle_stays_in_the_middle() -> None:
    size = 40
    rows = [
        [BLACK if 10 <= x < 30 and 10 <= y < 30 else WHITE for x in range(size)]
        for y in range(size)
    ]
    cells = half_blocks(picture(rows), 20, 5)  # 10 x 10 pixels: 10 columns, 5 rows
    assert len(cells) == 5 and len(cells[0]) == 10
    assert cells[2][5] == (BLACK, BLACK) and cells[0][0] == (WHITE, WHITE)
    assert cells[0][5] == (WHITE, WHITE) and cells[4][5] == (WHITE, WHITE)


def test_pixels_refuse_bytes_of_another_size() -> None:
    with pytest.raises(ValueError, match="not 2x2 RGB"):
        Pixels(2, 2, b"\0" * 11)


def test_tinted_blends_only_inside_the_boxes_clipped_to_the_picture() -> None:
    white = Pixels(4, 3, bytes([255]) * 36)
    marked = tinted(white, [(2, 1, 9, 9)], share=0.5)  # runs off the right and bottom
    pixel = [tuple(marked.rgb[i : i + 3]) for i in range(0, 36, 3)]
    inside = (255, int(255 * 0.5 + MARK[1] * 0.5), int(255 * 0.5 + MARK[2] * 0.5))
    assert (
        pixel
        == [(255, 255, 255)] * 4
        + [(255, 255, 255)] * 2
        + [inside] * 2
        + [(255, 255, 255)] * 2
        + [inside] * 2
    )
    assert tinted(white, []) is white
