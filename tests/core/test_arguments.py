"""The strict-arguments checker (siftui.core.arguments): EVIDENCE.md's "Strict
arguments" messages and order, on read_pdf's and read_docx's schemas and on
evidence-tool schemas written from EVIDENCE.md, plus properties over random schemas."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from siftui.core.arguments import (
    MAX_QUOTED,
    ArgumentError,
    SchemaError,
    argument_keys,
    check_arguments,
    check_schema,
    dotted_keys,
    utf16_length,
)

# Schemas as the evidence tools would publish them (EVIDENCE.md E4, E6, E7, E8, E10).
# Keys that only some call forms take (a continuation's searchId, refId or range) are
# optional here: which combination is allowed is each tool's own rule.
STRING: dict[str, Any] = {"type": "string"}
PDF_CURRENT: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
PAGE_READ: dict[str, Any] = {
    "type": "object",
    "properties": {
        "documentId": STRING,
        "page": {"type": "integer"},
        "lastPage": {"type": "integer"},
        "offset": {"type": "integer", "default": 0},
        "maxChars": {"type": "integer", "minimum": 1, "maximum": 20000, "default": 8000},
    },
    "required": ["documentId", "page"],
    "additionalProperties": False,
}
KEYWORD_SEARCH: dict[str, Any] = {
    "type": "object",
    "properties": {
        "documentId": STRING,
        "query": {"type": "string", "minLength": 1, "maxLength": 200},
        "pages": STRING,
        "match": {"type": "string", "enum": ["exact", "normalized"], "default": "exact"},
        "maxResults": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
        "searchId": STRING,
    },
    "additionalProperties": False,
}
ENDPOINT: dict[str, Any] = {
    "type": "object",
    "properties": {"page": {"type": "integer"}, "quote": STRING},
    "required": ["page", "quote"],
    "additionalProperties": False,
}
EVIDENCE_READ: dict[str, Any] = {
    "type": "object",
    "properties": {
        "documentId": STRING,
        "refId": STRING,
        "quote": {"type": "string", "minLength": 1, "maxLength": 2000},
        "range": {
            "type": "object",
            "properties": {"start": ENDPOINT, "end": ENDPOINT},
            "required": ["start", "end"],
            "additionalProperties": False,
        },
    },
    "required": ["documentId"],
    "additionalProperties": False,
}
PAGE_RENDER: dict[str, Any] = {
    "type": "object",
    "properties": {
        "documentId": STRING,
        "page": {"type": "integer"},
        "dpi": {"type": "integer", "minimum": 36, "maximum": 300, "default": 96},
    },
    "required": ["documentId", "page"],
    "additionalProperties": False,
}


def refusal(tool: str, schema: dict[str, Any], arguments: object, **kwargs: Any) -> str:
    with pytest.raises(ArgumentError) as caught:
        check_arguments(tool, schema, arguments, **kwargs)
    return str(caught.value)


def read(arguments: object) -> str:
    return refusal("pdf_page_read", PAGE_READ, arguments)


# --- the messages -----------------------------------------------------------------------


def test_unknown_key_lists_every_key_in_schema_order() -> None:
    message = read({"documentId": "doc-1", "page": 1, "budget": 5})
    assert message == (
        'unknown argument "budget" (pdf_page_read takes documentId, page, lastPage, offset, '
        "maxChars)"
    )
    assert "…" not in message and "..." not in message  # EVIDENCE.md's … is a listing


def test_a_tool_without_keys_takes_no_arguments() -> None:
    assert refusal("pdf_current", PDF_CURRENT, {"all": True}) == (
        'unknown argument "all" (pdf_current takes no arguments)'
    )
    assert check_arguments("pdf_current", PDF_CURRENT, {}) == {}
    assert check_arguments("pdf_current", PDF_CURRENT, None) == {}


def test_missing_key() -> None:
    assert read({"page": 1}) == 'missing argument "documentId"'
    assert read({"documentId": "doc-1"}) == 'missing argument "page"'


@pytest.mark.parametrize("value", [None, True, False, 1.0, 2.5, "1", [1], {"n": 1}])
def test_an_integer_is_an_int_and_nothing_else(value: object) -> None:
    assert read({"documentId": "doc-1", "page": value}) == 'argument "page" must be an integer'


@pytest.mark.parametrize("value", [None, True, 1, 1.5, ["doc-1"], {"id": "doc-1"}])
def test_a_string_is_a_str(value: object) -> None:
    assert read({"documentId": value, "page": 1}) == 'argument "documentId" must be a string'


@pytest.mark.parametrize("value", [None, True, 1, "start", [], [{"page": 1}]])
def test_an_object_is_a_mapping(value: object) -> None:
    message = refusal("pdf_evidence_read", EVIDENCE_READ, {"documentId": "d", "range": value})
    assert message == 'argument "range" must be an object'


def test_integer_range_with_plain_digits() -> None:
    for bad in (0, -1, 20001, 10**9):
        message = read({"documentId": "doc-1", "page": 1, "maxChars": bad})
        assert message == 'argument "maxChars" must be 1-20000'
    for good in (1, 20000):
        assert read_ok({"documentId": "doc-1", "page": 1, "maxChars": good})["maxChars"] == good
    message = refusal("pdf_page_render", PAGE_RENDER, {"documentId": "d", "page": 1, "dpi": 301})
    assert message == 'argument "dpi" must be 36-300'


def read_ok(arguments: dict[str, Any]) -> dict[str, Any]:
    return check_arguments("pdf_page_read", PAGE_READ, arguments)


def one_rule(rules: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"k": rules}, "additionalProperties": False}


def test_one_sided_and_single_point_bounds() -> None:
    at_least = one_rule({"type": "integer", "minimum": 0})
    at_most = one_rule({"type": "integer", "maximum": 8000})
    exactly = one_rule({"type": "integer", "minimum": 3, "maximum": 3})
    assert refusal("t", at_least, {"k": -1}) == 'argument "k" must be at least 0'
    assert refusal("t", at_most, {"k": 8001}) == 'argument "k" must be at most 8000'
    assert refusal("t", exactly, {"k": 4}) == 'argument "k" must be 3'
    short = one_rule({"type": "string", "minLength": 1})
    long = one_rule({"type": "string", "maxLength": 5})
    five = one_rule({"type": "string", "minLength": 5, "maxLength": 5})
    assert refusal("t", short, {"k": ""}) == 'argument "k" must be at least 1 UTF-16 unit'
    assert refusal("t", long, {"k": "x" * 6}) == 'argument "k" must be at most 5 UTF-16 units'
    assert refusal("t", five, {"k": "x"}) == 'argument "k" must be 5 UTF-16 units'


def search(arguments: dict[str, Any], **kwargs: Any) -> str:
    return refusal("pdf_keyword_search", KEYWORD_SEARCH, arguments, **kwargs)


def test_string_length_counts_utf16_units() -> None:
    emoji = "\U0001f600"  # 2 units
    too_long = 'argument "query" must be 1-200 UTF-16 units'
    assert search({"query": ""}) == too_long
    assert search({"query": "x" * 201}) == too_long
    assert search({"query": emoji * 100 + "x"}) == too_long  # 101 code points, 201 units
    assert search({"query": emoji * 150}) == too_long  # 150 code points, 300 units
    for fits in (emoji * 100, "é" * 200, "x", "\n"):
        assert check_arguments("pdf_keyword_search", KEYWORD_SEARCH, {"query": fits})
    assert utf16_length(emoji + "aé") == 4
    assert utf16_length("\ud800") == 1


def test_a_lone_surrogate_is_not_valid_text() -> None:
    for lone in ('"\\ud800"', '"a\\udfffb"', '"\\ude00\\ud83d"'):
        value = json.loads(lone)
        assert search({"query": value}) == 'argument "query" is not valid text'
    # json.loads joins a pair into one code point: valid, 2 units.
    pair = json.loads('"\\ud83d\\ude00"')
    assert pair == "\U0001f600"
    assert check_arguments("pdf_keyword_search", KEYWORD_SEARCH, {"query": pair})["query"] == pair
    # Not valid text is said before the length: what a string holds before how long it is.
    assert search({"query": "x" * 500 + "\ud800"}) == 'argument "query" is not valid text'


def test_enum_wording_and_override() -> None:
    assert search({"match": "fuzzy"}) == 'argument "match" must be "exact" or "normalized"'
    assert search({"match": "Exact"}) == 'argument "match" must be "exact" or "normalized"'
    three = one_rule({"type": "string", "enum": ["body", "footnotes", 'a"b']})
    assert refusal("t", three, {"k": "x"}) == 'argument "k" must be "body", "footnotes" or "a\\"b"'
    single = one_rule({"type": "string", "enum": ["only"]})
    assert refusal("t", single, {"k": "x"}) == 'argument "k" must be "only"'
    # A message replaces the range, length or enum message of one key, never the others.
    messages = {"match": "match is exact or normalized", "maxResults": "too many results"}
    assert search({"match": "x"}, messages=messages) == "match is exact or normalized"
    assert search({"maxResults": 101}, messages=messages) == "too many results"
    assert search({"match": 1}, messages=messages) == 'argument "match" must be a string'
    assert search({"match": "\ud800"}, messages=messages) == 'argument "match" is not valid text'


def test_nested_objects_are_named_with_dots() -> None:
    def evidence(range_: object) -> str:
        return refusal("pdf_evidence_read", EVIDENCE_READ, {"documentId": "doc-1", "range": range_})

    start = {"page": 1, "quote": "beta"}
    assert evidence({"start": {"page": 1}, "end": start}) == (
        'missing argument "range.start.quote"'
    )
    assert evidence({"start": start}) == 'missing argument "range.end"'
    assert evidence({"start": start, "end": start, "x": 1}) == (
        'unknown argument "range.x" (range takes start, end)'
    )
    assert evidence({"start": {"page": 1, "quote": "q", "n": 2}, "end": start}) == (
        'unknown argument "range.start.n" (range.start takes page, quote)'
    )
    assert evidence({"start": None, "end": start}) == 'argument "range.start" must be an object'
    assert evidence({"start": {"page": "1", "quote": "q"}, "end": start}) == (
        'argument "range.start.page" must be an integer'
    )
    worked = {"start": {"page": 1, "quote": "beta"}, "end": {"page": 2, "quote": "gamma"}}
    call = {"documentId": "doc-1", "range": worked}
    assert check_arguments("pdf_evidence_read", EVIDENCE_READ, call) == call


def test_empty_nested_object_takes_no_arguments() -> None:
    schema = one_rule({"type": "object", "properties": {}, "additionalProperties": False})
    assert refusal("t", schema, {"k": {"z": 1}}) == 'unknown argument "k.z" (k takes no arguments)'


# --- the order ---------------------------------------------------------------------------


def test_first_unknown_key_in_the_calls_order_before_anything_else() -> None:
    assert read({"zeta": 1, "alpha": 2}).startswith('unknown argument "zeta"')
    assert read({"alpha": 2, "zeta": 1}).startswith('unknown argument "alpha"')
    # before a missing key, a wrong type and a nested problem
    message = refusal(
        "pdf_evidence_read", EVIDENCE_READ, {"range": {"y": 1}, "quote": 5, "extra": 0}
    )
    assert message.startswith('unknown argument "extra"')


def test_schema_order_then_missing_type_range_per_key() -> None:
    # page (2nd in the schema) is missing although maxChars (5th) was given wrong first
    assert read({"maxChars": 0, "documentId": "doc-1"}) == 'missing argument "page"'
    # documentId's type before page's range-free type, whatever the call's order
    assert read({"page": "x", "documentId": 7}) == 'argument "documentId" must be a string'
    assert read({"documentId": "d", "page": 1, "offset": "x", "maxChars": 0}) == (
        'argument "offset" must be an integer'
    )


def test_nested_object_is_checked_at_its_keys_place() -> None:
    def evidence(arguments: dict[str, Any]) -> str:
        return refusal("pdf_evidence_read", EVIDENCE_READ, arguments)

    # documentId comes before range in the schema: its missing/type error wins
    assert evidence({"range": {"x": 1}}) == 'missing argument "documentId"'
    assert evidence({"range": {"x": 1}, "documentId": 1}) == (
        'argument "documentId" must be a string'
    )
    # quote comes before range: its length error wins over range's nested unknown key
    assert evidence({"documentId": "d", "range": {"x": 1}, "quote": ""}) == (
        'argument "quote" must be 1-2000 UTF-16 units'
    )
    # range's nested unknown key (call order inside it) before its missing keys
    assert evidence({"documentId": "d", "range": {"b": 1, "a": 2}}) == (
        'unknown argument "range.b" (range takes start, end)'
    )


@pytest.mark.parametrize("arguments", [[], ["path"], "path", 3, 1.5, True])
def test_arguments_that_are_not_an_object(arguments: object) -> None:
    assert read(arguments) == "arguments must be an object"


def test_missing_arguments_are_an_empty_object() -> None:
    assert read(None) == 'missing argument "documentId"'
    assert check_arguments("pdf_keyword_search", KEYWORD_SEARCH, None) == {
        "match": "exact",
        "maxResults": 20,
    }


# --- hostile values -------------------------------------------------------------------------


def test_huge_integers_are_compared_never_printed() -> None:
    huge = 10**5000  # over Python's 4300-digit str() limit
    started = time.perf_counter()
    for value in (huge, -huge):
        assert read({"documentId": "d", "page": 1, "maxChars": value}) == (
            'argument "maxChars" must be 1-20000'
        )
        assert read_ok({"documentId": "d", "page": value})["page"] == value  # unbounded
        assert read({"documentId": value, "page": 1}) == 'argument "documentId" must be a string'
    assert time.perf_counter() - started < 0.5


def test_an_unknown_key_is_quoted_on_one_bounded_line() -> None:
    big = "q" * 300_000
    message = read({big: 1})
    assert message == (
        f'unknown argument "{"q" * MAX_QUOTED}… (300000 characters)" (pdf_page_read takes '
        "documentId, page, lastPage, offset, maxChars)"
    )
    assert read({"a\nb\x1b\u2028": 1}).startswith('unknown argument "a\\nb\\x1b\\u2028" (')
    assert read({"x\ud800": 1}).startswith('unknown argument "x\\ud800" (')
    assert read({1: 1}).startswith('unknown argument "1" (')  # a Python caller's key
    nested = refusal("pdf_evidence_read", EVIDENCE_READ, {"documentId": "d", "range": {big: 0}})
    assert nested.startswith(f'unknown argument "range.{"q" * MAX_QUOTED}… (300000 characters)"')


def test_a_long_bad_string_is_never_echoed() -> None:
    long = "z" * 1_000_000
    assert len(search({"query": long})) < 60
    assert len(search({"match": long})) < 60


# --- the result: defaults, copies ---------------------------------------------------------


def test_defaults_fill_absent_optional_keys_in_schema_order() -> None:
    given = {"page": 2, "documentId": "doc-1"}
    assert list(read_ok(given).items()) == [
        ("documentId", "doc-1"),
        ("page", 2),
        ("offset", 0),
        ("maxChars", 8000),
    ]  # lastPage has no default (it is page's): still absent
    assert read_ok({**given, "offset": 5, "maxChars": 1})["maxChars"] == 1


def test_the_result_is_a_new_dict_and_the_call_is_left_alone() -> None:
    call: dict[str, Any] = {
        "documentId": "doc-1",
        "range": {"start": {"page": 1, "quote": "a"}, "end": {"page": 2, "quote": "b"}},
    }
    before = copy.deepcopy(call)
    result = check_arguments("pdf_evidence_read", EVIDENCE_READ, call)
    assert result == call and call == before
    assert result is not call and result["range"] is not call["range"]
    assert result["range"]["start"] is not call["range"]["start"]


def test_nested_defaults_only_inside_a_given_object() -> None:
    schema = one_rule(
        {
            "type": "object",
            "properties": {"n": {"type": "integer", "default": 3}},
            "additionalProperties": False,
        }
    )
    assert check_arguments("t", schema, {}) == {}
    assert check_arguments("t", schema, {"k": {}}) == {"k": {"n": 3}}


# --- the served tools' schemas --------------------------------------------------------------


def test_read_pdf_and_read_docx_schemas_are_in_the_subset() -> None:
    # Imported here: another layout of siftui.serve breaks this test, not the module.
    from siftui.serve.docx_tool import DOCX_INPUT_SCHEMA
    from siftui.serve.pdf_tool import INPUT_SCHEMA

    check_schema(INPUT_SCHEMA)
    check_schema(DOCX_INPUT_SCHEMA)
    call = {"path": "a.pdf", "pages": "2-3"}
    assert check_arguments("read_pdf", INPUT_SCHEMA, call) == call
    assert refusal("read_pdf", INPUT_SCHEMA, {"path": "a.pdf", "budget": 1}) == (
        'unknown argument "budget" (read_pdf takes path, pages, grep)'
    )
    assert refusal("read_pdf", INPUT_SCHEMA, {}) == 'missing argument "path"'
    assert refusal("read_docx", DOCX_INPUT_SCHEMA, {"path": "a", "window": 2.0}) == (
        'argument "window" must be an integer'
    )
    assert refusal("read_docx", DOCX_INPUT_SCHEMA, {"x": 1}) == (
        'unknown argument "x" (read_docx takes path, range, anchor, window, grep, scope)'
    )


def test_schema_keys_for_completion() -> None:
    assert argument_keys(PAGE_READ) == ("documentId", "page", "lastPage", "offset", "maxChars")
    assert argument_keys(PDF_CURRENT) == ()
    assert argument_keys(EVIDENCE_READ, "range") == ("start", "end")
    assert argument_keys(EVIDENCE_READ, "range.end") == ("page", "quote")
    assert argument_keys(EVIDENCE_READ, "quote") == ()  # not an object
    assert argument_keys(EVIDENCE_READ, "nope.x") == ()
    assert dotted_keys(EVIDENCE_READ) == (
        "documentId",
        "refId",
        "quote",
        "range",
        "range.start",
        "range.start.page",
        "range.start.quote",
        "range.end",
        "range.end.page",
        "range.end.quote",
    )


def strict(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False, **more}


@pytest.mark.parametrize(
    ("schema", "messages"),
    [
        ({"type": "object", "properties": {}}, None),  # not strict
        ({"type": "object", "additionalProperties": True}, None),
        ({"type": "array", "additionalProperties": False}, None),
        (strict({}, anyOf=[]), None),
        (strict({"k": {"type": "string", "pattern": "a+"}}), None),
        (strict({"k": {"type": "null"}}), None),
        (strict({"k": {"type": "number"}}), None),
        (strict({"k": {"type": "array"}}), None),
        (strict({"k": {"type": "integer", "minLength": 1}}), None),
        (strict({"k": {"type": "integer", "enum": [1]}}), None),
        (strict({"k": {"type": "integer", "minimum": 1.5}}), None),
        (strict({"k": {"type": "integer", "minimum": 5, "maximum": 4}}), None),
        (strict({"k": {"type": "string", "maxLength": -1}}), None),
        (strict({"k": {"type": "string", "enum": []}}), None),
        (strict({"k": {"type": "string", "enum": ["a", "a"]}}), None),
        (strict({"k": {"type": "string", "enum": ["a\nb"]}}), None),
        (strict({"k": {"type": "integer", "default": 0, "minimum": 1}}), None),
        (strict({"k": {"type": "integer", "default": True}}), None),
        (strict({"k": {"type": "integer", "default": 1}}, required=["k"]), None),
        (strict({"k": {"type": "object", "additionalProperties": False, "default": {}}}), None),
        (strict({"k": {"type": "object", "properties": {}}}), None),  # nested not strict
        (strict({"k": STRING}, required=["j"]), None),
        (strict({"k": STRING}, required=["k", "k"]), None),
        (strict({"a.b": STRING}), None),
        (strict({"": STRING}), None),
        (strict({"k": STRING}), {"k": "no rule to replace"}),
        (strict({"k": {"type": "string", "enum": ["a"]}}), {"j": "typo"}),
        (strict({"k": {"type": "string", "enum": ["a"]}}), {"k": "two\nlines"}),
    ],
)
def test_schemas_outside_the_subset_are_refused(
    schema: dict[str, Any], messages: dict[str, str] | None
) -> None:
    with pytest.raises(SchemaError):
        check_schema(schema, messages)
    with pytest.raises(SchemaError):  # never checked against silently
        check_arguments("t", schema, {}, messages=messages)
    assert not issubclass(SchemaError, ValueError)


def test_annotations_are_allowed() -> None:
    schema = strict(
        {"k": {"type": "string", "description": "d", "title": "K", "default": "x"}},
        description="top",
        title="T",
    )
    check_schema(schema)
    assert check_arguments("t", schema, {}) == {"k": "x"}


# --- properties over random schemas --------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "c", "id", "page", "quote", "x1"])
ENUM_VALUES = ["a", "Z", " ", "é", "exact", "\U0001f600"]  # printable, as check_schema asks
TEXT_PIECES = ["a", "Z", " ", "\n", "é", "中", "\u2028", "\U0001f600", "\U00010000"]


@st.composite
def integer_rules(draw: st.DrawFn) -> dict[str, Any]:
    rules: dict[str, Any] = {"type": "integer"}
    low = draw(st.none() | st.integers(-5, 5))
    high = draw(st.none() | st.integers(-5, 5))
    if low is not None and high is not None and low > high:
        low, high = high, low
    if low is not None:
        rules["minimum"] = low
    if high is not None:
        rules["maximum"] = high
    return rules


@st.composite
def string_rules(draw: st.DrawFn) -> dict[str, Any]:
    rules: dict[str, Any] = {"type": "string"}
    if draw(st.booleans()):
        rules["enum"] = draw(st.lists(st.sampled_from(ENUM_VALUES), min_size=1, unique=True))
        return rules
    low = draw(st.none() | st.integers(0, 4))
    high = draw(st.none() | st.integers(0, 6))
    if low is not None and high is not None and low > high:
        low, high = high, low
    if low is not None:
        rules["minLength"] = low
    if high is not None:
        rules["maxLength"] = high
    return rules


@st.composite
def object_rules(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    names = draw(st.lists(NAMES, max_size=4, unique=True))
    properties = {name: draw(PROPERTY_RULES[depth]) for name in names}
    required = [name for name in names if draw(st.booleans())]
    for name, rules in properties.items():
        if name not in required and rules["type"] != "object" and draw(st.booleans()):
            rules["default"] = draw(valid_value(rules))
    return strict(properties, required=required)


# Built once: a strategy made afresh for each draw costs more than the checker.
PROPERTY_RULES = [
    st.one_of(integer_rules(), string_rules(), object_rules(1)),
    st.one_of(integer_rules(), string_rules(), object_rules(2)),
    st.one_of(integer_rules(), string_rules()),
]
SCHEMAS = object_rules()


def fit_units(pieces: list[str], units: int) -> str:
    """The pieces joined and cut to exactly ``units`` UTF-16 units (an astral piece that
    would go one over becomes "a")."""
    text = ""
    for piece in pieces:
        left = units - utf16_length(text)
        if left <= 0:
            break
        text += piece if utf16_length(piece) <= left else "a"
    return text


def valid_text(low: int, high: int) -> st.SearchStrategy[str]:
    return st.builds(
        fit_units,
        st.lists(st.sampled_from(TEXT_PIECES), min_size=high, max_size=high),
        st.integers(low, high),
    )


VALUE_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {}


def valid_value(rules: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A strategy of the values ``rules`` accepts (one per distinct rules: made afresh
    for each draw, strategies cost more than the checker)."""
    key = json.dumps(rules, sort_keys=True)
    if key not in VALUE_STRATEGIES:
        VALUE_STRATEGIES[key] = new_valid_value(rules)
    return VALUE_STRATEGIES[key]


