"""read_pdf: the PDF tool's schemas, description and arguments.

Its answer is :func:`siftui.core.render.render` with the operator's OutCap (see
siftui.serve.mcp_server, which serves it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from siftui.serve.wire import clip

TOOL_NAME = "read_pdf"
ARGUMENTS = ("path", "pages", "grep")

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": "The file to read: absolute, or relative to the first allowed root.",
        },
        "pages": {
            "type": "string",
            "description": 'A page range: "a-b", "a" (one page) or "a-" (to the end). '
            "Omit for the whole document or its map.",
        },
        "grep": {
            "type": "string",
            "description": "An RE2 regular expression searched line by line; case-insensitive "
            "unless it holds an upper-case letter. Combine with pages to search a range.",
        },
    },
    "required": ["path"],
    "additionalProperties": False,
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "map": {"type": "boolean", "description": "True when the answer is a map of the document."},
        "first": {"type": "integer", "description": "First page shown (0 for grep answers)."},
        "last": {"type": "integer", "description": "Last page shown (0 for grep answers)."},
        "grep_hits": {"type": "integer", "description": "Matching lines in the range."},
        "note": {"type": "string", "description": "How the answer was cut and what to ask next."},
        "warning": {
            "type": "string",
            "description": "Present when the answer holds text that is invisible on the page.",
        },
    },
    "required": ["map", "first", "last", "grep_hits", "note"],
    "additionalProperties": False,
}
"""structuredContent: the answer's fields but its text, which is sent once, as the
first text block. A client that forwards both to the model gives it the text
plus these few dozen characters, never the budget twice."""

MAX_PAGES_CHARS = 100
"""A page range is a few digits; a longer ``pages`` is refused without being echoed whole."""

DESCRIPTION = """\
Read a PDF (or EPUB, XPS, ... or a siftui Doc JSON) as plain text with "--- page N ---" markers.

Every answer is bounded: at most {out_cap:,} characters, a limit set by the server, not by you.
- No pages, no grep: the whole text if it fits; otherwise a map (title, page count, outline \
with page numbers, the first pages) and you ask for more.
- pages="a-b" (or "a", or "a-" to the end): whole pages from page a, as many as fit.
- grep="pattern": matching lines as "p. N: line" with one line of context ("p. N- ..."); RE2 \
syntax, case-insensitive unless the pattern has an upper-case letter; add pages to search \
only a range.
When an answer is cut, a second text block says how and names the exact next call \
(for example: cut at page 15; ask for pages="16-40").
Readable files lie under: {roots}. Relative paths are taken from {first_root}."""


class ArgumentError(ValueError):
    pass


def pdf_arguments(arguments: Mapping[str, Any] | None) -> tuple[str, str, str]:
    given = dict(arguments or {})
    unknown = sorted(str(key) for key in given if key not in ARGUMENTS)
    if unknown:
        raise ArgumentError(
            f'unknown argument "{clip(unknown[0])}": read_pdf takes path, pages and grep '
            "(the budget is set by the server)"
        )
    if "path" not in given:
        raise ArgumentError('argument "path" is required')
    values = []
    for name in ARGUMENTS:
        value = given.get(name)
        if value is None and name != "path":
            value = ""
        if not isinstance(value, str):
            raise ArgumentError(f'argument "{name}" must be a string')
        values.append(value)
    if len(values[1]) > MAX_PAGES_CHARS:
        raise ArgumentError(
            f'invalid pages "{clip(values[1], 40)}": use "a-b", "a" or "a-" '
            f"(at most {MAX_PAGES_CHARS} characters)"
        )
    return values[0], values[1], values[2]
