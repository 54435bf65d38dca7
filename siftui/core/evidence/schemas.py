"""Each evidence tool's JSON input schema (EVIDENCE.md's keys, defaults, ranges).

Property order is the order a checker reports in (EVIDENCE.md: "each schema
key in the schema's order"). Tools with a first call and a continuation list
every key of both forms as optional, with only the keys both forms need as
``required``; the tool itself then enforces which keys go together, with
EVIDENCE.md's messages (``a continuation takes {searchId} alone``, ...), and a
missing key of the first form gets ``missing argument "<key>"`` from the tool.
Pages and offsets carry no bounds here: their ranges depend on the document
(``page out of range (1-E)``, ``offset out of range (0-<len>)``), so the tools
say them. Every string key also forbids lone surrogates (the checker's
``argument "<key>" is not valid text``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SCHEMAS", "TOOL_NAMES", "schema_of"]

Schema = dict[str, Any]


def _integer(low: int | None = None, high: int | None = None) -> Schema:
    schema: Schema = {"type": "integer"}
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    return schema


def _string(low: int | None = None, high: int | None = None) -> Schema:
    schema: Schema = {"type": "string"}
    if low is not None:
        schema["minLength"] = low  # UTF-16 units, as EVIDENCE.md counts
    if high is not None:
        schema["maxLength"] = high
    return schema


def _object(properties: dict[str, Schema], *required: str) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


_QUOTE_END = _object({"page": _integer(), "quote": _string(1, 2000)}, "page", "quote")

SCHEMAS: dict[str, Schema] = {
    "pdf_info": _object({"path": _string()}, "path"),
    "pdf_open": _object({"path": _string()}, "path"),
    "pdf_close": _object({"documentId": _string()}, "documentId"),
    "pdf_current": _object({}),
    "pdf_status": _object({"documentId": _string()}, "documentId"),
    "pdf_page_read": _object(
        {
            "documentId": _string(),
            "page": _integer(),
            "lastPage": _integer(),
            "offset": _integer(),
            "maxChars": {**_integer(1, 20000), "default": 8000},
        },
        "documentId",
        "page",
    ),
    "pdf_keyword_search": _object(
        {
            "documentId": _string(),
            "query": _string(1, 200),
            "pages": _string(),
            "match": {
                "type": "string",
                "enum": ["exact", "normalized"],
                "default": "exact",
            },
            "maxResults": {**_integer(1, 100), "default": 20},
            "searchId": _string(),
        }
    ),
    "pdf_page_render": _object(
        {
            "documentId": _string(),
            "page": _integer(),
            "dpi": {**_integer(36, 300), "default": 96},
        },
        "documentId",
        "page",
    ),
    "ocr_recognize": _object(
        {
            "imageHandle": _string(),
            "maxChars": {**_integer(1, 20000), "default": 8000},
            "resultId": _string(),
            "offset": _integer(),
        }
    ),
    "pdf_evidence_read": _object(
        {
            "documentId": _string(),
            "refId": _string(),
            "quote": _string(1, 2000),
            "range": _object({"start": _QUOTE_END, "end": _QUOTE_END}, "start", "end"),
        },
        "documentId",
    ),
    "pdf_bookmark_list": _object(
        {
            "documentId": _string(),
            "limit": {**_integer(1, 500), "default": 100},
            "cursor": _string(),
        },
        "documentId",
    ),
}

TOOL_NAMES = tuple(SCHEMAS)


def schema_of(tool: str) -> Schema:
    """The input schema of ``tool``; KeyError for a tool that is not one of E1-E11."""
    return SCHEMAS[tool]
