"""A session script: calls as JSON Lines, run in one fresh session, printed as sent.

Each line is ``{"tool": <name>, "arguments": {...}}`` (``arguments`` may be
left out for a tool that takes none). A blank line is skipped; any other line
that is not such an object prints ``error: line <n>: not a call`` and the
session goes on. Every call prints the lines of
:meth:`EvidenceAnswer.lines`: its JSON text, an image block's
``image: <w>x<h> png <sha256>`` line before it, or ``error: <message>``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from siftui.serve.evidence.connection import EvidenceAnswer

MAX_LINE_CHARS = 10_000_000
"""A script line longer than this is not read as a call (its JSON is not parsed)."""


@dataclass(frozen=True)
class Call:
    tool: str
    arguments: Any


def parse_call(line: str) -> Call | None:
    """The call a script line holds, or None when it holds none."""
    if len(line) > MAX_LINE_CHARS:
        return None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("tool"), str):
        return None
    if set(value) - {"tool", "arguments"}:
        return None
    return Call(value["tool"], value.get("arguments", {}))


def call_line(tool: str, arguments: Any) -> str:
    """A call as a script line (what the TUI saves and ``siftui session`` reads)."""
    return json.dumps({"tool": tool, "arguments": arguments}, ensure_ascii=False)


def run_script(lines: Iterable[str], call: Callable[[str, Any], EvidenceAnswer]) -> Iterator[str]:
    """The printed lines of a script, call by call, as each call is answered."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        parsed = parse_call(line)
        if parsed is None:
            yield f"error: line {number}: not a call"
            continue
        yield from call(parsed.tool, parsed.arguments).lines()
