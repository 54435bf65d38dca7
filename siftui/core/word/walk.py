"""Following a Word document's answers as an agent would: the map, then every note.

Pure: no I/O. An agent that reads the map and obeys every note makes exactly
the calls :func:`walk_docx` returns, and sees every shown line once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from siftui.core.budget import CHARS, Unit
from siftui.core.walk import (
    TokenCounter,
    call_entry,
    describe_options,
    report_text,
    runes_estimate,
    with_totals,
)
from siftui.core.word.index import StoryIndex, index_story
from siftui.core.word.model import DocxDoc
from siftui.core.word.render import INSTRUCTION, DocxOptions, Rendered, render_docx

_ASK = re.compile(r'ask for range="(P[0-9]+\.\.P[0-9]+)"')
_LEADING = f"\n\n{INSTRUCTION}\n\n"


def next_docx_call(options: DocxOptions, answer: Rendered, doc: DocxDoc) -> DocxOptions | None:
    """The call that continues ``answer`` on ``doc`` (same scope and OutCap), or None.

    A note that names a call continues with it. A map continues with
    ``range="P<k>.."``, k the first block its leading lines do not show whole:
    a block the map cut (longer than a quarter of the OutCap, or a map cut at
    the OutCap) is not read, so the next call starts at it.
    """
    found = _ASK.search(answer.note)
    if found is not None:
        return DocxOptions(
            range=found.group(1), scope=options.scope, out_cap=options.out_cap, unit=options.unit
        )
    story = doc.stories.get(options.scope or "body")
    if answer.map and not options.grep and story is not None:
        start = _first_block_not_whole(answer, index_story(story))
        if start <= story.count:
            return DocxOptions(
                range=f"P{start}..",
                scope=options.scope,
                out_cap=options.out_cap,
                unit=options.unit,
            )
    return None


def _first_block_not_whole(answer: Rendered, index: StoryIndex) -> int:
    """The first block whose text the map ``answer`` does not hold whole."""
    # The title and the outline hold no blank line (their white space is
    # collapsed), so the first blank-line-framed instruction is the map's own.
    at = answer.content.find(_LEADING)
    if at < 0:
        return 1
    shown = len(answer.content) - (at + len(_LEADING))
    length = -1
    for number in range(1, answer.last + 1):
        text = index.block_text(number)
        if not text:
            continue
        length += 1 + len(text)
        if length > shown:
            return number
    return answer.last + 1


@dataclass(frozen=True)
class DocxCall:
    options: DocxOptions
    answer: Rendered


def walk_docx(
    doc: DocxDoc, out_cap: int, scope: str = "body", unit: str = "chars"
) -> list[DocxCall]:
    """Every call needed to read the story once: no options first, then the notes.

    A block cut to the OutCap by a range counts as seen (the rest of it is what
    :func:`siftui.core.word.unreachable.docx_unreachable` reports); a block the
    map cut does not: the next call starts at it."""
    options: DocxOptions | None = DocxOptions(scope=scope, out_cap=out_cap, unit=unit)
    calls: list[DocxCall] = []
    while options is not None:
        answer = render_docx(doc, options)
        calls.append(DocxCall(options, answer))
        options = next_docx_call(options, answer, doc)
    return calls


# A Word request is described as a PDF's is (one describer for both); this name
# stays for the callers that know it.
describe_docx_options = describe_options


def paragraphs_shown(first: int, last: int) -> str:
    if first < 1:
        return "-"
    return f"P{first}" if first == last else f"P{first}..P{last}"


def walk_docx_report(
    calls: list[DocxCall], count: TokenCounter = runes_estimate, unit: Unit = CHARS
) -> dict[str, Any]:
    """The walk as `siftui walk FILE.docx --json` prints it."""
    entries = [
        call_entry(call.answer, count, unit, range=call.options.range, scope=call.options.scope)
        for call in calls
    ]
    return with_totals(entries, unit)


def walk_docx_text(report: dict[str, Any], out_cap: int, unit: Unit = CHARS) -> str:
    """One line per call, then the totals: what `siftui walk FILE.docx` prints."""
    return report_text(
        report,
        out_cap,
        lambda entry: describe_options(DocxOptions(range=entry["range"])),
        lambda entry: f"paragraphs {paragraphs_shown(entry['first'], entry['last']):<13}",
        unit,
    )
