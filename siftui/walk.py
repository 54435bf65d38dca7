"""Following the answers as an agent would: the next call, and a whole reading.

Pure: no I/O. An agent that reads the map and obeys every note makes exactly
the calls :func:`walk` returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from siftui.doc import Doc
from siftui.render import Options, Rendered, render

_ASK = re.compile(r'ask for pages="([0-9]+-[0-9]*)"')


def next_call(options: Options, answer: Rendered, extracted: int) -> Options | None:
    """The call that continues ``answer``, or None when nothing is left to ask.

    A map whose leading pages end at page k continues with ``pages="k+1-"``;
    a note that names a call (``ask for pages="16-30"``) continues with it.
    The OutCap stays the same: it is the tool's, not the agent's.
    """
    found = _ASK.search(answer.note)
    if found is not None:
        return Options(pages=found.group(1), out_cap=options.out_cap)
    if answer.map and not options.grep and answer.last < extracted:
        return Options(pages=f"{answer.last + 1}-", out_cap=options.out_cap)
    return None


@dataclass(frozen=True)
class Call:
    options: Options
    answer: Rendered


def walk(doc: Doc, out_cap: int) -> list[Call]:
    """Every call needed to see each extracted page once (a cut page counts as seen)."""
    options: Options | None = Options(out_cap=out_cap)
    calls: list[Call] = []
    while options is not None:
        answer = render(doc, options)
        calls.append(Call(options, answer))
        options = next_call(options, answer, doc.extracted)
    return calls
