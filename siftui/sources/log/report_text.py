"""The call-log report as `siftui log FILE --report` prints it, line by line. Pure.

Each finding has its own line maker, so the TUI's report screen says the same
words as the command line.
"""

from __future__ import annotations

from collections.abc import Sequence

from siftui.core.tools.table import logged_as
from siftui.sources.log.calllog import LogEntry
from siftui.sources.log.report import CutAnswer, DocumentUse, ErrorCall, LogReport, spans

__all__ = [
    "calls_text",
    "cut_line",
    "document_lines",
    "document_title",
    "empty_grep_line",
    "error_line",
    "loop_line",
    "re_read_part",
    "report_text",
    "summary_line",
]

_OUTCOMES = {
    "fixed": "fixed by call {next}",
    "failed again": "call {next} failed too",
    "another document": "not retried: call {next} read another document",
    "last call": "the last call: never retried",
}


def calls_text(numbers: Sequence[int]) -> str:
    """Call numbers in words: "call 3" or "calls 3, 4"."""
    return ("call " if len(numbers) == 1 else "calls ") + ", ".join(map(str, numbers))


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summary_line(found: LogReport) -> str:
    """The first line: "8 calls (2 failed) on 1 document"."""
    errors = len(found.errors)
    return (
        f"{found.calls:,} call{'s' if found.calls != 1 else ''}"
        + (f" ({errors} failed)" if errors else "")
        + f" on {len(found.documents)} document{'s' if len(found.documents) != 1 else ''}"
    )


def document_title(use: DocumentUse) -> str:
    sha = f" (sha256 {use.sha256[:12]}…)" if use.sha256 else ""
    return f"{use.path}{sha}"


def re_read_part(page: int, calls: Sequence[int]) -> str:
    """One page read again: "page 2 (calls 2, 3, 4)"."""
    return f"page {page} ({calls_text(calls)})"


def document_lines(use: DocumentUse) -> list[str]:
    """The document's calls, pages read, never read and read more than once (unindented)."""
    lines = [f"calls: {spans(use.calls)}"]
    if not logged_as(use.tool).pages:
        return [*lines, f"pages read: not counted (read with {use.tool})"]
    read = spans(sorted(use.read)) or "none"
    total = use.document_runes
    if total:
        share = f"{use.runes_read:,} of {total:,} runes ({100 * use.runes_read / total:.1f}%)"
    else:
        share = f"{use.runes_read:,} runes (the document's size is unknown)"
    of = f" of {use.extracted:,}" if use.extracted is not None else ""
    last = use.extracted if use.extracted is not None else len(use.read)
    pages = "page" if last == 1 else "pages"
    lines.append(f"pages read: {read} ({len(use.read):,}{of} {pages}, {share})")
    never = use.never_read
    if never is None:
        lines.append("never read: unknown (no map, no document to count its pages)")
    else:
        lines.append(f"never read: {spans(never) or 'none'}")
    if use.re_read:
        again = "; ".join(re_read_part(page, calls) for page, calls in use.re_read.items())
        lines.append(f"read more than once: {again}; {use.re_read_runes:,} runes spent on re-reads")
    return lines


def loop_line(entry: LogEntry, numbers: Sequence[int]) -> str:
    return f"{entry.described} on {entry.requested}: {calls_text(numbers)}"


def error_line(error: ErrorCall) -> str:
    outcome = _OUTCOMES[error.outcome].format(next=error.next_call)
    return f"call {error.call}: {_short(error.message)} -- {outcome}"


def empty_grep_line(number: int, entry: LogEntry) -> str:
    return f"call {number}: {entry.described} on {entry.requested}"


def cut_line(cut: CutAnswer) -> str:
    if cut.followed_by is not None:
        verdict = f"followed by call {cut.followed_by}"
    elif cut.asked is None and "narrow the pattern" not in cut.note:
        verdict = "nothing to follow: the rest of the page is reachable only by grep"
    elif cut.next_call is None:
        verdict = "not followed: no later call on this document"
    else:
        verdict = f"not followed (next call on this document: {cut.next_call})"
    return f"call {cut.call}: {_short(cut.note)} -- {verdict}"


def report_text(found: LogReport) -> str:
    """Sections for the documents, loops, errors, empty greps and cut answers."""
    lines = [summary_line(found)]
    for use in found.documents:
        lines.append("")
        lines.append(document_title(use))
        lines.extend(f"  {line}" for line in document_lines(use))
    lines.append("")
    lines.append("identical calls repeated (loops):" + ("" if found.loops else " none"))
    lines.extend(f"  {loop_line(entry, numbers)}" for entry, numbers in found.loops)
    lines.append("errors:" + ("" if found.errors else " none"))
    lines.extend(f"  {error_line(error)}" for error in found.errors)
    lines.append("grep patterns with no matches:" + ("" if found.empty_greps else " none"))
    lines.extend(f"  {empty_grep_line(number, entry)}" for number, entry in found.empty_greps)
    lines.append("cut answers:" + ("" if found.cut else " none"))
    lines.extend(f"  {cut_line(cut)}" for cut in found.cut)
    return "\n".join(lines) + "\n"
