"""DocxDoc <-> JSON (what `siftui extract FILE.docx` writes and `siftui render` reads).

Pure: strings in, strings out. The form:

    {"kind": "docx", "title": "...", "notes": [...],
     "stories": {"body": {"paragraphs": [{"text": "...", "heading": 2, "list": "ol L1",
                                          "item": "^1"}, ...],
                          "tables": [{"after": 4, "columns": 2, "rows": ["| a | b |"],
                                      "item": ""}]}, ...}}

"kind" comes first so a reader can tell it from a PDF's Doc JSON by its first
bytes; keys at their defaults ("heading": 0, "list": "", "item": "") may be left
out; hashes are not stored (they are the texts'); extra keys are ignored.
"""

from __future__ import annotations

import json
import re
from typing import Any

from siftui.core.docjson import is_whole_number
from siftui.core.json_text import json_value
from siftui.core.word.model import SCOPES, DocxDoc, Para, Story, Table

KIND = "docx"
# The first bytes of a DocxDoc JSON text (after white space and a byte order mark).
SNIFF = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"kind"\s*:\s*"docx"')


class BadDocxJson(ValueError):
    """A JSON text that is not a DocxDoc; the message names the first wrong key."""


def docx_to_json(doc: DocxDoc, source: dict[str, Any] | None = None) -> str:
    stories: dict[str, Any] = {}
    for name in SCOPES:
        story = doc.stories[name]
        stories[name] = {
            "paragraphs": [_para(p) for p in story.paragraphs],
            "tables": [
                {"after": t.after, "columns": t.columns, "rows": list(t.rows), "item": t.item}
                for t in story.tables
            ],
        }
    data: dict[str, Any] = {"kind": KIND, "title": doc.title, "notes": list(doc.notes)}
    data["stories"] = stories
    if source is not None:
        data["source"] = source
    return json.dumps(data, ensure_ascii=False, indent=1)


def _para(para: Para) -> dict[str, Any]:
    out: dict[str, Any] = {"text": para.text}
    if para.heading:
        out["heading"] = para.heading
    if para.list:
        out["list"] = para.list
    if para.item:
        out["item"] = para.item
    return out


def _text(data: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise BadDocxJson(f'"{where}{key}" must be a string')
    if "\n" in value or "\r" in value:
        raise BadDocxJson(f'"{where}{key}" must be one line')
    return value


def docx_from_json(text: str) -> DocxDoc:
    data = json_value(text, BadDocxJson)
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise BadDocxJson('not a Word document JSON ("kind" must be "docx")')
    title = data.get("title", "")
    if not isinstance(title, str):
        raise BadDocxJson('"title" must be a string')
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise BadDocxJson('"notes" must be a list of strings')
    stories = data.get("stories", {})
    if not isinstance(stories, dict):
        raise BadDocxJson('"stories" must be an object')
    read: dict[str, Story] = {}
    for name, value in stories.items():
        if name not in SCOPES:
            raise BadDocxJson(f'"stories.{name}": not a story ({", ".join(SCOPES)})')
        read[name] = _story(value, f"stories.{name}.")
    return DocxDoc(title, read, tuple(notes))


def _story(data: Any, where: str) -> Story:
    if not isinstance(data, dict):
        raise BadDocxJson(f'"{where[:-1]}" must be an object')
    paragraphs = data.get("paragraphs", [])
    tables = data.get("tables", [])
    if not isinstance(paragraphs, list):
        raise BadDocxJson(f'"{where}paragraphs" must be a list')
    if not isinstance(tables, list):
        raise BadDocxJson(f'"{where}tables" must be a list')
    paras = tuple(_read_para(p, f"{where}paragraphs[{i}].") for i, p in enumerate(paragraphs))
    read_tables: list[Table] = []
    for i, table in enumerate(tables):
        at = f"{where}tables[{i}]."
        if not isinstance(table, dict):
            raise BadDocxJson(f'"{at[:-1]}" must be an object')
        after: Any = table.get("after")
        columns: Any = table.get("columns")
        rows: Any = table.get("rows")
        if not is_whole_number(after) or not 0 <= after <= len(paras):
            raise BadDocxJson(f'"{at}after" must be a whole number 0-{len(paras)}')
        if i and after < read_tables[-1].after:
            raise BadDocxJson(f'"{at}after" must not be less than the table before')
        if not is_whole_number(columns) or columns < 0:
            raise BadDocxJson(f'"{at}columns" must be a whole number >= 0')
        if not isinstance(rows, list):
            raise BadDocxJson(f'"{at}rows" must be a list of strings')
        for k, row in enumerate(rows):
            if not isinstance(row, str) or "\n" in row or "\r" in row:
                raise BadDocxJson(f'"{at}rows[{k}]" must be a one-line string')
        texts = tuple(rows)
        read_tables.append(Table(after, texts, columns, _text(table, "item", at, "")))
    return Story(paras, tuple(read_tables))


def _read_para(data: Any, where: str) -> Para:
    if not isinstance(data, dict):
        raise BadDocxJson(f'"{where[:-1]}" must be an object')
    heading = data.get("heading", 0)
    if not is_whole_number(heading) or not 0 <= heading <= 6:
        raise BadDocxJson(f'"{where}heading" must be a whole number 0-6')
    return Para(
        _text(data, "text", where),
        heading,
        _text(data, "list", where, ""),
        _text(data, "item", where, ""),
    )
