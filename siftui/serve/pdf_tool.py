"""read_pdf's handler, bound to its entry (siftui.core.tools.read: schemas, description).

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
from siftui.core.tools import read
from siftui.core.tools.read import INPUT_SCHEMA, OUTPUT_SCHEMA
from siftui.serve.hidden_warn import STILL_INSPECTING, hidden_warning
from siftui.serve.tool_api import (
    LoggedRequest,
    ServedTool,
    ToolAnswer,
    ToolCall,
    ToolError,
    rendered_answer,
)
from siftui.serve.wire import clip

__all__ = ["INPUT_SCHEMA", "NO_TEXT_ADVICE", "OUTPUT_SCHEMA", "READ_PDF"]

MAX_PAGES_CHARS = 100
"""A page range is a few digits; a longer ``pages`` is refused without being echoed whole."""


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


def answer_pdf(call: ToolCall) -> ToolAnswer:
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
    read.READ_PDF, answer_pdf, rules=_rules, refusals=(BadPages, BadGrep), logged=_logged
)
