"""Hidden text: what the agent reads that no person sees on the page.

Pure data and helpers, no PyMuPDF: siftui.sources.hidden.detect finds the findings, the CLI,
the TUI and the MCP server show them. A finding is a piece of a page's
extracted text (the contract's ``page.get_text()``) that is not visible when
the page is drawn, with the way it is hidden (its *kind*):

- ``invisible``: drawn in render mode 3 (neither filled nor stroked), or with
  glyphs that draw nothing (a Type 3 font's empty glyph procedures);
- ``transparent``: drawn with opacity 0;
- ``low_contrast``: in the colour of what is painted under it (white on a
  white page, black on a black box);
- ``tiny``: under 1 pt high, or squeezed to a smear (a horizontal scaling of 1%);
- ``off_page``: (mostly) outside the page's crop box;
- ``covered``: under an image or a filled shape drawn after it;
- ``remapped``: the page draws other letters than extraction reads (the font's
  ToUnicode map disagrees with its glyphs' names);
- ``ocr_layer``: text that paints nothing (invisible, or with opacity 0) over an
  image, or over shapes that draw its own glyphs, as a scan's OCR layer is. It
  is reported but is not an alarm: that text is what the picture shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from siftui.core.text import collapse_whitespace

KINDS: tuple[str, ...] = (
    "invisible",
    "transparent",
    "low_contrast",
    "tiny",
    "off_page",
    "covered",
    "remapped",
    "ocr_layer",
)
NOT_ALARMS = frozenset({"ocr_layer"})
ALARMS = frozenset(KINDS) - NOT_ALARMS

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Finding:
    """One hidden piece of a page's text.

    ``page`` is 1-based; ``text`` is a substring of that page's extracted text
    (``Doc.pages[page - 1]``), so :func:`locate` finds it there; ``bbox`` is
    (x0, y0, x1, y1) in PDF points, unrotated page space, y downwards.
    """

    page: int
    kind: str
    text: str
    bbox: Box

    @property
    def alarm(self) -> bool:
        return self.kind in ALARMS


@dataclass(frozen=True)
class Inspection:
    """All findings of a document, in page order (the order of each page's content).

    ``unextracted`` is hidden text the extraction does not hold (clipped away,
    say): no agent reads it, so it is listed apart and is never an alarm; its
    ``text`` is as drawn, not a substring of the page's text.
    """

    page_count: int
    pages_inspected: int
    findings: tuple[Finding, ...] = ()
    unextracted: tuple[Finding, ...] = ()

    @property
    def alarms(self) -> tuple[Finding, ...]:
        return tuple(finding for finding in self.findings if finding.alarm)

    def on_page(self, page: int) -> tuple[Finding, ...]:
        return tuple(finding for finding in self.findings if finding.page == page)


def summary(findings: Iterable[Finding]) -> dict[str, int]:
    """{kind: count}, kinds in the order of KINDS, only those found."""
    counts = dict.fromkeys(KINDS, 0)
    for finding in findings:
        counts[finding.kind] = counts.get(finding.kind, 0) + 1
    return {kind: count for kind, count in counts.items() if count}


def pages_with(findings: Iterable[Finding], *, alarms_only: bool = True) -> list[int]:
    """The sorted pages holding a finding (an alarm, unless ``alarms_only`` is false)."""
    return sorted({f.page for f in findings if f.alarm or not alarms_only})


_SPACE = re.compile(r"\s+")


def locate(page_text: str, text: str, start: int = 0) -> tuple[int, int] | None:
    """Where ``text`` is in ``page_text`` (from ``start``): (begin, end), or None.

    An exact match first; else one where white space may differ (a line break
    for a space, spaces added or dropped between words), as extraction may join
    pieces of a page otherwise than the drawing order does.
    """
    if not text:
        return None
    found = page_text.find(text, start)
    if found >= 0:
        return found, found + len(text)
    letters = [re.escape(char) for char in "".join(_SPACE.split(text))]
    if not letters:
        return None
    pattern = re.compile(r"\s*".join(letters))
    match = pattern.search(page_text, start)
    if match is None:
        return None
    return match.start(), match.end()


def marks(page_text: str, findings: Sequence[Finding]) -> list[tuple[int, int, Finding]]:
    """Where each finding of one page is in its text: (begin, end, finding), sorted.

    Findings are located in order, each after the one before when possible
    (the same hidden sentence may occur twice on a page); one that cannot be
    located (should not happen) is left out. Display only: the text is unchanged.
    """
    placed: list[tuple[int, int, Finding]] = []
    cursor = 0
    for finding in findings:
        where = locate(page_text, finding.text, cursor) or locate(page_text, finding.text)
        if where is None:
            continue
        placed.append((where[0], where[1], finding))
        cursor = where[1]
    return sorted(placed, key=lambda item: (item[0], item[1]))


def finding_json(finding: Finding) -> dict[str, Any]:
    return {
        "page": finding.page,
        "kind": finding.kind,
        "text": finding.text,
        "bbox": [round(value, 2) for value in finding.bbox],
    }


def finding_from_json(value: Any) -> Finding:
    """The inverse of :func:`finding_json`; ValueError for anything else."""
    if not isinstance(value, dict):
        raise ValueError("a finding is not an object")
    page, kind, text, bbox = (value.get(key) for key in ("page", "kind", "text", "bbox"))
    if not (isinstance(page, int) and not isinstance(page, bool) and page >= 1):
        raise ValueError("bad page")
    if kind not in KINDS or not isinstance(text, str):
        raise ValueError("bad kind or text")
    if not (
        isinstance(bbox, list)
        and len(bbox) == 4
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in bbox)
    ):
        raise ValueError("bad bbox")
    x0, y0, x1, y1 = (float(v) for v in bbox)
    return Finding(page=page, kind=kind, text=text, bbox=(x0, y0, x1, y1))


def inspection_json(path: str, inspection: Inspection) -> dict[str, Any]:
    """What ``siftui inspect --json`` prints (``pages_inspected``: fewer than ``pages``
    with --max-pages, so a script can tell the rest was never looked at)."""
    return {
        "file": path,
        "pages": inspection.page_count,
        "pages_inspected": inspection.pages_inspected,
        "findings": [finding_json(finding) for finding in inspection.findings],
        "summary": summary(inspection.findings),
        "not_extracted": [finding_json(finding) for finding in inspection.unextracted],
    }


def snippet(text: str, limit: int = 60) -> str:
    """A finding's text on one line for people: white space collapsed, cut with "…"."""
    flat = collapse_whitespace(text)
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def in_pages(findings: Iterable[Finding], first: int, last: int) -> tuple[Finding, ...]:
    """The findings on pages first..last (an answer's range; none when first < 1)."""
    if first < 1:
        return ()
    return tuple(finding for finding in findings if first <= finding.page <= last)


def counter_line(findings: Sequence[Finding]) -> str:
    """For the TUI's counter: "hidden text: 3 spans on 2 pages (412 runes) in this answer"
    (alarms only; "" when there are none)."""
    alarms = [finding for finding in findings if finding.alarm]
    if not alarms:
        return ""
    pages = len(pages_with(alarms))
    runes = sum(len(finding.text) for finding in alarms)
    return (
        f"hidden text: {len(alarms)} span{'' if len(alarms) == 1 else 's'} on {pages} "
        f"page{'' if pages == 1 else 's'} ({runes:,} runes) in this answer"
    )


def warning_line(findings: Sequence[Finding]) -> str:
    """For the MCP server's --warn-hidden: one line naming the pages ("" for no alarm)."""
    pages = pages_with(findings)
    if not pages:
        return ""
    return (
        "warning: this answer contains text that is invisible on the page "
        f"(page{'' if len(pages) == 1 else 's'} {', '.join(str(page) for page in pages)})"
    )


def summary_line(inspection: Inspection) -> str:
    """The one summary of an inspection (``siftui inspect``'s last line, the title of
    the TUI's list): the alarms, spans, pages and runes counted as the TUI's counter
    counts them, then what is not an alarm (OCR layers, text not extracted)."""
    inspected = inspection.pages_inspected
    of = "" if inspected == inspection.page_count else f" of {inspection.page_count}"
    pages = f"{inspected:,} page{'' if inspected == 1 else 's'}{of} inspected"
    count = len(inspection.unextracted)
    apart = (
        f"; {count} more hidden but not extracted, which no agent reads (not an alarm)"
        if count
        else ""
    )
    if not inspection.findings:
        return f"no hidden text{apart} ({pages})"
    alarms = inspection.alarms
    others = [finding for finding in inspection.findings if not finding.alarm]
    scans = ", ".join(f"{count} {kind}" for kind, count in summary(others).items())
    if not alarms:
        if apart:
            return f"no hidden text; {scans} (a scan's text: not an alarm){apart} ({pages})"
        return f"no hidden text; {scans} (a scan's text: not an alarm; {pages})"
    counts = ", ".join(f"{count} {kind}" for kind, count in summary(alarms).items())
    also = f"; also {scans} (not an alarm)" if others else ""
    spans = counter_line(alarms).removesuffix(" in this answer")
    return f"{spans}: {counts}{also}{apart} ({pages})"
