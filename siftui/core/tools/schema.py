"""The pieces tools' JSON input schemas are made of (the argument checker's subset).

Every string key forbids lone surrogates (the checker's ``argument "<key>" is not
valid text``); lengths count UTF-16 units, as docs/EVIDENCE.md does.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Schema", "array_of", "boolean", "integer", "object_of", "string"]

Schema = dict[str, Any]


def integer(low: int | None = None, high: int | None = None) -> Schema:
    schema: Schema = {"type": "integer"}
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    return schema


def boolean() -> Schema:
    return {"type": "boolean"}


def array_of(items: Schema, low: int | None = None, high: int | None = None) -> Schema:
    schema: Schema = {"type": "array", "items": items}
    if low is not None:
        schema["minItems"] = low
    if high is not None:
        schema["maxItems"] = high
    return schema


def string(low: int | None = None, high: int | None = None) -> Schema:
    schema: Schema = {"type": "string"}
    if low is not None:
        schema["minLength"] = low  # UTF-16 units, as EVIDENCE.md counts
    if high is not None:
        schema["maxLength"] = high
    return schema


def object_of(properties: dict[str, Schema], *required: str) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }
