"""The edit core's pure parts: history, operations as JSON, placement on glyphs,
equal and overlapping boxes, a draft's changes, E13's argument checks."""

from __future__ import annotations

import pytest

from siftui.core.edit.annotations import Annotation, annotation_changes, number_text
from siftui.core.edit.geometry import boxes_of, overlap
from siftui.core.edit.history import History
from siftui.core.edit.operations import (
    AddAnnotation,
    DeleteAnnotation,
    Operation,
    Transaction,
    UpdateAnnotation,
    operation_from_json,
    operation_to_json,
    transaction_from_json,
    transaction_to_json,
)
from siftui.core.edit.placement import Glyph, PageGlyphs, place_piece
from siftui.core.edit.targets import check_color, check_region, target_kind
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.utf16 import Utf16Text

ADD = AddAnnotation(
    2, "Highlight", ((1, 2, 3, 2, 1, 0, 3, 0),), None, "#ffff00", "c", "siftui-1-1",
    "siftui agent", "D:20261203000000Z",
)  # fmt: skip


def test_history_counts_every_change_and_redo_is_emptied_by_a_write() -> None:
    history = History()
    one, two = Transaction((ADD,), "t"), Transaction((DeleteAnnotation(2, "x"),), "t")
    assert history.commit(one) == 1 and history.commit(two) == 2
    assert history.undo() is two and history.revision == 3
    assert history.redo() is two and history.revision == 4
    history.undo()
    history.commit(one)
    assert history.undone == [] and history.revision == 6
    with pytest.raises(
        EvidenceError, match=r"^revision is 6, not 5: list again to see what changed$"
    ):
        history.check(5)
    assert history.restart() == 7 and not history.unsaved
    with pytest.raises(EvidenceError, match=r"^nothing to undo$"):
        history.undo()


@pytest.mark.parametrize(
    "operation",
    [ADD, UpdateAnnotation(1, "xref-4", None, "new", "D:1"), DeleteAnnotation(3, "siftui-2-1")],
)
def test_operations_round_trip_through_json(operation: Operation) -> None:
    assert operation_from_json(operation_to_json(operation)) == operation
    transaction = Transaction((operation,), "pdf_annotation_create", "person")
    assert transaction_from_json(transaction_to_json(transaction)) == transaction
    with pytest.raises(ValueError):
        operation_from_json({"op": "annotation-add", "page": "1"})


def glyphs_of(lines: list[str], direction: tuple[float, float] = (1, 0)) -> PageGlyphs:
    """Each character 10 wide, each line 20 high, in glyph space; user space = y flipped."""
    glyphs: list[Glyph | None] = []
    for number, line in enumerate(lines):
        for column, _ in enumerate(line):
            glyphs.append(
                Glyph(
                    number, (10.0 * column, 20.0 * number, 10.0 * column + 10, 20.0 * number + 15)
                )
            )
        glyphs.append(None)
    text = "".join(line + "\n" for line in lines)
    return PageGlyphs(text, tuple(glyphs), tuple(direction for _ in lines), (1, 0, 0, -1, 0, 800))


def test_one_quad_per_line_run_without_the_spaces_at_its_ends() -> None:
    glyphs = glyphs_of(["ab cd ", "efg"])
    text = Utf16Text(glyphs.text)
    quads = place_piece("ref-1", Piece(1, 3, 9, "cd \nef"), text, glyphs)
    assert quads == ((30, 800, 50, 800, 30, 785, 50, 785), (0, 780, 20, 780, 0, 765, 20, 765))


def test_text_that_is_not_the_glyphs_is_refused() -> None:
    glyphs = glyphs_of(["abc"])
    with pytest.raises(EvidenceError) as refused:
        place_piece("ref-3", Piece(2, 0, 3, "abd"), Utf16Text("abd\n"), glyphs)
    assert str(refused.value) == "the text of ref-3 cannot be placed on page 2: nothing annotated"
    with pytest.raises(EvidenceError):  # white space only: nothing drawn to cover
        place_piece("ref-4", Piece(1, 3, 4, "\n"), Utf16Text("abc\n"), glyphs)


