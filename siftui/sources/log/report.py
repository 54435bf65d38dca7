"""How an agent used the read tool: a report on a call log.

Pure: it takes parsed log entries (siftui.sources.log.reading.read_log) and, when the
caller could load them, the documents the calls read; no I/O. Call numbers are
1-based positions in the log, as the replay numbers them.

What it finds, each with its call numbers:

- per document: the pages read (whole or in part, by pages= or the map's
  leading pages) and the share of the document's runes they hold; the pages
  never read; the pages read more than once and the runes spent re-reading;
- loops: identical calls (same file, pages, grep and OutCap) made again;
- errors, and whether the next call fixed them;
- grep patterns that matched nothing;
- answers cut with a note, and whether the agent followed the note.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from siftui.core.doc import Doc
from siftui.core.docindex import SEPARATOR, index_of, marker
from siftui.core.render import INSTRUCTION, Rendered
from siftui.core.tools.table import FIRST_LOGGED, logged_as
from siftui.sources.log.calllog import LogEntry
from siftui.sources.log.evidence_report import is_evidence

__all__ = ["CutAnswer", "DocumentUse", "ErrorCall", "LogReport", "report", "spans"]

_ASK = re.compile(r'ask for pages="([0-9]+)-?([0-9]*)"')
_ASK_RANGE = re.compile(r'ask for range="[Pp]([0-9]+)(?:\.\.[Pp]?([0-9]*))?"')
_RANGE_START = re.compile(r"\s*[Pp]0*([0-9]+)")
_SCOPE_NAMED = re.compile(r'scope="([a-z]+)"')
_NARROW = "narrow the pattern"
_STATS = re.compile(r"^[0-9]+ pages? · ~[0-9]+ tokens(?: · pages 1-([0-9]+) extracted)?$")
_PAGE_COUNT = re.compile(r"^([0-9]+) pages? · ")
_OUT_OF_RANGE = re.compile(r"pages out of range \(1-([0-9]+)\)")


@dataclass
class DocumentUse:
    """One document (one path with one content) and what the calls read of it."""

    path: str
    sha256: str | None
    calls: list[int] = field(default_factory=list)
    tool: str = FIRST_LOGGED  # the tool that read it: pages are counted for a tool whose
    # entry says so (siftui.core.tools.entry.Logged.pages)
    extracted: int | None = None  # E, when known (the Doc, a map's header or an error)
    block_runes: tuple[int, ...] | None = None  # each page's R1 block, with the Doc
    read: dict[int, int] = field(default_factory=dict)  # page -> most runes shown
    reads: dict[int, list[int]] = field(default_factory=dict)  # page -> calls showing it
    re_read_runes: int = 0

    @property
    def runes_read(self) -> int:
        return sum(self.read.values())

    @property
    def document_runes(self) -> int | None:
        return sum(self.block_runes) if self.block_runes is not None else None

    @property
    def never_read(self) -> list[int] | None:
        if self.extracted is None:
            return None
        return [page for page in range(1, self.extracted + 1) if page not in self.read]

    @property
    def re_read(self) -> dict[int, list[int]]:
        return {page: calls for page, calls in sorted(self.reads.items()) if len(calls) > 1}


@dataclass(frozen=True)
class ErrorCall:
    call: int
    message: str
    next_call: int | None  # the call after it, if any
    outcome: str  # "fixed" | "failed again" | "another document" | "last call"


@dataclass(frozen=True)
class CutAnswer:
    call: int
    note: str
    # the pages= (Word: range=; an empty body's note: "scope=headers,footers") the note
    # asks for; None: it names no call
    asked: str | None
    followed_by: int | None  # the first later call on the document that did what it said
    next_call: int | None  # the next call on the same document, if any


@dataclass(frozen=True)
class LogReport:
    calls: int
    documents: tuple[DocumentUse, ...]
    loops: tuple[tuple[LogEntry, tuple[int, ...]], ...]  # a call and every number it was made
    errors: tuple[ErrorCall, ...]
    empty_greps: tuple[tuple[int, LogEntry], ...]
    cut: tuple[CutAnswer, ...]


DocumentKey = tuple[str, str | None] | None


def _document_key(
    entry: LogEntry, known: Mapping[str, str], opened: Mapping[str, tuple[str, str]]
) -> DocumentKey:
    """A document is a path with one content; a failed call joins the path's content,
    and one refused before its path was resolved joins the document that path opened
    (``opened``: a requested path -> the path and content a call read by it). None for a
    call that names no file (another tool's, or an unreadable request: the server's
    log records those too, with a ``tool`` other than the read tools)."""
    if not logged_as(getattr(entry, "tool", FIRST_LOGGED)).document or not entry.path:
        return None
    if entry.sha256 is None and entry.path == entry.requested and entry.path in opened:
        return opened[entry.path]
    return entry.path, entry.sha256 if entry.sha256 is not None else known.get(entry.path)


def report(entries: Sequence[LogEntry], docs: Mapping[str, Doc] | None = None) -> LogReport:
    """The report of ``entries``; ``docs`` maps a sha256 to the Doc it was read from
    (for the share of runes read and the pages never read)."""
    docs = docs or {}
    shas: dict[str, str] = {}
    opened: dict[str, tuple[str, str]] = {}
    for entry in entries:
        if entry.sha256 is not None:
            shas.setdefault(entry.path, entry.sha256)
            opened.setdefault(entry.requested, (entry.path, entry.sha256))
    documents: dict[tuple[str, str | None], DocumentUse] = {}
    keys: list[DocumentKey] = []
    for number, entry in enumerate(entries, start=1):
        key = _document_key(entry, shas, opened)
        keys.append(key)
        if key is None:
            continue
        use = documents.get(key)
        if use is None:
            tool = getattr(entry, "tool", FIRST_LOGGED)
            use = documents[key] = DocumentUse(path=key[0], sha256=key[1], tool=tool)
            doc = docs.get(key[1]) if key[1] is not None and logged_as(tool).pages else None
            if doc is not None:
                use.extracted = doc.extracted
                use.block_runes = index_of(doc).block_sizes
        use.calls.append(number)
        if not logged_as(use.tool).pages:
            continue  # pages read are a PDF's only
        _learn_extracted(use, entry)
        if entry.rendered is not None and not entry.grep:
            _count_reads(use, number, entry.rendered)
    return LogReport(
        calls=len(entries),
        documents=tuple(documents.values()),
        loops=_loops(entries, keys),
        errors=_errors(entries, keys),
        empty_greps=tuple(
            (number, entry)
            for number, entry in enumerate(entries, start=1)
            if entry.rendered is not None and entry.grep and entry.rendered.grep_hits == 0
        ),
        cut=_cut(entries, keys),
    )


def _where(entry: LogEntry) -> tuple[object, ...]:
    """What a call asked besides its pattern: pages, or a Word document's options."""
    return (entry.pages, getattr(entry, "docx", None))


