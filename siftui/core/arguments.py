"""A tool call's arguments checked against the tool's JSON input schema (EVIDENCE.md,
"Strict arguments"): one checker, one wording, for every tool siftui serves.

The schema is the very dict the server publishes as the tool's ``inputSchema``,
plain JSON Schema in this subset (anything else is a :class:`SchemaError`, so
a keyword the checker would ignore cannot slip in)::

    {"type": "object", "properties": {...}, "required": [...],
     "additionalProperties": false}

Each property is ``{"type": "integer"}`` (``minimum``, ``maximum``), ``{"type":
"boolean"}``, ``{"type": "string"}`` (``minLength``, ``maxLength`` in UTF-16 code
units, ``enum``) or a nested ``{"type": "object", ...}`` with the same four keys, or an open object
``{"type": "object", "additionalProperties": true}`` whose keys its tool checks
with its own words, or ``{"type": "array", "items": <a property>}`` (``minItems``,
``maxItems``; item ``i`` is named ``<key>[<i>]``, 1-based, as EDITING.md names
``operations[<i>]``); any property may carry ``description`` and ``title``, an
integer or string one a ``default``.

:func:`check_arguments` raises :class:`ArgumentError`, whose ``str`` is one line:

- ``arguments must be an object``: the arguments are not a JSON object (a
  missing arguments object, None, is ``{}``);
- ``unknown argument "<key>" (<tool> takes <k1>, <k2>, …)``, the keys in the
  schema's order (``(<tool> takes no arguments)`` when it has none). Inside a
  nested object the key is dotted and the object names itself by its dotted
  path: ``unknown argument "range.x" (range takes start, end)``. The unknown key
  is quoted with control characters (and lone surrogates) escaped and cut after
  200 characters, so a huge or hostile key never makes a huge or broken line;
- ``missing argument "<key>"``;
- ``argument "<key>" must be an integer`` / ``a string`` / ``an object`` / ``an
  array`` / ``true or false``: the wrong JSON type (null included; ``true`` and
  ``1.0`` are not integers);
- ``argument "<key>" is not valid text``: a string holding a surrogate code
  point (``json.loads`` joins every valid ``\\ud83d\\ude00`` pair into one code
  point, so those left are lone);
- ``argument "<key>" must be <lo>-<hi>`` (integers), ``... must be <lo>-<hi>
  UTF-16 units`` (strings); with one bound only ``must be at least <lo>`` /
  ``must be at most <hi>`` (``... UTF-16 units``), with equal bounds ``must be
  <n>``; an array ``argument "<key>" must hold <lo>-<hi> items``;
- ``argument "<key>" must be "a", "b" or "c"``: a string outside its ``enum``
  (two values: ``"exact" or "normalized"``, EVIDENCE.md's E7 wording).

Order (EVIDENCE.md): the first unknown key in the call's order; then each schema
key in the schema's order: missing, then type, then valid text, then length or
range, then enum. A nested object is checked in full (its own unknown keys
first) at its key's place in that order.

A range, length or enum message can be replaced for one property by the
``messages`` mapping (dotted key -> the whole one-line message), kept apart
from the schema so that the published schema stays standard JSON Schema. The
type, missing and unknown messages are EVIDENCE.md's and cannot be replaced.

Pure: standard library only, no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "MAX_QUOTED",
    "ArgumentError",
    "SchemaError",
    "argument_keys",
    "check_arguments",
    "check_schema",
    "dotted_keys",
    "echoed",
    "utf16_length",
]

MAX_QUOTED: Final = 200
"""Characters of an unknown key an error message repeats, at most."""

ELLIPSIS: Final = "…"


class ArgumentError(ValueError):
    """A call's arguments refused; ``str(error)`` is the one-line message the tool answers."""


class SchemaError(Exception):
    """A schema or messages mapping outside what this module checks: a programming error,
    not the caller's (deliberately not a ValueError, so no handler of ArgumentError
    turns it into a tool error)."""


