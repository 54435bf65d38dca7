"""Following the answers as an agent would: the next call, and a whole reading.

Pure: no I/O. An agent that reads the map and obeys every note makes exactly
the calls :func:`walk` returns.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from siftui.core.answer import estimated_tokens
from siftui.core.budget import BYTES, CHARS, Unit, byte_bound
from siftui.core.doc import Doc
from siftui.core.docindex import SEPARATOR, index_of
from siftui.core.render import INSTRUCTION, Options, Rendered, render

if TYPE_CHECKING:
    from siftui.core.word.render import DocxOptions

_ASK = re.compile(r'ask for pages="([0-9]+-[0-9]*)"')


def next_call(options: Options, answer: Rendered, doc: Doc) -> Options | None:
    """The call that continues ``answer`` on ``doc``, or None when nothing is left to ask.

    A map continues with ``pages="k-"``, k the first page its leading pages do
    not show whole: a page the map cut (page 1 longer than a quarter of the
    OutCap, or a map cut at the OutCap) is not read, so the next call starts at
    it. A note that names a call (``ask for pages="16-30"``) continues with it.
    The OutCap stays the same: it is the tool's, not the agent's.
    """
    found = _ASK.search(answer.note)
    if found is not None:
        return Options(pages=found.group(1), out_cap=options.out_cap, unit=options.unit)
    if answer.map and not options.grep:
        start = _first_page_not_whole(answer, doc)
        if start <= doc.extracted:
            return Options(pages=f"{start}-", out_cap=options.out_cap, unit=options.unit)
    return None


def _first_page_not_whole(answer: Rendered, doc: Doc) -> int:
    """The first page whose R1 block the map ``answer`` does not hold whole."""
    index = index_of(doc)
    # The title line holds no SEPARATOR, and no outline line starts a section, so
    # the first SEPARATOR + INSTRUCTION after the title line is the instruction's.
    after_title = answer.content.find(SEPARATOR)
    mark = SEPARATOR + INSTRUCTION + SEPARATOR
    at = answer.content.find(mark, max(after_title, 0))
    if after_title < 0 or at < 0:
        return 1
    shown = len(answer.content) - (at + len(mark))
    whole, length = 0, -len(SEPARATOR)
    for size in index.block_sizes[: answer.last]:
        length += len(SEPARATOR) + size
        if length > shown:
            break
        whole += 1
    return whole + 1


@dataclass(frozen=True)
class Call:
    options: Options
    answer: Rendered


def walk(doc: Doc, out_cap: int, unit: str = "chars") -> list[Call]:
    """Every call needed to see each extracted page once.

    A page cut to the OutCap by a ``pages=`` call counts as seen: the rest of it
    is what :func:`siftui.core.unreachable.unreachable` reports. A page the map
    cut does not: the next call starts at it.
    """
    options: Options | None = Options(out_cap=out_cap, unit=unit)
    calls: list[Call] = []
    while options is not None:
        answer = render(doc, options)
        calls.append(Call(options, answer))
        options = next_call(options, answer, doc)
    return calls


TokenCounter = Callable[[str], dict[str, int]]


def runes_estimate(text: str) -> dict[str, int]:
    """The counter that loads no vocabulary: the contract's estimate alone."""
    return {"runes/4": estimated_tokens(len(text))}


def describe_options(options: Options | DocxOptions) -> str:
    """The request as the agent writes it, for a PDF or a Word document:
    `pages="12-40", grep="x"`, `range="P5..P9"`, `anchor="P6#ac86", window=0`,
    or "(no options)"."""
    parts = []
    for name in ("pages", "range", "anchor", "grep"):
        value = getattr(options, name, "")
        if value:
            parts.append(f'{name}="{value}"')
            if name == "anchor":
                parts.append(f"window={getattr(options, 'window', 0)}")
    return ", ".join(parts) or "(no options)"