def _learn_extracted(use: DocumentUse, entry: LogEntry) -> None:
    """E from a map's header line or an out-of-range error, when no Doc gave it."""
    if use.extracted is not None:
        return
    if entry.rendered is None:
        found = _OUT_OF_RANGE.search(entry.message)
        if found is not None:
            use.extracted = int(found.group(1))
        return
    if entry.rendered.map:
        sections = entry.rendered.content.split(SEPARATOR)
        stats = sections[1] if len(sections) > 1 else ""
        found = _STATS.match(stats)
        if found is not None:
            count = _PAGE_COUNT.match(stats)
            use.extracted = int(found.group(1) or (count.group(1) if count else 0))


def shown_pages(answer: Rendered, blocks: tuple[int, ...] | None) -> list[tuple[int, int]]:
    """(page, runes of its block shown) for each page a pages= or map answer holds."""
    content = answer.content
    if answer.map:
        at = content.find(SEPARATOR + INSTRUCTION + SEPARATOR)
        if at < 0:
            return []  # the map was cut before its leading pages
        content = content[at + len(INSTRUCTION) + 2 * len(SEPARATOR) :]
    elif answer.first < 1:
        return []
    shown: list[tuple[int, int]] = []
    offset = 0
    for page in range(answer.first, answer.last + 1):
        if not content.startswith(marker(page), offset):
            break
        if blocks is not None and page <= len(blocks):
            end = min(offset + blocks[page - 1], len(content))
        else:
            following = content.find(SEPARATOR + marker(page + 1) + SEPARATOR, offset)
            end = following if following >= 0 and page < answer.last else len(content)
        shown.append((page, end - offset))
        offset = end + len(SEPARATOR)
    return shown


def _count_reads(use: DocumentUse, number: int, answer: Rendered) -> None:
    for page, runes in shown_pages(answer, use.block_runes):
        calls = use.reads.setdefault(page, [])
        if calls:
            use.re_read_runes += runes
        calls.append(number)
        use.read[page] = max(use.read.get(page, 0), runes)


def _loops(
    entries: Sequence[LogEntry], keys: Sequence[DocumentKey]
) -> tuple[tuple[LogEntry, tuple[int, ...]], ...]:
    seen: dict[tuple[object, ...], list[int]] = {}
    for number, (entry, key) in enumerate(zip(entries, keys, strict=True), start=1):
        if key is None:
            continue
        # A refused call is the same call only when the same arguments were sent: what
        # the server understood of them is nothing (`{"pages": 5}`, `{"out_cap": 5}`).
        sent = json.dumps(entry.arguments, sort_keys=True) if entry.error else None
        same = (key, entry.pages, entry.grep, getattr(entry, "docx", None), entry.out_cap, sent)
        seen.setdefault(same, []).append(number)
    return tuple(
        (entries[numbers[0] - 1], tuple(numbers)) for numbers in seen.values() if len(numbers) > 1
    )


