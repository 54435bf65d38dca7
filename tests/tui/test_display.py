"""The display helpers: what a line of the answer takes on a terminal once escaped."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from siftui.tui.display import escape_controls, shown_width


@given(st.text(alphabet=st.characters() | st.sampled_from(["\ud800", "\udfff", "\x85"])))
def test_shown_width_is_the_cells_of_the_escaped_line(line: str) -> None:
    assert shown_width(line) == cell_len(escape_controls(line))


def test_ascii_controls_take_one_cell_each() -> None:
    assert shown_width("a\tb\x00\x7f") == 5
    assert shown_width("\u202e\u6f22") == len("<U+202E>") + 2
