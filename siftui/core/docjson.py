"""Doc <-> the contract's JSON form. Pure: strings in, strings out."""

from __future__ import annotations

import json
from typing import Any

from siftui.core.doc import Doc, OutlineItem
from siftui.core.json_text import json_value


class BadDocJson(ValueError):
    """A JSON text that is not a Doc; the message names the first wrong key."""


def doc_to_json(doc: Doc, source: dict[str, Any] | None = None) -> str:
    data: dict[str, Any] = {
        "title": doc.title,
        "page_count": doc.page_count,
        "pages": list(doc.pages),
        "outline": [
            {"level": item.level, "title": item.title, "page": item.page} for item in doc.outline
        ],
    }
    if source is not None:
        data["source"] = source
    return json.dumps(data, ensure_ascii=False, indent=1)


def is_whole_number(value: Any) -> bool:
    """An int that is not a bool (JSON's true is Python's 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def doc_from_json(text: str) -> Doc:
    return from_json_object(text)[0]


def from_json_object(text: str) -> tuple[Doc, dict[str, Any]]:
    """The Doc and the whole JSON object it was read from (for its extra keys)."""
    data = json_value(text, BadDocJson)
    if not isinstance(data, dict):
        raise BadDocJson("not a Doc: expected a JSON object")
    title = data.get("title", "")
    if not isinstance(title, str):
        raise BadDocJson('key "title": expected a string')
    if "page_count" not in data:
        raise BadDocJson('key "page_count": missing')
    page_count = data["page_count"]
    if not is_whole_number(page_count) or page_count < 0:
        raise BadDocJson('key "page_count": expected a whole number >= 0')
    if "pages" not in data:
        raise BadDocJson('key "pages": missing')
    pages = data["pages"]
    if not isinstance(pages, list):
        raise BadDocJson('key "pages": expected a list of strings')
    for i, page in enumerate(pages):
        if not isinstance(page, str):
            raise BadDocJson(f'key "pages[{i}]": expected a string')
    if len(pages) > page_count:
        raise BadDocJson(f'key "pages": {len(pages)} pages but "page_count" is {page_count}')
    outline = data.get("outline", [])
    if not isinstance(outline, list):
        raise BadDocJson('key "outline": expected a list')
    items = []
    for i, entry in enumerate(outline):
        where = f"outline[{i}]"
        if not isinstance(entry, dict):
            raise BadDocJson(f'key "{where}": expected an object')
        for key, check, kind in (
            ("level", is_whole_number, "a whole number"),
            ("title", lambda v: isinstance(v, str), "a string"),
            ("page", is_whole_number, "a whole number"),
        ):
            if key not in entry:
                raise BadDocJson(f'key "{where}.{key}": missing')
            if not check(entry[key]):
                raise BadDocJson(f'key "{where}.{key}": expected {kind}')
        items.append(OutlineItem(entry["level"], entry["title"], entry["page"]))
    return Doc(title=title, page_count=page_count, pages=tuple(pages), outline=tuple(items)), data
