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

from collections.abc import Mapping
from typing import Any

from siftui.core.argument_values import (
    MAX_QUOTED,
    ArgumentError,
    check_object,
    echoed,
    properties_of,
    utf16_length,
)
from siftui.core.schema_check import SchemaError, check_schema

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
    return check_object(tool, "", schema, arguments, messages or {})


def argument_keys(schema: Mapping[str, Any], within: str = "") -> tuple[str, ...]:
    """The keys of the object at the dotted key ``within`` (``""``: the tool's own),
    in schema order, for Tab-completion of a call line; ``()`` when ``within``
    names no object of the schema."""
    node: Mapping[str, Any] = schema
    for part in within.split(".") if within else ():
        child = properties_of(node).get(part)
        if not isinstance(child, Mapping) or child.get("type") != "object":
            return ()
        node = child
    return tuple(properties_of(node))


def dotted_keys(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """Every key of the schema, dotted, depth first in schema order: ``("documentId",
    "range", "range.start", "range.start.page", ...)``."""
    found: list[str] = []

    def walk(node: Mapping[str, Any], prefix: str) -> None:
        for name, child in properties_of(node).items():
            found.append(prefix + name)
            if isinstance(child, Mapping) and child.get("type") == "object":
                walk(child, f"{prefix}{name}.")

    walk(schema, "")
    return tuple(found)
