"""The one reader of JSON siftui did not write: valid JSON Python will not read is refused
in one line, as malformed JSON is, never as a RecursionError or an interpreter's hint."""

from __future__ import annotations

from typing import Any

import pytest

from siftui.core.json_text import NotJson, json_line, json_or_none, json_value

DEEP = "[" * 100_000 + "]" * 100_000  # Python's parser recurses: past its limit
LONG = "9" * 5_000  # past the 4,300 digits Python turns into an int


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": [1, 2.5, "x", null, true]}', {"a": [1, 2.5, "x", None, True]}),
        (b'{"a": "\xc3\xa9"}', {"a": "é"}),
        ("null", None),
        ("9" * 4_300, int("9" * 4_300)),
    ],
)
def test_json_is_read(text: str | bytes, value: Any) -> None:
    assert json_value(text) == value
    assert json_or_none(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON: Expecting property name enclosed in double quotes: "),
        ("", "not valid JSON: Expecting value: line 1 column 1 (char 0)"),
        (b'"\xff"', "not valid JSON: not UTF-8 text"),
        (DEEP, "not valid JSON: nested too deeply"),
        (DEEP.encode(), "not valid JSON: nested too deeply"),
        (f'{{"n": {LONG}}}', "not valid JSON: a number too long to read"),
        (f"[-{LONG}]", "not valid JSON: a number too long to read"),
    ],
)
def test_what_python_will_not_read_is_one_line(text: str | bytes, message: str) -> None:
    with pytest.raises(NotJson) as caught:
        json_value(text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value) and "set_int_max_str_digits" not in str(caught.value)
    assert json_or_none(text) is None


def test_the_caller_names_the_error() -> None:
    class BadThing(ValueError):
        pass

    with pytest.raises(BadThing, match=r"^not valid JSON: a number too long to read$"):
        json_value(LONG, BadThing)
    with pytest.raises(BadThing, match=r"^not valid JSON: nested too deeply$"):
        json_value(DEEP, BadThing)


def test_a_line_keeps_every_name_and_is_valid_utf8() -> None:
    """A file name that is not UTF-8 holds lone surrogates: written as JSON escapes, the
    line is UTF-8 and reads back to the same string; other text is written as it is."""
    value = {"path": "store/\udcff\udcfe name.pdf", "title": "中文 🙂", "n": [1, None]}
    line = json_line(value)
    assert "\n" not in line
    assert line.encode("utf-8").decode("utf-8") == line  # encodes: no lone surrogate left
    assert '"store/\\udcff\\udcfe name.pdf"' in line and "中文 🙂" in line
    assert json_value(line) == value
    assert json_line({"a": "plain"}) == '{"a": "plain"}'
