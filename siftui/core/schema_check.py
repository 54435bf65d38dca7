"""Whether a tool's JSON input schema (and its messages) is in the subset
:func:`siftui.core.arguments.check_arguments` checks: a :class:`SchemaError`
otherwise, a programming error and not the caller's. Pure: standard library only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from siftui.core.argument_values import TYPE_NAMES, ArgumentError, check_value, is_open

__all__ = ["SchemaError", "check_schema"]


class SchemaError(Exception):
    """A schema or messages mapping outside what this module checks: a programming error,
    not the caller's (deliberately not a ValueError, so no handler of ArgumentError
    turns it into a tool error)."""


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


def check_schema(schema: Mapping[str, Any], messages: Mapping[str, str] | None = None) -> None:
    """:class:`SchemaError` unless ``schema`` is in the subset that
    :func:`~siftui.core.arguments.check_arguments` checks (and each key of
    ``messages`` names a property with a range, length or enum rule, its value a
    one-line message)."""
    if not isinstance(schema, Mapping):
        raise SchemaError("a schema is a JSON object")
    with_rules: set[str] = set()
    _check_object_schema(schema, "", with_rules)
    for key, message in (messages or {}).items():
        if key not in with_rules:
            raise SchemaError(f"messages: {key!r} names no property with a range, length or enum")
        if not isinstance(message, str) or not message or len(message.splitlines()) != 1:
            raise SchemaError(f"messages: {key!r}: a message is one non-empty line")


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
        if not isinstance(rules, Mapping) or rules.get("type") not in TYPE_NAMES:
            raise SchemaError(f'{key}: "type" must be one of {sorted(TYPE_NAMES)}')
        if rules["type"] == "array":
            _check_array_schema(key, rules, with_rules)
            continue
        if rules["type"] == "object":
            if "default" in rules:
                raise SchemaError(f"{key}: an object property takes no default")
            if is_open(rules):
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
                check_value(key, rules, rules["default"], {})
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
