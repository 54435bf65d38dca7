"""Hidden pieces of a page as findings, placed in its extracted text (for hidden.detect).

A finding is text the agent reads: each hidden character is looked for in
the page's extraction (siftui.sources.hidden.extracted), and a run of those it
holds is the finding, spelt as the page's text has it. The characters it does
not hold (clipped away, say) are hidden text no agent reads: they are listed
apart, as drawn, never as an alarm.
"""

from __future__ import annotations

from typing import Any

from siftui.core.findings import Box, Finding, locate
from siftui.sources.hidden.extracted import Extracted
from siftui.sources.hidden.looks import HiddenCandidate

MIN_LETTERS = 2
"""Hidden text with fewer letters or digits than this is no finding."""

Run = tuple[str, int, int, Box]
"""A piece's characters the extraction holds: kind, begin and end in the page's text, box."""


def _rounded(box: Box) -> Box:
    """To 1/100 pt, as the JSON and the cache keep it: a cached finding equals a new one."""
    return (round(box[0], 2), round(box[1], 2), round(box[2], 2), round(box[3], 2))


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _letters(text: str) -> str:
    return "".join(char for char in text.casefold() if char.isalnum())


def shown_copy(piece: HiddenCandidate, pieces: list[HiddenCandidate]) -> bool:
    """Whether the shown spans drawn over the piece's place read all its words."""
    words = _letters(piece.letters())
    if not words:
        return False
    x0, y0, x1, y1 = piece.bbox
    shown = "".join(
        _letters(other.letters())
        for other in pieces
        if other.kind is None
        and other.bbox[0] < x1
        and x0 < other.bbox[2]
        and other.bbox[1] < y1
        and y0 < other.bbox[3]
    )
    return words in shown


def _near(a: Box, b: Box) -> bool:
    """Whether two boxes are on one line or neighbouring lines (not a page apart)."""
    gap = max(b[1] - a[3], a[1] - b[3], 0.0)
    return gap <= max(a[3] - a[1], b[3] - b[1], 1.0)


def _runs(piece: HiddenCandidate, extracted: Extracted) -> list[Run]:
    """The piece's characters the extraction holds, as runs of the page's text."""
    assert piece.kind is not None
    kind, text = piece.kind, extracted.text
    runs: list[Run] = []
    chars: Any = piece.chars
    for char in chars:
        letter = chr(char[0]) if 0 <= char[0] < 0x110000 else ""
        if not letter.strip():
            continue
        hit = extracted.find(char)
        if hit is None:
            continue  # not extracted: the caller lists it apart
        box: Box = char[3]
        offset = hit[0]
        if offset < 0:  # extracted, not placed in the text: it widens its run only
            if runs:
                runs[-1] = (*runs[-1][:3], _union(runs[-1][3], box))
            continue
        end = offset + len(letter)
        if runs and offset >= runs[-1][2] and not text[runs[-1][2] : offset].strip():
            runs[-1] = (kind, runs[-1][1], end, _union(runs[-1][3], box))
        else:
            runs.append((kind, offset, end, box))
    if not runs and chars:
        # Held, but none of it placed (its boxes are empty): found by its letters.
        where = locate(text, piece.letters())
        if where is not None:
            runs.append((kind, where[0], where[1], piece.bbox))
    if len(runs) == 1:
        runs[0] = (*runs[0][:3], piece.bbox)  # the whole piece: its own box
    return runs


def located(pieces: list[HiddenCandidate], extracted: Extracted, number: int) -> list[Finding]:
    """The findings of page ``number``: runs of the page's text, neighbours of
    one kind joined.

    Two runs in a row (in drawing order) of the same kind become one finding
    when the second follows the first in the page's text with only white space
    between, and on the same or the next line.
    """
    text = extracted.text
    findings: list[Finding] = []
    current: Run | None = None

    def flush() -> None:
        if current is not None:
            kind, begin, end, box = current
            findings.append(Finding(number, kind, text[begin:end], _rounded(box)))

    for piece in pieces:
        for run in _runs(piece, extracted):
            kind, begin, end, box = run
            if (
                current is not None
                and current[0] == kind
                and begin >= current[2]
                and not text[current[2] : begin].strip()
                and _near(current[3], box)
            ):
                current = (kind, current[1], end, _union(current[3], box))
            else:
                flush()
                current = run
    flush()
    # A hidden bracket, or one letter under a picture's edge, says nothing to
    # an agent: a finding holds at least MIN_LETTERS letters or digits.
    return worded(findings)


def located_by_text(
    pieces: list[HiddenCandidate], text: str, number: int
) -> tuple[list[Finding], list[Finding]]:
    """For OCR layers, which are no alarm: each piece found in the page's text by
    its letters (white space aside), without reading the extraction's characters;
    one not found there is apart. Neighbours are joined as :func:`located` joins."""
    findings: list[Finding] = []
    missed: list[Finding] = []
    current: Run | None = None
    cursor = 0

    def flush() -> None:
        if current is not None:
            kind, begin, end, box = current
            findings.append(Finding(number, kind, text[begin:end], _rounded(box)))

    for piece in pieces:
        assert piece.kind is not None
        letters = piece.letters()
        where = locate(text, letters, cursor) or locate(text, letters)
        if where is None:
            missed.append(Finding(number, piece.kind, letters.strip(), _rounded(piece.bbox)))
            continue
        begin, end = where
        if (
            current is not None
            and current[0] == piece.kind
            and begin >= current[2]
            and not text[current[2] : begin].strip()
            and _near(current[3], piece.bbox)
        ):
            current = (piece.kind, current[1], end, _union(current[3], piece.bbox))
        else:
            flush()
            current = (piece.kind, begin, end, piece.bbox)
        cursor = end
    flush()
    return worded(findings), worded(missed)


def apart(piece: HiddenCandidate, missing: list[tuple[str, Box]], number: int) -> list[Finding]:
    """The piece's hidden text the extraction does not hold, as drawn."""
    assert piece.kind is not None
    return worded([Finding(number, piece.kind, text, _rounded(box)) for text, box in missing])


def worded(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if sum(char.isalnum() for char in f.text) >= MIN_LETTERS]
