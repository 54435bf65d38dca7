"""A session script's lines: one call each, as JSON (``{"tool": ..., "arguments": ...}``).

The TUI's evidence preview saves its calls in this form and ``siftui session``
(siftui.serve.evidence.script) runs them; one format, written and read here.
A line is UTF-8 with non-ASCII kept as it is, except when an argument holds a
lone surrogate (an agent may send ``"\\ud800"``): UTF-8 cannot hold one, so that
line is written with JSON's ``\\u`` escapes and reads back as the same string.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from siftui.core.json_text import json_or_none

MAX_LINE_CHARS = 10_000_000
"""A script line longer than this is not read as a call (its JSON is not parsed)."""


@dataclass(frozen=True)
class ScriptCall:
    tool: str
    arguments: Any


def call_line(tool: str, arguments: Any) -> str:
    """A call as a script line: what :func:`parse_call` reads back as the same call."""
    value = {"tool": tool, "arguments": arguments}
    line = json.dumps(value, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: escaped, it survives the file
        return json.dumps(value)
    return line


def parse_call(line: str) -> ScriptCall | None:
    """The call a script line holds, or None when it holds none."""
    if len(line) > MAX_LINE_CHARS:
        return None
    value = json_or_none(line)
    if not isinstance(value, dict) or not isinstance(value.get("tool"), str):
        return None
    if set(value) - {"tool", "arguments"}:
        return None
    return ScriptCall(value["tool"], value.get("arguments", {}))
