"""read_docx: the Word tool's entry (schemas, description, handler).

Its answer is :func:`siftui.core.word.render.render_docx` with the operator's
OutCap, the very string ``siftui render FILE.docx`` prints for the same options
(the Word projection's rules, docs/). After the schema's checks, the options are
checked in those rules' order (scope, range or anchor then window, pattern)
before the document is read, as the CLI does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from siftui.core.grep import BadGrep
from siftui.core.kinds import WORD
from siftui.core.word.render import (
    DEFAULT_WINDOW,
    MAX_WINDOW,
    BadOption,
    check_docx_options,
    render_docx,
)
from siftui.serve.tool_api import (
    Answer,
    Call,
    LoggedRequest,
    ServedTool,
    ToolError,
    rendered_answer,
)
from siftui.serve.wire import clip
from siftui.sources.log.fields import DocxArgs, docx_options

MAX_OPTION_CHARS = 100
"""A range, an anchor or a scope is a few characters; a longer one is refused without
being echoed whole."""

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


def _docx_args(arguments: Mapping[str, Any]) -> DocxArgs:
    return DocxArgs(
        arguments.get("range", ""),
        arguments.get("anchor", ""),
        arguments.get("window"),
        arguments.get("scope", ""),
    )


def _rules(arguments: Mapping[str, Any]) -> None:
    """An over-long range, anchor or scope is refused here, not by the schema: its
    message shows the start of the value. The other options are checked in the
    Word projection's order by the handler (:func:`check_docx_options`)."""
    for name in ("range", "anchor", "scope"):
        value = arguments.get(name, "")
        if len(value) > MAX_OPTION_CHARS:
            raise ToolError(
                f'invalid {name} "{clip(value, 40)}": at most {MAX_OPTION_CHARS} characters'
            )


def read_docx(call: Call) -> Answer:
    requested = call.arguments["path"]
    wanted = docx_options(
        _docx_args(call.arguments),
        call.arguments.get("grep", ""),
        call.settings.out_cap,
        call.settings.unit,
    )
    call.facts.path = str(call.settings.roots.resolve(requested))
    check_docx_options(wanted)
    loaded = call.load(requested, "docx")
    return rendered_answer(render_docx(WORD.expect(loaded.doc), wanted))


def _logged(arguments: Mapping[str, Any]) -> LoggedRequest:
    return LoggedRequest(grep=arguments.get("grep", ""), docx=_docx_args(arguments))


READ_DOCX = ServedTool(
    name="read_docx",
    family="read",
    title="Read a Word document",
    description=DOCX_DESCRIPTION,
    input_schema=DOCX_INPUT_SCHEMA,
    output_schema=DOCX_OUTPUT_SCHEMA,
    handler=read_docx,
    rules=_rules,
    lenient=True,
    refusals=(BadOption, BadGrep),
    logged=_logged,
)
