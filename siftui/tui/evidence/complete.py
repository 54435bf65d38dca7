"""Tab completion of a typed call line: tool names, then argument keys from the schema."""

from __future__ import annotations

import re
from dataclasses import dataclass

from siftui.core.arguments import argument_keys
from siftui.core.evidence.schemas import SCHEMAS, TOOL_NAMES


def _common(words: tuple[str, ...]) -> str:
    """The longest prefix every word shares."""
    first, last = min(words), max(words)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


_OPEN_KEY = re.compile(r'(?:^|[{,])\s*"([A-Za-z]*)$')


@dataclass(frozen=True)
class Completion:
    """The line after Tab, and the choices when more than one fits."""

    text: str
    choices: tuple[str, ...] = ()


def _within(arguments: str) -> tuple[str, set[str]] | None:
    """The dotted key of the object the end of ``arguments`` is in, and the keys it has
    already; None when the end is inside a string value or outside every object."""
    stack: list[tuple[str, set[str]]] = []
    key = ""
    in_string = escaped = False
    token: list[str] = []
    for char in arguments:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
                key = "".join(token)
            else:
                token.append(char)
            continue
        if char == '"':
            in_string, token = True, []
        elif char == ":" and stack:
            stack[-1][1].add(key)
        elif char == "{":
            parent = ".".join(part for part in (stack[-1][0] if stack else "", key) if part)
            stack.append((parent if stack else "", set()))
        elif char == "}" and stack:
            stack.pop()
    if not stack:
        return None
    return stack[-1]


def complete(text: str) -> Completion:
    """``text`` completed at its end (the cursor), as far as the choices agree."""
    tool, space, arguments = text.partition(" ")
    if not space:
        names = tuple(name for name in TOOL_NAMES if name.startswith(tool))
        if len(names) == 1:
            return Completion(names[0] + " {")
        return Completion(_common(names) if names else text, names)
    schema = SCHEMAS.get(tool)
    if schema is None:
        return Completion(text)
    if not arguments.strip():
        return Completion(text.rstrip() + " {", argument_keys(schema))
    open_key = _OPEN_KEY.search(arguments)
    inside = _within(arguments[: open_key.start(1) - 1] if open_key else arguments)
    if inside is None:
        return Completion(text)
    within, present = inside
    keys = tuple(key for key in argument_keys(schema, within) if key not in present)
    if open_key is None:
        stripped = text.rstrip()
        if stripped.endswith(("{", ",")):
            return Completion(stripped + ('"' if stripped.endswith("{") else ' "'), keys)
        return Completion(text, keys)
    prefix = open_key.group(1)
    fitting = tuple(key for key in keys if key.startswith(prefix))
    if len(fitting) == 1:
        return Completion(text[: len(text) - len(prefix)] + fitting[0] + '": ')
    common = _common(fitting) if fitting else prefix
    return Completion(text[: len(text) - len(prefix)] + common, fitting)