def new_valid_value(rules: dict[str, Any]) -> st.SearchStrategy[Any]:
    if rules["type"] == "integer":
        return st.integers(rules.get("minimum"), rules.get("maximum"))
    if rules["type"] == "string":
        if "enum" in rules:
            return st.sampled_from(rules["enum"])
        low = rules.get("minLength", 0)
        return valid_text(low, rules.get("maxLength", low + 8))
    return valid_call(rules)


@st.composite
def valid_call(draw: st.DrawFn, schema: dict[str, Any]) -> dict[str, Any]:
    call: dict[str, Any] = {}
    for name, rules in schema["properties"].items():
        if name in schema["required"] or draw(st.booleans()):
            call[name] = draw(valid_value(rules))
    return dict(draw(st.permutations(list(call.items()))))  # any order of keys


def with_defaults(schema: dict[str, Any], call: dict[str, Any]) -> dict[str, Any]:
    filled: dict[str, Any] = {}
    for name, rules in schema["properties"].items():
        if name in call:
            value = call[name]
            filled[name] = with_defaults(rules, value) if rules["type"] == "object" else value
        elif "default" in rules:
            filled[name] = rules["default"]
    return filled


JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.just(10**400)  # 5,000 digits: test_huge_integers (hypothesis cannot repr it)
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from(["\ud800", "a\udfff", "\U0001f600" * 4, "x" * 300]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=6,
)