_TYPE_NAMES: Final = {
    "integer": "an integer",
    "boolean": "true or false",
    "string": "a string",
    "object": "an object",
    "array": "an array",
}
_ANNOTATIONS: Final = frozenset({"description", "title"})
_OBJECT_KEYWORDS: Final = frozenset({"type", "properties", "required", "additionalProperties"})
_KEYWORDS: Final = {
    "integer": frozenset({"type", "minimum", "maximum", "default"}) | _ANNOTATIONS,
    "boolean": frozenset({"type", "default"}) | _ANNOTATIONS,
    "string": frozenset({"type", "minLength", "maxLength", "enum", "default"}) | _ANNOTATIONS,
    "object": _OBJECT_KEYWORDS | _ANNOTATIONS,
    "array": frozenset({"type", "items", "minItems", "maxItems"}) | _ANNOTATIONS,
}
_OPEN_KEYWORDS: Final = frozenset({"type", "additionalProperties"}) | _ANNOTATIONS
_VALUE_RULES: Final = frozenset(
    {"minimum", "maximum", "minLength", "maxLength", "enum", "minItems", "maxItems"}
)

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
# What a quoted key must not hold for the message to stay one valid line: C0 controls and
# DEL, the other characters str.splitlines breaks at, and surrogates (not UTF-8).
_ESCAPES: Final = (
    {code: f"\\x{code:02x}" for code in (*range(32), 127, 0x85)}
    | {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"}
    | {code: f"\\u{code:04x}" for code in (0x2028, 0x2029, *range(0xD800, 0xE000))}
)


def check_arguments(
    tool: str,
    schema: Mapping[str, Any],
    arguments: object,
    *,
    messages: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``arguments`` checked against ``schema``, or :class:`ArgumentError`.

    Returns a new dict (nested objects new dicts too, the caller's left as they
    are) with the schema's keys in the schema's order: each given value, and for
    an absent optional key with a ``default``, that default (an absent key
    without one stays absent; defaults are filled inside a nested object only
    when the object is given). ``messages`` maps a dotted key to the message
    that replaces its range, length or enum message. The schema (and
    ``messages``) is checked first: :class:`SchemaError` when outside the
    subset.
    """
    check_schema(schema, messages)
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        raise ArgumentError("arguments must be an object")
    return _check_object(tool, "", schema, arguments, messages or {})


def argument_keys(schema: Mapping[str, Any], within: str = "") -> tuple[str, ...]:
    """The keys of the object at the dotted key ``within`` (``""``: the tool's own),
    in schema order, for Tab-completion of a call line; ``()`` when ``within``
    names no object of the schema."""
    node: Mapping[str, Any] = schema
    for part in within.split(".") if within else ():
        child = _properties(node).get(part)
        if not isinstance(child, Mapping) or child.get("type") != "object":
            return ()
        node = child
    return tuple(_properties(node))


def dotted_keys(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """Every key of the schema, dotted, depth first in schema order: ``("documentId",
    "range", "range.start", "range.start.page", ...)``."""
    found: list[str] = []

    def walk(node: Mapping[str, Any], prefix: str) -> None:
        for name, child in _properties(node).items():
            found.append(prefix + name)
            if isinstance(child, Mapping) and child.get("type") == "object":
                walk(child, f"{prefix}{name}.")

    walk(schema, "")
    return tuple(found)


def utf16_length(text: str) -> int:
    """``text``'s length in UTF-16 code units (a code point outside the BMP is 2; a lone
    surrogate 1)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def check_schema(schema: Mapping[str, Any], messages: Mapping[str, str] | None = None) -> None:
    """:class:`SchemaError` unless ``schema`` is in the subset :func:`check_arguments`
    checks (and each key of ``messages`` names a property with a range, length or
    enum rule, its value a one-line message)."""
    if not isinstance(schema, Mapping):
        raise SchemaError("a schema is a JSON object")
    with_rules: set[str] = set()
    _check_object_schema(schema, "", with_rules)
    for key, message in (messages or {}).items():
        if key not in with_rules:
            raise SchemaError(f"messages: {key!r} names no property with a range, length or enum")
        if not isinstance(message, str) or not message or len(message.splitlines()) != 1:
            raise SchemaError(f"messages: {key!r}: a message is one non-empty line")


# --- checking a call ------------------------------------------------------------------


def _check_object(
    owner: str,
    prefix: str,
    schema: Mapping[str, Any],
    given: Mapping[Any, Any],
    messages: Mapping[str, str],
) -> dict[str, Any]:
    properties = _properties(schema)
    for key in given:
        if not isinstance(key, str) or key not in properties:
            takes = ", ".join(properties) if properties else "no arguments"
            raise ArgumentError(f'unknown argument "{prefix}{echoed(key)}" ({owner} takes {takes})')
    required = schema.get("required", ())
    checked: dict[str, Any] = {}
    for name, rules in properties.items():
        key = prefix + name
        if name in given:
            checked[name] = _check_value(key, rules, given[name], messages)
        elif name in required:
            raise ArgumentError(f'missing argument "{key}"')
        elif "default" in rules:
            checked[name] = rules["default"]
    return checked


def _check_value(
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
        if _SURROGATE.search(value):
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
    if _open(rules):  # its keys are the tool's to check, with the tool's words
        return dict(value)
    return _check_object(key, f"{key}.", rules, value, messages)


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
        _check_value(f"{key}[{number}]", rules["items"], item, messages)
        for number, item in enumerate(value, 1)
    ]


def _open(rules: Mapping[str, Any]) -> bool:
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


def _properties(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    properties = schema.get("properties")
    return properties if isinstance(properties, Mapping) else {}


# --- checking a schema ----------------------------------------------------------------


def _check_object_schema(schema: Mapping[str, Any], prefix: str, with_rules: set[str]) -> None:
    where = prefix.rstrip(".") or "the schema"
    extra = set(schema) - _KEYWORDS["object"]
    if extra:
        raise SchemaError(f"{where}: unsupported keywords {sorted(extra)}")
    if schema.get("type") != "object":
        raise SchemaError(f'{where}: "type" must be "object"')
    if schema.get("additionalProperties") is not False:
        raise SchemaError(f'{where}: "additionalProperties" must be false (strict arguments)')
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        raise SchemaError(f'{where}: "properties" must be an object')
    required = schema.get("required", [])
    if (
        not isinstance(required, list | tuple)
        or not all(isinstance(name, str) for name in required)
        or len(set(required)) != len(required)
    ):
        raise SchemaError(f'{where}: "required" must be a list of distinct keys')
    for name in required:
        if name not in properties:
            raise SchemaError(f"{where}: required {name!r} is not a property")
    for name, rules in properties.items():
        if (
            not isinstance(name, str)
            or not name
            or not name.isprintable()
            or any(char.isspace() or char in '."' for char in name)
        ):
            raise SchemaError(f'{where}: {name!r} is not a usable key (printable, no . or ")')
        key = prefix + name
        if not isinstance(rules, Mapping) or rules.get("type") not in _TYPE_NAMES:
            raise SchemaError(f'{key}: "type" must be one of {sorted(_TYPE_NAMES)}')
        if rules["type"] == "array":
            _check_array_schema(key, rules, with_rules)
            continue
        if rules["type"] == "object":
            if "default" in rules:
                raise SchemaError(f"{key}: an object property takes no default")
            if _open(rules):
                extra = set(rules) - _OPEN_KEYWORDS
                if extra:
                    raise SchemaError(f"{key}: unsupported keywords {sorted(extra)}")
                continue
            _check_object_schema(rules, f"{key}.", with_rules)
            continue
        extra = set(rules) - _KEYWORDS[rules["type"]]
        if extra:
            raise SchemaError(f"{key}: unsupported keywords {sorted(extra)}")
        _check_rules(key, rules)
        if _VALUE_RULES & set(rules):
            with_rules.add(key)
        if "default" in rules:
            if name in required:
                raise SchemaError(f"{key}: a required key takes no default")
            try:
                _check_value(key, rules, rules["default"], {})
            except ArgumentError as error:
                raise SchemaError(f"{key}: the default is refused: {error}") from None


def _check_array_schema(key: str, rules: Mapping[str, Any], with_rules: set[str]) -> None:
    extra = set(rules) - _KEYWORDS["array"]
    if extra:
        raise SchemaError(f"{key}: unsupported keywords {sorted(extra)}")
    for name in ("minItems", "maxItems"):
        bound = rules.get(name)
        if bound is not None and (
            not isinstance(bound, int) or isinstance(bound, bool) or bound < 0
        ):
            raise SchemaError(f"{key}: {name} must be an integer of at least 0")
    low, high = rules.get("minItems"), rules.get("maxItems")
    if low is not None and high is not None and low > high:
        raise SchemaError(f"{key}: minItems is above maxItems")
    if low is not None or high is not None:
        with_rules.add(key)
    items = rules.get("items")
    if not isinstance(items, Mapping):
        raise SchemaError(f'{key}: "items" must be a property schema')
    # The items are checked as one property of a schema whose key is "<key>[]".
    _check_object_schema(
        {"type": "object", "properties": {"items": items}, "additionalProperties": False},
        f"{key}[].",
        with_rules,
    )


def _check_rules(key: str, rules: Mapping[str, Any]) -> None:
    if rules["type"] == "boolean":
        return
    low_name, high_name = (
        ("minimum", "maximum") if rules["type"] == "integer" else ("minLength", "maxLength")
    )
    low, high = rules.get(low_name), rules.get(high_name)
    for name, bound in ((low_name, low), (high_name, high)):
        if bound is not None and (not isinstance(bound, int) or isinstance(bound, bool)):
            raise SchemaError(f"{key}: {name} must be an integer")
        if bound is not None and rules["type"] == "string" and bound < 0:
            raise SchemaError(f"{key}: {name} must be at least 0")
    if low is not None and high is not None and low > high:
        raise SchemaError(f"{key}: {low_name} is above {high_name}")
    allowed = rules.get("enum")
    if allowed is not None and (
        not isinstance(allowed, list | tuple)
        or not allowed
        or len(set(allowed)) != len(allowed)
        or not all(isinstance(value, str) and value.isprintable() for value in allowed)
    ):
        raise SchemaError(f"{key}: enum must list distinct printable strings")
