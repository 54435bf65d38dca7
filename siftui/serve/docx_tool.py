"""read_docx's handler, bound to its entry (siftui.core.tools.read: schemas, description).

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
from siftui.core.tools import read
from siftui.core.tools.read import DOCX_INPUT_SCHEMA, DOCX_OUTPUT_SCHEMA
from siftui.core.word.render import BadOption, check_docx_options, render_docx
from siftui.serve.tool_api import (
    LoggedRequest,
    ServedTool,
    ToolAnswer,
    ToolCall,
    ToolError,
    rendered_answer,
)
from siftui.serve.wire import clip
from siftui.sources.log.fields import DocxArgs, docx_options

__all__ = ["DOCX_INPUT_SCHEMA", "DOCX_OUTPUT_SCHEMA", "READ_DOCX"]

MAX_OPTION_CHARS = 100
"""A range, an anchor or a scope is a few characters; a longer one is refused without
being echoed whole."""


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


def answer_docx(call: ToolCall) -> ToolAnswer:
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
    read.READ_DOCX, answer_docx, rules=_rules, refusals=(BadOption, BadGrep), logged=_logged
)
