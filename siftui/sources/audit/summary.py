"""An audit's summary from its records: the same tables for the terminal and the page.

:func:`tables` turns the records (the last one of each path counts) into
:class:`SummaryTable` values: totals, the first call at the OutCap, calls per
document, the 20 largest documents, every document with hidden-text alarms,
and every refusal by reason. :func:`text` lays them out for a terminal;
siftui.sources.audit.html for a page.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from siftui.core.kinds import DEFAULT_KIND, kind_named
from siftui.core.terminal import escape_controls

LARGEST = 20


@dataclass(frozen=True)
class SummaryTable:
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    empty: str = "(none)"  # what the table says when it has no rows


def latest(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last record of each path, sorted by path."""
    last: dict[str, dict[str, Any]] = {}
    for record in records:
        last[record["path"]] = record
    return [last[path] for path in sorted(last)]


def _n(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def _sum(records: Sequence[dict[str, Any]], key: str) -> int:
    return sum(r[key] for r in records if isinstance(r.get(key), int))


def _count(records: Sequence[dict[str, Any]], key: str) -> int:
    """How many items the records' lists under ``key`` hold together."""
    return sum(len(r[key]) for r in records if isinstance(r.get(key), list))


def quantile(values: Sequence[int], q: float) -> int:
    """The nearest-rank quantile of sorted ``values`` (0 for none)."""
    if not values:
        return 0
    rank = max(1, math.ceil(q * len(values)))
    return values[rank - 1]


def _size(record: dict[str, Any]) -> str:
    kind = kind_named(str(record.get("kind", ""))) or DEFAULT_KIND
    unit, count = kind.unit, f"{kind.unit}s"
    value = record.get(count, 0)
    return f"{value:,} {unit}{'' if value == 1 else 's'}"


def alarms_text(hidden: dict[str, Any]) -> str:
    return ", ".join(f"{count} {kind}" for kind, count in hidden.get("alarms", {}).items())


def pages_text(pages: Sequence[int]) -> str:
    return ", ".join(str(page) for page in pages)


def tables(records: Iterable[dict[str, Any]]) -> list[SummaryTable]:
    every = latest(records)
    read = [r for r in every if not r.get("error")]
    refused = [r for r in every if r.get("error")]
    out_caps = sorted(
        {
            (r["out_cap"], r.get("unit") == "bytes")
            for r in read
            if isinstance(r.get("out_cap"), int)
        }
    )
    totals = (
        ("documents", _n(len(every))),
        ("audited", _n(len(read))),
        ("refused", _n(len(refused))),
        ("bytes", _n(_sum(every, "size"))),
        ("pages (PDF)", _n(_sum(read, "pages"))),
        ("paragraphs (Word)", _n(_sum(read, "paragraphs"))),
        ("runes", _n(_sum(read, "text_runes"))),
        ("tokens (o200k)", _n(_sum(read, "tokens_o200k"))),
        ("calls to read it all", _n(_sum(read, "calls"))),
        ("runes of those calls", _n(_sum(read, "calls_runes"))),
        ("unreachable runes", _n(_sum(read, "unreachable_runes"))),
        ("pages holding them (PDF)", _n(_count(read, "unreachable_pages"))),
        ("paragraphs holding them (Word)", _n(_count(read, "unreachable_paragraphs"))),
        ("documents with unreadable pages", _n(sum(1 for r in read if r.get("unreadable_pages")))),
        ("documents with image-only pages", _n(sum(1 for r in read if r.get("image_only_pages")))),
        ("documents that need a password", _n(sum(1 for r in every if r.get("needs_password")))),
        (
            "documents opened with the password",
            _n(sum(1 for r in read if r.get("password_worked"))),
        ),
        (
            "OutCap",
            ", ".join(f"{cap:,}{' bytes' if in_bytes else ''}" for cap, in_bytes in out_caps),
        ),
    )
    shapes = Counter(r.get("first_call") for r in read)
    first = tuple((shape, _n(shapes.get(shape, 0))) for shape in ("whole", "map"))
    calls = sorted(r["calls"] for r in read if isinstance(r.get("calls"), int))
    quantiles = tuple(
        (name, _n(quantile(calls, q)))
        for name, q in (("min", 0.0), ("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))
    )
    largest = sorted(read, key=lambda r: (-r.get("tokens_o200k", 0), r["path"]))[:LARGEST]
    hidden = [r for r in read if (r.get("hidden") or {}).get("alarms")]
    inspected = sum(1 for r in read if isinstance(r.get("hidden"), dict))
    reasons = Counter(r["error"] for r in refused)
    return [
        SummaryTable("Totals", ("", "value"), totals),
        SummaryTable("First call at the OutCap", ("shape", "documents"), first),
        SummaryTable("Calls per document", ("quantile", "calls"), quantiles),
        SummaryTable(
            f"The {LARGEST} largest documents",
            ("document", "kind", "size", "tokens (o200k)", "first call", "calls"),
            tuple(
                (
                    r["path"],
                    r.get("kind", ""),
                    _size(r),
                    _n(r.get("tokens_o200k", 0)),
                    r.get("first_call", ""),
                    _n(r.get("calls", 0)),
                )
                for r in largest
            ),
        ),
        SummaryTable(
            "Hidden-text alarms",
            ("document", "alarms", "pages"),
            tuple(
                (r["path"], alarms_text(r["hidden"]), pages_text(r["hidden"]["pages"]))
                for r in hidden
            ),
            _hidden_empty(inspected),
        ),
        SummaryTable(
            "Refusals by reason",
            ("reason", "documents"),
            tuple((reason, _n(count)) for reason, count in sorted(reasons.items())),
        ),
        SummaryTable(
            "Refused documents",
            ("document", "reason"),
            tuple((r["path"], r["error"]) for r in refused),
        ),
    ]


def _hidden_empty(inspected: int) -> str:
    """What an empty alarms table says: none found, or nothing inspected (an audit
    without --hidden looks for no hidden text, and must not read as clean)."""
    if inspected == 0:
        return "(not inspected: audit with --hidden to look for hidden text)"
    return f"(none in {inspected:,} inspected {'document' if inspected == 1 else 'documents'})"


def text(found: Sequence[SummaryTable]) -> str:
    """The tables for a terminal: a title, then aligned columns (an empty table says so).

    Each cell is shown with its controls made visible: a document store's file names and
    MuPDF's reasons are anyone's, and a name holding an escape sequence retitled the
    terminal (or a line break split its row) when the summary printed it as it was."""
    parts: list[str] = []
    for table in found:
        parts.append(table.title)
        if not table.rows:
            parts.append(f"  {table.empty}")
            parts.append("")
            continue
        rows = [table.headers, *(tuple(map(escape_controls, row)) for row in table.rows)]
        widths = [max(len(row[i]) for row in rows) for i in range(len(table.headers))]
        for row in rows:
            cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=True)]
            parts.append("  " + "  ".join(cells).rstrip())
        parts.append("")
    return "\n".join(parts)


def token_counts(records: Iterable[dict[str, Any]]) -> list[int]:
    """Tokens (o200k) of each document read, for the histogram."""
    return [r["tokens_o200k"] for r in latest(records) if isinstance(r.get("tokens_o200k"), int)]
