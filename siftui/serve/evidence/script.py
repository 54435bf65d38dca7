"""A session script: calls as JSON Lines, run in one fresh session, printed as sent.

Each line is ``{"tool": <name>, "arguments": {...}}`` (``arguments`` may be
left out for a tool that takes none). A blank line is skipped; any other line
that is not such an object prints ``error: line <n>: not a call`` and the
session goes on. Every call prints :func:`answer_lines`: its text blocks, an
image block as ``image: <w>x<h> png <sha256>``, or ``error: <message>``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from siftui.core.evidence.script import parse_call
from siftui.serve.tool_api import ImageBlock, TextBlock, ToolAnswer


def image_line(png: bytes) -> str:
    """An image block as one line: its size (from the PNG's header) and its sha256."""
    width = int.from_bytes(png[16:20], "big") if len(png) >= 24 else 0
    height = int.from_bytes(png[20:24], "big") if len(png) >= 24 else 0
    return f"image: {width}x{height} png {hashlib.sha256(png).hexdigest()}"


def answer_lines(answer: ToolAnswer) -> list[str]:
    """The lines ``siftui session`` prints for one answer, in the order of its blocks."""
    if answer.is_error:
        return [f"error: {answer.message}"]
    return [
        image_line(block.data) if isinstance(block, ImageBlock) else block.text
        for block in answer.blocks
    ]


def answer_text(answer: ToolAnswer) -> str:
    """The text an agent reads of one answer: its text blocks (joined by newlines), or
    the refusal's line; what ``siftui session --tokens`` and the preview measure."""
    if answer.is_error:
        return answer.message
    return "\n".join(block.text for block in answer.blocks if isinstance(block, TextBlock))


Answered = Callable[[int, str, ToolAnswer], None]
"""Told each call's number (1-based, calls only), tool and answer, once its lines are out."""


def run_script(
    lines: Iterable[str],
    call: Callable[[str, Any], ToolAnswer],
    answered: Answered | None = None,
) -> Iterator[str]:
    """The printed lines of a script, call by call, as each call is answered; then
    ``answered`` is told of the call (after its lines are consumed)."""
    calls = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        parsed = parse_call(line)
        if parsed is None:
            yield f"error: line {number}: not a call"
            continue
        answer = call(parsed.tool, parsed.arguments)
        yield from answer_lines(answer)
        calls += 1
        if answered is not None:
            answered(calls, parsed.tool, answer)