def pages_shown(first: int, last: int) -> str:
    """The pages an answer holds (Rendered.first, .last): "-" for none, "7" or "7-9"."""
    if first < 1:
        return "-"
    return str(first) if first == last else f"{first}-{last}"


def walk_report(calls: list[Call], count: TokenCounter, unit: Unit = CHARS) -> dict[str, Any]:
    """The walk as `siftui walk --json` prints it; ``count`` sizes each answer in tokens.
    With an OutCap in bytes (``unit``) each call and the totals give bytes too."""
    entries = [
        call_entry(call.answer, count, unit, pages=call.options.pages, grep=call.options.grep)
        for call in calls
    ]
    return with_totals(entries, unit)


def call_entry(
    answer: Rendered, count: TokenCounter, unit: Unit = CHARS, **asked: str
) -> dict[str, Any]:
    """One call of a walk report: what it asked (``asked``, in order), then its answer's
    pages or paragraphs, whether it is a map, its size and its note."""
    entry = {
        **asked,
        "first": answer.first,
        "last": answer.last,
        "map": answer.map,
        "runes": len(answer.content),
    }
    if unit is BYTES:
        entry["bytes"] = unit.size(answer.content)
    entry["tokens"] = count(answer.content)
    entry["note"] = answer.note
    return entry


def with_totals(entries: list[dict[str, Any]], unit: Unit = CHARS) -> dict[str, Any]:
    """A walk report from its calls' entries: the entries, their runes and tokens added
    up (`siftui walk --json`'s shape, for PDFs and Word documents alike)."""
    totals: dict[str, int] = {}
    for entry in entries:
        for name, value in entry["tokens"].items():
            totals[name] = totals.get(name, 0) + value
    report: dict[str, Any] = {"calls": entries}
    if unit is BYTES:
        report["unit"] = unit.name
    report["total_runes"] = sum(entry["runes"] for entry in entries)
    if unit is BYTES:
        report["total_bytes"] = sum(entry["bytes"] for entry in entries)
    report["total_tokens"] = totals
    return report


def walk_text(report: dict[str, Any], out_cap: int, unit: Unit = CHARS) -> str:
    """One line per call, then the totals: what `siftui walk` prints."""
    return report_text(
        report,
        out_cap,
        lambda entry: describe_options(Options(pages=entry["pages"], grep=entry["grep"])),
        lambda entry: f"pages {pages_shown(entry['first'], entry['last']):<11}",
        unit,
    )


def report_text(
    report: dict[str, Any],
    out_cap: int,
    request: Callable[[dict[str, Any]], str],
    shown: Callable[[dict[str, Any]], str],
    unit: Unit = CHARS,
) -> str:
    """A walk report as `siftui walk` prints it, for PDFs and Word documents alike:
    one line per call (``request`` says what it asked, ``shown`` what it holds),
    then the totals."""
    lines = []
    for number, entry in enumerate(report["calls"], 1):
        kind = "map" if entry["map"] else "text"
        tokens = "  ".join(f"{name} {value:,}" for name, value in entry["tokens"].items())
        runes = f"{entry['runes']:>9,} runes"
        if unit is BYTES:
            runes += f" {entry['bytes']:>9,} bytes"
        lines.append(
            f"{number:>4}  {request(entry):<22} {kind:<4}  {shown(entry)} {runes}  {tokens}"
        )
    totals = "  ".join(f"{name} {value:,}" for name, value in report["total_tokens"].items())
    cap = f"{out_cap:,} bytes" if unit is BYTES else f"{out_cap:,}"
    size = f"{report['total_runes']:,} runes"
    if unit is BYTES:
        size += f", {report['total_bytes']:,} bytes"
    calls = len(report["calls"])
    lines.append(
        f"total: {calls:,} call{'' if calls == 1 else 's'} at OutCap {cap}, {size}  {totals}"
    )
    if unit is BYTES:
        lines.append(byte_bound(out_cap))
    return "\n".join(lines) + "\n"