def test_a_line_read_downwards_gets_its_quad_turned() -> None:
    glyphs = glyphs_of(["ab"], direction=(0, 1))
    (quad,) = place_piece("ref-1", Piece(1, 0, 2, "ab"), Utf16Text("ab\n"), glyphs)
    # upper left is at the line's start on the side the normal (-1, 0) points away from
    assert quad[:2] == (20, 800) and quad[6:] == (0, 785)


def test_neighbouring_lines_and_words_do_not_overlap_but_shared_text_does() -> None:
    line_one = boxes_of([(0, 100, 50, 100, 0, 88, 50, 88)], (0, 0, 0, 0))
    line_two = boxes_of([(0, 90, 50, 90, 0, 78, 50, 78)], (0, 0, 0, 0))
    next_word = boxes_of([(49.5, 100, 80, 100, 49.5, 88, 80, 88)], (0, 0, 0, 0))
    inside = boxes_of([(10, 100, 30, 100, 10, 88, 30, 88)], (0, 0, 0, 0))
    assert not overlap(line_one, line_two) and not overlap(line_one, next_word)
    assert overlap(line_one, inside)


def annotation(annotation_id: str, page: int = 1, color: str = "#ffff00") -> Annotation:
    return Annotation(annotation_id, page, "Highlight", (0, 0, 1, 1), color, "", "", None, 5)


def test_changes_of_a_draft_per_page() -> None:
    file = [annotation("a"), annotation("b", page=2)]
    draft = [annotation("a", color="#ff0000"), annotation("c", page=3)]
    changes = annotation_changes(file, draft)
    assert [(c.page, c.kind, c.annotation_id) for c in changes.changes] == [
        (1, "changed", "a"),
        (2, "deleted", "b"),
        (3, "added", "c"),
    ]
    assert changes.counts() == {"added": 1, "changed": 1, "deleted": 1}


def test_arguments_of_a_create() -> None:
    assert check_color(None) == "#ffff00" and check_color("#A0b0C0") == "#a0b0c0"
    with pytest.raises(
        EvidenceError, match=r'^subtype "Squiggly" takes a target of kind "reference"$'
    ):
        target_kind("Squiggly", {"kind": "pdf-region"})
    box = (-11.9622, 11.9906, 583.238, 853.671)
    region = check_region(
        {"kind": "pdf-region", "page": 1, "rectPdf": [0, 20, 10.5, 30]}, 1, lambda _: box
    )
    assert region.rect == (0, 20, 10.5, 30)
    with pytest.raises(EvidenceError) as refused:
        check_region({"kind": "pdf-region", "page": 1, "rectPdf": [0, 0, 10, 10]}, 1, lambda _: box)
    assert str(refused.value) == "rectPdf must lie inside page 1 (-11.96 11.99 583.24 853.67)"
    assert [number_text(n) for n in (612.0, -0.001, 11.9906)] == ["612", "0", "11.99"]


def test_a_glyph_that_draws_two_characters_is_one_glyph() -> None:
    """A ligature mapped to "fi" arrives as two characters sharing one box."""
    ligature = Glyph(0, (0.0, 0.0, 12.0, 15.0))
    glyphs = PageGlyphs(
        "find\n",
        (
            ligature,
            ligature,
            Glyph(0, (12.0, 0.0, 20.0, 15.0)),
            Glyph(0, (20.0, 0.0, 28.0, 15.0)),
            None,
        ),
        ((1.0, 0.0),),
        (1, 0, 0, -1, 0, 800),
    )
    text = Utf16Text("find\n")
    assert place_piece("ref-1", Piece(1, 0, 4, "find"), text, glyphs) == (
        (0, 800, 28, 800, 0, 785, 28, 785),
    )
    # half of the ligature is the whole glyph: the quad covers what draws it
    assert place_piece("ref-2", Piece(1, 1, 3, "in"), text, glyphs) == (
        (0, 800, 20, 800, 0, 785, 20, 785),
    )
