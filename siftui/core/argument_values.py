"""A call's argument values checked against their property schemas: the half of
:mod:`siftui.core.arguments` that both checking a call and checking a schema's
defaults use (the messages are listed there). Pure: standard library only."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from siftui.core.text import LONE_SURROGATE

__all__ = [
    "MAX_QUOTED",
    "TYPE_NAMES",
    "ArgumentError",
    "check_object",
    "check_value",
    "echoed",
    "is_open",
    "properties_of",
    "utf16_length",
]

MAX_QUOTED: Final = 200
"""Characters of an unknown key an error message repeats, at most."""

ELLIPSIS: Final = "…"


class ArgumentError(ValueError):
    """A call's arguments refused; ``str(error)`` is the one-line message the tool answers."""


TYPE_NAMES: Final = {
    "integer": "an integer",
    "boolean": "true or false",
    "string": "a string",
    "object": "an object",
    "array": "an array",
}

# What a quoted key must not hold for the message to stay one valid line: C0 controls and
# DEL, the other characters str.splitlines breaks at, and surrogates (not UTF-8).
_ESCAPES: Final = (
    {code: f"\\x{code:02x}" for code in (*range(32), 127, 0x85)}
    | {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"}
    | {code: f"\\u{code:04x}" for code in (0x2028, 0x2029, *range(0xD800, 0xE000))}
)


def utf16_length(text: str) -> int:
    """``text``'s length in UTF-16 code units (a code point outside the BMP is 2; a lone
    surrogate 1)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def check_object(
    owner: str,
    prefix: str,
    schema: Mapping[str, Any],
    given: Mapping[Any, Any],
    messages: Mapping[str, str],
) -> dict[str, Any]:
    properties = properties_of(schema)
    for key in given:
        if not isinstance(key, str) or key not in properties:
            takes = ", ".join(properties) if properties else "no arguments"
            raise ArgumentError(f'unknown argument "{prefix}{echoed(key)}" ({owner} takes {takes})')
    required = schema.get("required", ())
    checked: dict[str, Any] = {}
    for name, rules in properties.items():
        key = prefix + name
        if name in given:
            checked[name] = check_value(key, rules, given[name], messages)
        elif name in required:
            raise ArgumentError(f'missing argument "{key}"')
        elif "default" in rules:
            checked[name] = rules["default"]
    return checked


def check_value(
    key: str, rules: Mapping[str, Any], value: object, messages: Mapping[str, str]
) -> Any:
    kind = rules["type"]
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            raise ArgumentError(f'argument "{key}" must be an integer')
        low, high = rules.get("minimum"), rules.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ArgumentError(
                messages.get(key) or f'argument "{key}" must be {_bounds(low, high)}'
            )
        return value
    if kind == "string":
        if not isinstance(value, str):
            raise ArgumentError(f'argument "{key}" must be a string')
        if LONE_SURROGATE.search(value):
            raise ArgumentError(f'argument "{key}" is not valid text')
        low, high = rules.get("minLength"), rules.get("maxLength")
        if low is not None or high is not None:
            length = utf16_length(value)
            if (low is not None and length < low) or (high is not None and length > high):
                bounds = _bounds(low, high)
                unit = (
                    "UTF-16 unit" if bounds in ("1", "at least 1", "at most 1") else "UTF-16 units"
                )
                raise ArgumentError(
                    messages.get(key) or f'argument "{key}" must be {bounds} {unit}'
                )
        allowed = rules.get("enum")
        if allowed is not None and value not in allowed:
            raise ArgumentError(
                messages.get(key) or f'argument "{key}" must be {_choices(allowed)}'
            )
        return value
    if kind == "boolean":
        if not isinstance(value, bool):
            raise ArgumentError(f'argument "{key}" must be true or false')
        return value
    if kind == "array":
        return _check_array(key, rules, value, messages)
    if not isinstance(value, Mapping):
        raise ArgumentError(f'argument "{key}" must be an object')
    if is_open(rules):  # its keys are the tool's to check, with the tool's words
        return dict(value)
    return check_object(key, f"{key}.", rules, value, messages)


def _check_array(
    key: str, rules: Mapping[str, Any], value: object, messages: Mapping[str, str]
) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise ArgumentError(f'argument "{key}" must be an array')
    low, high = rules.get("minItems"), rules.get("maxItems")
    if (low is not None and len(value) < low) or (high is not None and len(value) > high):
        raise ArgumentError(
            messages.get(key) or f'argument "{key}" must hold {_bounds(low, high)} items'
        )
    return [
        check_value(f"{key}[{number}]", rules["items"], item, messages)
        for number, item in enumerate(value, 1)
    ]


def is_open(rules: Mapping[str, Any]) -> bool:
    """An object property whose keys the tool checks itself (EDITING.md's E13 target):
    ``{"type": "object", "additionalProperties": true}``, no properties."""
    return rules.get("additionalProperties") is True and "properties" not in rules


def _bounds(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return str(low) if low == high else f"{low}-{high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _choices(allowed: list[str]) -> str:
    shown = [json.dumps(value, ensure_ascii=False) for value in allowed]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def echoed(key: object) -> str:
    """``key`` as a message repeats it: one line, valid UTF-8, at most MAX_QUOTED
    characters (then how many it had, in plain digits)."""
    shown = str(key).translate(_ESCAPES)
    if len(shown) <= MAX_QUOTED:
        return shown
    return f"{shown[:MAX_QUOTED]}{ELLIPSIS} ({len(shown)} characters)"


def properties_of(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    properties = schema.get("properties")
    return properties if isinstance(properties, Mapping) else {}


# --- checking a schema ----------------------------------------------------------------
