"""The audit's summary as one self-contained HTML page: the terminal's tables and
a histogram of tokens per document (inline SVG; no script, no network)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from siftui.sources.audit.summary import SummaryTable

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
rect.bar { fill: #4a7ab5; }
"""


def histogram_bins(tokens: Sequence[int]) -> list[tuple[int, int, int]]:
    """(low, high, count): powers of ten, [0, 10), [10, 100), ... up to the largest."""
    if not tokens:
        return []
    top = max(1, math.ceil(math.log10(max(tokens) + 1)))
    bins = [(0 if k == 0 else 10**k, 10 ** (k + 1), 0) for k in range(top)]
    counts = [0] * top
    for value in tokens:
        counts[min(top - 1, len(str(max(value, 0))) - 1)] += 1
    return [(low, high, counts[k]) for k, (low, high, _) in enumerate(bins)]


def _svg(tokens: Sequence[int]) -> str:
    bins = histogram_bins(tokens)
    if not bins:
        return "<p>No document was read.</p>"
    width, height, bar = 60 * len(bins) + 40, 220, 50
    tallest = max(count for _, _, count in bins) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="tokens per document">'
    ]
    for k, (low, high, count) in enumerate(bins):
        h = round(150 * count / tallest)
        x = 30 + 60 * k
        parts.append(
            f'<rect class="bar" x="{x}" y="{170 - h}" width="{bar}" height="{h}">'
            f"<title>{low:,}-{high - 1:,} tokens: {count}</title></rect>"
            f'<text x="{x + bar // 2}" y="{165 - h}" text-anchor="middle">{count}</text>'
            f'<text x="{x + bar // 2}" y="190" text-anchor="middle" font-size="11">'
            f"&lt;{_short(high)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _short(value: int) -> str:
    for unit, size in (("M", 10**6), ("k", 10**3)):
        if value >= size:
            return f"{value // size}{unit}"
    return str(value)


def _numeric(cell: str) -> bool:
    return cell.replace(",", "").isdigit()


def _table(table: SummaryTable) -> str:
    head = "".join(f"<th>{escape(cell)}</th>" for cell in table.headers)
    rows = []
    for row in table.rows:
        cells = "".join(
            f'<td class="n">{escape(c)}</td>' if _numeric(c) else f"<td>{escape(c)}</td>"
            for c in row
        )
        rows.append(f"<tr>{cells}</tr>")
    body = (
        "".join(rows)
        or f'<tr class="none"><td colspan="{len(table.headers)}">{escape(table.empty)}</td></tr>'
    )
    return (
        f"<h2>{escape(table.title)}</h2>\n"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>\n"
    )


def page(found: Sequence[SummaryTable], tokens: Sequence[int], title: str = "siftui audit") -> str:
    """The whole page."""
    tables = "".join(_table(table) for table in found)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>\n"
        f"<h1>{escape(title)}</h1>\n{tables}"
        f"<h2>Tokens per document (o200k)</h2>\n{_svg(tokens)}\n</body></html>\n"
    )
