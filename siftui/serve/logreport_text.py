"""The call-log report as `siftui log FILE --report` prints it. Pure."""

from __future__ import annotations

from siftui.serve.logreport import LogReport, spans
from siftui.walk import describe_options

_OUTCOMES = {
    "fixed": "fixed by call {next}",
    "failed again": "call {next} failed too",
    "another document": "not retried: call {next} read another document",
    "last call": "the last call: never retried",
}


def _calls(numbers: list[int] | tuple[int, ...]) -> str:
    return ("call " if len(numbers) == 1 else "calls ") + ", ".join(map(str, numbers))


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def report_text(found: LogReport) -> str:
    """Sections for the documents, loops, errors, empty greps and cut answers."""
    errors = len(found.errors)
    lines = [
        f"{found.calls:,} call{'s' if found.calls != 1 else ''}"
        + (f" ({errors} failed)" if errors else "")
        + f" on {len(found.documents)} document{'s' if len(found.documents) != 1 else ''}"
    ]
    for use in found.documents:
        lines.append("")
        sha = f" (sha256 {use.sha256[:12]}…)" if use.sha256 else ""
        lines.append(f"{use.path}{sha}")
        lines.append(f"  calls: {spans(use.calls)}")
        read = spans(sorted(use.read)) or "none"
        total = use.document_runes
        if total:
            share = f"{use.runes_read:,} of {total:,} runes ({100 * use.runes_read / total:.1f}%)"
        else:
            share = f"{use.runes_read:,} runes (the document's size is unknown)"
        of = f" of {use.extracted:,}" if use.extracted is not None else ""
        lines.append(f"  pages read: {read} ({len(use.read):,}{of} pages, {share})")
        never = use.never_read
        if never is None:
            lines.append("  never read: unknown (no map, no document to count its pages)")
        else:
            lines.append(f"  never read: {spans(never) or 'none'}")
        if use.re_read:
            again = "; ".join(
                f"page {page} ({_calls(calls)})" for page, calls in use.re_read.items()
            )
            lines.append(
                f"  read more than once: {again}; {use.re_read_runes:,} runes spent on re-reads"
            )
    lines.append("")
    lines.append("identical calls repeated (loops):" + ("" if found.loops else " none"))
    for entry, numbers in found.loops:
        lines.append(f"  {describe_options(entry.options)} on {entry.requested}: {_calls(numbers)}")
    lines.append("errors:" + ("" if found.errors else " none"))
    for error in found.errors:
        outcome = _OUTCOMES[error.outcome].format(next=error.next_call)
        lines.append(f"  call {error.call}: {_short(error.message)} -- {outcome}")
    lines.append("grep patterns with no matches:" + ("" if found.empty_greps else " none"))
    for number, entry in found.empty_greps:
        lines.append(f"  call {number}: {describe_options(entry.options)} on {entry.requested}")
    lines.append("cut answers:" + ("" if found.cut else " none"))
    for cut in found.cut:
        if cut.followed_by is not None:
            verdict = f"followed by call {cut.followed_by}"
        elif cut.asked is None and "narrow the pattern" not in cut.note:
            verdict = "nothing to follow: the rest of the page is reachable only by grep"
        elif cut.next_call is None:
            verdict = "not followed: no later call on this document"
        else:
            verdict = f"not followed (next call on this document: {cut.next_call})"
        lines.append(f"  call {cut.call}: {_short(cut.note)} -- {verdict}")
    return "\n".join(lines) + "\n"