def _errors(entries: Sequence[LogEntry], keys: Sequence[DocumentKey]) -> tuple[ErrorCall, ...]:
    """Failed calls of the read tools (the evidence tools' are their sessions' report)."""
    found: list[ErrorCall] = []
    for index, entry in enumerate(entries):
        if not entry.error or is_evidence(entry):
            continue
        if index + 1 == len(entries):
            outcome, following = "last call", None
        else:
            following = index + 2
            after = entries[index + 1]
            if after.error:
                outcome = "failed again"
            elif (
                keys[index] is not None
                and keys[index + 1] != keys[index]
                and after.requested != entry.requested
            ):
                outcome = "another document"
            else:
                outcome = "fixed"
        found.append(ErrorCall(index + 1, entry.message, following, outcome))
    return tuple(found)


def _follows(note: str, asked: str | None, entry: LogEntry, later: LogEntry) -> bool:
    """Whether ``later`` does what the note on ``entry``'s answer said."""
    if later.rendered is None:
        return False
    if asked is not None and asked.startswith("scope="):  # an empty body's note
        docx = getattr(later, "docx", None)
        named = asked.removeprefix("scope=").split(",")
        return docx is not None and (docx.scope or "body") in named
    if asked is not None and asked.startswith("P"):  # a Word document's range
        docx = getattr(later, "docx", None)
        found = _RANGE_START.match(docx.range) if docx is not None else None
        wanted = asked[1:].split("..")[0].lstrip("0")
        return not later.grep and found is not None and found.group(1) == wanted
    if asked is not None:
        start = asked.split("-")[0]
        return not later.grep and later.pages.strip().split("-")[0].lstrip("0") == start
    if _NARROW in note:
        return bool(later.grep) and (later.grep, _where(later)) != (entry.grep, _where(entry))
    return False


def _cut(entries: Sequence[LogEntry], keys: Sequence[DocumentKey]) -> tuple[CutAnswer, ...]:
    found: list[CutAnswer] = []
    for index, entry in enumerate(entries):
        if entry.rendered is None or not entry.rendered.note:
            continue
        note = entry.rendered.note
        ask = _ASK.search(note)
        asked = f"{ask.group(1)}-{ask.group(2)}" if ask is not None else None
        word_notes = logged_as(getattr(entry, "tool", "")).stories
        word = _ASK_RANGE.search(note) if word_notes else None
        if word is not None:
            asked = f"P{word.group(1)}..{'P' + word.group(2) if word.group(2) else ''}"
        scopes = _SCOPE_NAMED.findall(note) if word_notes else []
        if scopes:
            asked = "scope=" + ",".join(scopes)
        same = [i for i in range(index + 1, len(entries)) if keys[i] == keys[index]]
        followed = next((i + 1 for i in same if _follows(note, asked, entry, entries[i])), None)
        can_follow = asked is not None or _NARROW in note
        found.append(
            CutAnswer(
                call=index + 1,
                note=note,
                asked=asked,
                followed_by=followed if can_follow else None,
                next_call=same[0] + 1 if same else None,
            )
        )
    return tuple(found)


def spans(numbers: Sequence[int]) -> str:
    """1, 2, 3, 7 -> "1-3, 7"."""
    parts: list[str] = []
    run: list[int] = []
    for number in sorted(numbers):
        if run and number == run[-1] + 1:
            run.append(number)
            continue
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [number]
    if run:
        parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ", ".join(parts)


def report_json(found: LogReport) -> dict[str, Any]:
    """The report as `siftui log FILE --report --json` prints it."""
    documents: list[dict[str, Any]] = []
    for use in found.documents:
        total = use.document_runes
        if not logged_as(use.tool).pages:
            documents.append(
                {"path": use.path, "sha256": use.sha256, "tool": use.tool, "calls": use.calls}
            )
            continue
        documents.append(
            {
                "path": use.path,
                "sha256": use.sha256,
                "tool": use.tool,
                "calls": use.calls,
                "extracted_pages": use.extracted,
                "pages_read": sorted(use.read),
                "runes_read": use.runes_read,
                "document_runes": total,
                "percent_read": round(100 * use.runes_read / total, 2) if total else None,
                "never_read": use.never_read,
                "re_read": [{"page": page, "calls": calls} for page, calls in use.re_read.items()],
                "re_read_runes": use.re_read_runes,
            }
        )
    return {
        "calls": found.calls,
        "documents": documents,
        "loops": [
            {
                "path": entry.path,
                "request": entry.described,
                "pages": entry.pages,
                "grep": entry.grep,
                "out_cap": entry.out_cap,
                "calls": list(numbers),
            }
            for entry, numbers in found.loops
        ],
        "errors": [
            {
                "call": error.call,
                "message": error.message,
                "next_call": error.next_call,
                "outcome": error.outcome,
            }
            for error in found.errors
        ],
        "empty_greps": [
            {"call": number, "path": entry.path, "grep": entry.grep, "pages": entry.pages}
            for number, entry in found.empty_greps
        ],
        "cut_answers": [
            {
                "call": cut.call,
                "note": cut.note,
                "asked": cut.asked,
                "followed_by": cut.followed_by,
                "next_call": cut.next_call,
            }
            for cut in found.cut
        ],
    }