# Values of the right JSON type that a rule may refuse: out of range, too long, lone surrogates.
NEAR_MISSES = (
    st.integers(-8, 8)
    | st.sampled_from([10**400, -(10**400)])
    | st.sampled_from(["", "\ud800", "a\udfff", "\U0001f600" * 4, "x" * 300, "exact", "Z"])
    | st.builds("".join, st.lists(st.sampled_from(TEXT_PIECES), max_size=8))
)


@st.composite
def mutated_call(draw: st.DrawFn, schema: dict[str, Any]) -> object:
    """A valid call with up to 3 keys dropped, added or given junk or near misses, at any
    depth; now and then junk instead of the arguments object."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JUNK)
    call: Any = draw(valid_call(schema))
    for _ in range(draw(st.integers(1, 3))):
        target = call
        while target and draw(st.booleans()):
            inner = target[draw(st.sampled_from(sorted(target)))]
            if not isinstance(inner, dict):
                break
            target = inner
        what = draw(st.sampled_from(["near", "near", "junk", "drop", "add"]))
        if what == "add" or not target:
            target[draw(NAMES | st.text(max_size=3))] = draw(JUNK)
        elif what == "drop":
            del target[draw(st.sampled_from(sorted(target)))]
        else:
            value = NEAR_MISSES if what == "near" else JUNK
            target[draw(st.sampled_from(sorted(target)))] = draw(value)
    return call


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_call_is_answered_or_refused_in_one_line(data: st.DataObject) -> None:
    schema = data.draw(SCHEMAS)
    call = data.draw(mutated_call(schema))
    try:
        result = check_arguments("tool", schema, call)
    except ArgumentError as error:
        message = str(error)
        assert message and len(message.splitlines()) == 1 and message == message.strip()
        assert len(message) < 400
        message.encode("utf-8")  # valid text for the wire
    else:
        assert isinstance(result, dict)
        assert check_arguments("tool", schema, result) == result  # a checked call passes again


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_call_built_from_the_schema_always_passes(data: st.DataObject) -> None:
    schema = data.draw(SCHEMAS)
    call = data.draw(valid_call(schema))
    before = copy.deepcopy(call)
    assert check_arguments("tool", schema, call) == with_defaults(schema, call)
    assert call == before


# --- arrays (EDITING.md's E16 operations and E18 fields) ---------------------------------

FILL: dict[str, Any] = {
    "type": "object",
    "properties": {
        "fields": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"label": {"type": "string"}},
                "required": ["label"],
                "additionalProperties": False,
            },
            "minItems": 1,
            "maxItems": 3,
        }
    },
    "required": ["fields"],
    "additionalProperties": False,
}


def test_an_array_and_its_items_are_checked_with_their_1_based_names() -> None:
    assert check_arguments("t", FILL, {"fields": [{"label": "F1"}]}) == {
        "fields": [{"label": "F1"}]
    }
    assert refusal("t", FILL, {"fields": {"label": "F1"}}) == 'argument "fields" must be an array'
    assert refusal("t", FILL, {"fields": []}) == 'argument "fields" must hold 1-3 items'
    assert refusal("t", FILL, {"fields": [{}] * 4}) == 'argument "fields" must hold 1-3 items'
    assert refusal("t", FILL, {"fields": [{"label": "F1"}, 2]}) == (
        'argument "fields[2]" must be an object'
    )
    assert refusal("t", FILL, {"fields": [{"label": "F1"}, {}]}) == (
        'missing argument "fields[2].label"'
    )
    assert refusal("t", FILL, {"fields": [{"label": "F1", "x": 1}]}) == (
        'unknown argument "fields[1].x" (fields[1] takes label)'
    )


def test_an_array_schema_outside_the_subset_is_refused() -> None:
    with pytest.raises(SchemaError):
        check_schema(one_rule({"type": "array"}))  # no items
    with pytest.raises(SchemaError):
        check_schema(one_rule({"type": "array", "items": {"type": "string"}, "uniqueItems": True}))
    with pytest.raises(SchemaError):
        check_schema(
            one_rule({"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 1})
        )


def test_a_boolean_is_true_or_false_and_nothing_else() -> None:
    schema = one_rule({"type": "boolean"})
    assert check_arguments("t", schema, {"k": True}) == {"k": True}
    for value in (1, 0, "true", None):
        assert refusal("t", schema, {"k": value}) == 'argument "k" must be true or false'
