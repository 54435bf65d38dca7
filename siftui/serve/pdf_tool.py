"""read_pdf: the PDF tool's entry (schemas, description, handler).

Its answer is :func:`siftui.core.render.render` of the document with the
operator's OutCap (docs/SPEC.md): the first text block is exactly
``Rendered.content``, the bytes ``siftui render`` prints for the same options.
With ``--warn-hidden``, an answer showing hidden text (siftui.serve.hidden_warn)
gets one more line after the note; one given while the file is still being
inspected says so instead (``STILL_INSPECTING``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from siftui.core.kinds import PDF
from siftui.core.render import BadGrep, BadPages, Options, check_options, render
from siftui.core.textless import answer_textless, textless_warning
from siftui.serve.hidden_warn import STILL_INSPECTING, hidden_warning
from siftui.serve.tool_api import (
    Answer,
    Call,
    LoggedRequest,
    ServedTool,
    ToolError,
    rendered_answer,
)
from siftui.serve.wire import clip

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

MAX_PAGES_CHARS = 100
"""A page range is a few digits; a longer ``pages`` is refused without being echoed whole."""

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


def _rules(arguments: Mapping[str, Any]) -> None:
    """An over-long ``pages`` is refused here, not by the schema: its message shows
    the start of the value."""
    pages = arguments.get("pages", "")
    if len(pages) > MAX_PAGES_CHARS:
        raise ToolError(
            f'invalid pages "{clip(pages, 40)}": use "a-b", "a" or "a-" '
            f"(at most {MAX_PAGES_CHARS} characters)"
        )


NO_TEXT_ADVICE = "the server's operator can OCR it"
"""What an agent is told of a page without text: it cannot OCR it, the operator can."""


def read_pdf(call: Call) -> Answer:
    requested = call.arguments["path"]
    pages = call.arguments.get("pages", "")
    grep = call.arguments.get("grep", "")
    settings = call.settings
    options = Options(pages=pages, grep=grep, out_cap=settings.out_cap, unit=settings.unit)
    # A Word document is refused by the worker, which tells the kinds apart by the bytes.
    call.facts.path = str(call.settings.roots.resolve(requested))
    check_options(options)
    loaded = call.load(requested, "pdf", options)
    doc = PDF.expect(loaded.doc)
    rendered = render(doc, options)
    warnings = []
    damaged = {page.page for page in loaded.unreadable}
    empty = [page for page in answer_textless(doc, rendered) if page not in damaged]
    if empty:  # else the agent gets "--- page 1 ---" and nothing to tell it why
        warnings.append("warning: " + textless_warning(empty, NO_TEXT_ADVICE))
    if call.settings.warn_hidden and call.facts.later is not None:
        warnings.append(STILL_INSPECTING)  # the answer does not wait for the findings
    elif call.settings.warn_hidden:
        warnings.append(hidden_warning(rendered, bool(grep), loaded.findings()[0]))
    return rendered_answer(rendered, "\n".join(line for line in warnings if line))


def _logged(arguments: Mapping[str, Any]) -> LoggedRequest:
    return LoggedRequest(pages=arguments.get("pages", ""), grep=arguments.get("grep", ""))


READ_PDF = ServedTool(
    name="read_pdf",
    family="read",
    title="Read a PDF",
    description=DESCRIPTION,
    input_schema=INPUT_SCHEMA,
    output_schema=OUTPUT_SCHEMA,
    handler=read_pdf,
    rules=_rules,
    lenient=True,
    refusals=(BadPages, BadGrep),
    logged=_logged,
)
