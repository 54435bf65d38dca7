"""The read family's entries: read_pdf and read_docx (docs/SPEC.md, docs/WORD.md).

A read tool answers with the string ``siftui render`` prints for the same
options, within the server's OutCap; its handler is siftui.serve.pdf_tool's
or siftui.serve.docx_tool's.
"""

from __future__ import annotations

from typing import Any

from siftui.core.tools.entry import Family, Logged, ToolEntry
from siftui.core.word import DEFAULT_WINDOW, MAX_WINDOW

__all__ = [
    "DESCRIPTION",
    "DOCX_DESCRIPTION",
    "DOCX_INPUT_SCHEMA",
    "DOCX_OUTPUT_SCHEMA",
    "FAMILY",
    "INPUT_SCHEMA",
    "OUTPUT_SCHEMA",
    "READ_DOCX",
    "READ_PDF",
    "READ_TOOLS",
]

FAMILY = Family(
    "read",
    "siftui serves two tools that read documents as text within a fixed budget: read_pdf "
    "(PDF, EPUB, XPS, ...) and read_docx (Word). Start without options to get the text or "
    "a map, then follow the page numbers or anchors, the outline and the notes with pages= "
    "(range= or anchor= for Word) or grep=.",
)

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
            "description": "Present when the answer holds text that is invisible on the page, "
            "or pages without text (images, perhaps).",
        },
    },
    "required": ["map", "first", "last", "grep_hits", "note"],
    "additionalProperties": False,
}
"""structuredContent: the answer's fields but its text, which is sent once, as the
first text block. A client that forwards both to the model gives it the text
plus these few dozen characters, never the budget twice."""


DESCRIPTION = """\
Read a PDF (or EPUB, XPS, ... or a siftui Doc JSON) as plain text with "--- page N ---" markers.

Every answer is bounded: at most {out_cap:,} {unit}, a limit set by the server, not by you.
- No pages, no grep: the whole text if it fits; otherwise a map (title, page count, outline \
with page numbers, the first pages) and you ask for more.
- pages="a-b" (or "a", or "a-" to the end): whole pages from page a, as many as fit.
- grep="pattern": matching lines as "p. N: line" with one line of context ("p. N- ..."); RE2 \
syntax, case-insensitive unless the pattern has an upper-case letter; add pages to search \
only a range.
When an answer is cut, a second text block says how and names the exact next call \
(for example: cut at page 15; ask for pages="16-40").
Readable files lie under: {roots}. Relative paths are taken from {first_root}."""


DOCX_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": "The .docx to read: absolute, or relative to the first allowed root.",
        },
        "range": {
            "type": "string",
            "description": 'Paragraphs "Pa..Pb", "Pa" (one paragraph) or "Pa.." (to the end). '
            "Omit for the whole document or its map.",
        },
        "anchor": {
            "type": "string",
            "description": 'A paragraph "P<n>#<hash>" as answers show it: its window of '
            "paragraphs. Not with range.",
        },
        "window": {
            "type": "integer",
            "description": f"Paragraphs each side of anchor (0-{MAX_WINDOW}, default "
            f"{DEFAULT_WINDOW}); 0: the anchor's paragraph alone.",
        },
        "grep": {
            "type": "string",
            "description": "An RE2 regular expression searched line by line; case-insensitive "
            "unless it holds an upper-case letter. Combine with range or anchor to search "
            "only there.",
        },
        "scope": {
            "type": "string",
            "description": "The story to read: body (default), footnotes, endnotes, comments, "
            "headers or footers; each numbers its paragraphs P1, P2, ... on its own.",
        },
    },
    "required": ["path"],
    "additionalProperties": False,
}

DOCX_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "map": {"type": "boolean", "description": "True when the answer is a map of the document."},
        "first": {"type": "integer", "description": "First paragraph (P<n>) asked or shown."},
        "last": {"type": "integer", "description": "Last paragraph (P<n>) shown."},
        "grep_hits": {"type": "integer", "description": "Matching lines searched."},
        "note": {"type": "string", "description": "How the answer was cut and what to ask next."},
    },
    "required": ["map", "first", "last", "grep_hits", "note"],
    "additionalProperties": False,
}
"""read_docx's structuredContent: the fields of ``siftui render FILE.docx --json`` but
the text (sent once, as the first block); first and last number paragraphs."""

_DESCRIPTION = """\
Read a Word document (.docx, .docm, .dotx, .dotm, or its siftui JSON) as text: one line \
per paragraph or table, each behind an anchor [P<n>#<hash>] (headings as H1-H6, list \
markers, tables as "| a | b |" rows, comments, tracked changes and notes as markers).

Every answer is bounded: at most {out_cap:,} {unit}, a limit set by the server, not by you.
- No range, anchor or grep: the whole text if it fits; otherwise a map (title, counts, \
outline with anchors, the first paragraphs) and you ask for more.
- range="Pa..Pb" (or "Pa", or "Pa.." to the end): whole paragraphs from Pa, as many as fit.
- anchor="P<n>#<hash>" (from any answer) with window=W (default {window}): paragraphs \
n-W..n+W; a stale hash says the paragraph changed.
- grep="pattern": matching lines ("> " in front) with the lines around them; RE2 syntax, \
case-insensitive unless the pattern has an upper-case letter; add range or anchor to \
search only there.
- scope: body (default), footnotes, endnotes, comments, headers or footers.
When an answer is cut, a second text block says how and names the exact next call \
(for example: cut at P40; ask for range="P41..P120").
Readable files lie under: {roots}. Relative paths are taken from {first_root}."""
DOCX_DESCRIPTION = _DESCRIPTION.replace("{window}", str(DEFAULT_WINDOW))

READ_PDF = ToolEntry(
    name="read_pdf",
    family=FAMILY.name,
    title="Read a PDF",
    description=DESCRIPTION,
    input_schema=INPUT_SCHEMA,
    output_schema=OUTPUT_SCHEMA,
    lenient=True,
    worker=True,
    logged=Logged(first=True, document=True, pages=True),
)
READ_DOCX = ToolEntry(
    name="read_docx",
    family=FAMILY.name,
    title="Read a Word document",
    description=DOCX_DESCRIPTION,
    input_schema=DOCX_INPUT_SCHEMA,
    output_schema=DOCX_OUTPUT_SCHEMA,
    lenient=True,
    worker=True,
    logged=Logged(document=True, stories=True),
)

READ_TOOLS: tuple[ToolEntry, ...] = (READ_PDF, READ_DOCX)
"""The family's tools, its main one first."""
