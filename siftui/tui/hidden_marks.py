"""Where an answer shows hidden text: the findings of its pages, mapped to its lines.

Pure (no Textual): the view highlights these spans, the counter counts their
findings. Page blocks are mapped through the answer's :class:`~siftui.core.layout.Layout`
(which line opens which page) and the Doc's page text, located with
:func:`siftui.core.findings.marks`; the content string is never parsed again. A grep
line shows a window of one line of the page: a finding is marked there where a
line of its text occurs in that window. Display only: the content is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from siftui.core.doc import Doc
from siftui.core.layout import AnswerKind, Layout, Role

if TYPE_CHECKING:  # findings exist once the hidden-text scan has run: it loads them
    from siftui.core.findings import Finding


@dataclass(frozen=True)
class Mark:
    """Characters ``start``..``end`` of one line of the answer are ``finding``'s text."""

    start: int
    end: int
    finding: Finding


@dataclass(frozen=True)
class HiddenMarks:
    """The marks of each line (line number -> marks, in order) and the findings shown."""

    lines: dict[int, tuple[Mark, ...]]
    shown: tuple[Finding, ...]

    def counter_line(self) -> str:
        """ "hidden text: 3 spans on 2 pages (412 runes) in this answer" ("" for none)."""
        if not self.shown:
            return ""
        from siftui.core.findings import counter_line

        return counter_line(self.shown)

    def kind_at(self, line: int, column: int) -> str:
        """The kind of the hidden text at ``column`` of ``line`` ("" for none)."""
        for mark in self.lines.get(line, ()):
            if mark.start <= column < mark.end:
                return mark.finding.kind
        return ""


NONE = HiddenMarks({}, ())


def hidden_marks(layout: Layout, doc: Doc, findings: Sequence[Finding]) -> HiddenMarks:
    """The alarms among ``findings`` that the answer laid out as ``layout`` shows, and where."""
    by_page: dict[int, list[Finding]] = {}
    for finding in findings:
        if finding.alarm and 1 <= finding.page <= len(doc.pages):
            by_page.setdefault(finding.page, []).append(finding)
    if not by_page:
        return NONE
    lines: dict[int, list[Mark]] = {}
    if layout.kind is AnswerKind.GREP:
        _grep_marks(layout, by_page, lines)
    else:
        _block_marks(layout, doc, by_page, lines)
    shown: dict[int, Finding] = {}
    for marks in lines.values():
        for mark in marks:
            shown.setdefault(id(mark.finding), mark.finding)
    ordered = tuple(f for page in sorted(by_page) for f in by_page[page] if id(f) in shown)
    return HiddenMarks(
        {number: tuple(sorted(marks, key=lambda m: m.start)) for number, marks in lines.items()},
        ordered,
    )


def _block_marks(
    layout: Layout, doc: Doc, by_page: dict[int, list[Finding]], lines: dict[int, list[Mark]]
) -> None:
    """Page blocks: a marker line, a blank line, then the page's stripped text, line by line."""
    from siftui.core.findings import marks as place

    for number, role in enumerate(layout.roles):
        if role is not Role.MARKER:
            continue
        page = layout.line_pages[number]
        found = by_page.get(page)
        if not found:
            continue
        text = doc.pages[page - 1]
        lead = len(text) - len(text.lstrip())
        size = len(text.strip())
        spans = [
            (max(0, begin - lead), min(size, end - lead), finding)
            for begin, end, finding in place(text, found)
        ]
        offset = 0
        line = number + 2  # the text starts after the marker and a blank line
        while line < len(layout.lines) and layout.line_pages[line] == page:
            length = len(layout.lines[line])
            for begin, end, finding in spans:
                start, stop = max(begin, offset), min(end, offset + length)
                if start < stop:
                    lines.setdefault(line, []).append(Mark(start - offset, stop - offset, finding))
            offset += length + 1
            line += 1


def _grep_marks(
    layout: Layout, by_page: dict[int, list[Finding]], lines: dict[int, list[Mark]]
) -> None:
    for number, role in enumerate(layout.roles):
        if role not in (Role.MATCH, Role.CONTEXT):
            continue
        found = by_page.get(layout.line_pages[number])
        if not found:
            continue
        prefix = layout.prefix_length(number)
        body = layout.lines[number][prefix:]
        for finding in found:
            for piece in finding.text.split("\n"):
                piece = piece.strip()
                at = body.find(piece) if piece else -1
                if at >= 0:
                    mark = Mark(prefix + at, prefix + at + len(piece), finding)
                    lines.setdefault(number, []).append(mark)
