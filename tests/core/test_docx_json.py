"""The JSON form of a Word document model: round trip, and one clear error per wrong key."""

from __future__ import annotations

import json

import pytest

from siftui.core.word.docjson import SNIFF, BadDocxJson, docx_from_json, docx_to_json
from siftui.core.word.model import DocxDoc, Para, Story, Table


def test_round_trip_and_sniff() -> None:
    doc = DocxDoc(
        "T",
        {
            "body": Story((Para("a", 2), Para("", 0, "ol L1")), (Table(1, ("| x |",), 1),)),
            "footnotes": Story((Para("n", item="^1"),)),
        },
        ("word/styles.xml: broken XML; left out",),
    )
    text = docx_to_json(doc, {"path": "x.docx"})
    assert SNIFF.match(text.encode())
    assert docx_from_json(text) == doc
    assert docx_from_json(text).body.paragraphs[0].hash == Para("a").hash


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], 'not a Word document JSON ("kind" must be "docx")'),
        ({"kind": "pdf"}, 'not a Word document JSON ("kind" must be "docx")'),
        ({"kind": "docx", "title": 3}, '"title" must be a string'),
        ({"kind": "docx", "notes": [1]}, '"notes" must be a list of strings'),
        ({"kind": "docx", "stories": {"notes": {}}}, '"stories.notes": not a story'),
        ({"kind": "docx", "stories": {"body": []}}, '"stories.body" must be an object'),
        (
            {"kind": "docx", "stories": {"body": {"paragraphs": [{"text": 1}]}}},
            '"stories.body.paragraphs[0].text" must be a string',
        ),
        (
            {"kind": "docx", "stories": {"body": {"paragraphs": [{"text": "a\nb"}]}}},
            '"stories.body.paragraphs[0].text" must be one line',
        ),
        (
            {"kind": "docx", "stories": {"body": {"paragraphs": [{"text": "a", "heading": 7}]}}},
            '"stories.body.paragraphs[0].heading" must be a whole number 0-6',
        ),
        (
            {"kind": "docx", "stories": {"body": {"tables": [{"after": 1, "columns": 1}]}}},
            '"stories.body.tables[0].after" must be a whole number 0-0',
        ),
        (
            {
                "kind": "docx",
                "stories": {"body": {"tables": [{"after": 0, "columns": 1, "rows": [2]}]}},
            },
            '"stories.body.tables[0].rows[0]" must be a one-line string',
        ),
    ],
)
def test_errors_name_the_first_wrong_key(data: object, message: str) -> None:
    with pytest.raises(BadDocxJson) as error:
        docx_from_json(json.dumps(data))
    assert str(error.value).startswith(message)


def test_not_json() -> None:
    with pytest.raises(BadDocxJson, match=r"^not valid JSON"):
        docx_from_json("{")
    with pytest.raises(BadDocxJson, match=r"nested too deeply"):
        docx_from_json("[" * 100_000)
