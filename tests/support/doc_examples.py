"""Worked examples read from a page of docs/: docs/SPEC.md's and docs/WORD.md's.

After the page's examples heading every ```python block runs after all the
blocks before it; when its last line is an expression (a render call), the line
starting with → after it says what that call gives: `field=value, ...` and the
```text block that follows (or "content empty"), or `raises Error("message")`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

import pytest

from siftui.core.answer import Rendered

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
ARROW = re.compile(r"^→ (raises )?`([^`]+)`(.*)$", re.M)


@dataclass(frozen=True)
class Example:
    line: int  # where its python block starts in the page, for the failure message
    setup: str  # the statements of every block before the call
    call: str  # the expression whose answer is checked
    expected: str  # the → line's expression: fields, or the exception
    raises: bool
    content: str | None  # the text block; None when raises


def examples(text: str, heading: str = "\n## Worked examples\n") -> list[Example]:
    """The worked examples after ``heading`` in document order."""
    section = text[text.index(heading) :]
    offset = text.index(section)
    tokens = sorted(
        [(m.start(), "fence", m) for m in FENCE.finditer(section)]
        + [(m.start(), "arrow", m) for m in ARROW.finditer(section)],
        key=lambda token: token[0],
    )
    found: list[Example] = []
    pending = ""
    call: tuple[int, str] | None = None
    arrow: re.Match[str] | None = None
    for start, kind, match in tokens:
        if kind == "fence" and match.group(1) == "python":
            assert call is None, "a python block whose answer is not stated"
            tree = ast.parse(match.group(2))
            last = tree.body[-1] if tree.body else None
            if isinstance(last, ast.Expr):
                pending += "".join(ast.unparse(node) + "\n" for node in tree.body[:-1])
                line = text.count("\n", 0, offset + start) + 1
                call = (line, ast.unparse(last))
            else:
                pending += match.group(2)
        elif kind == "arrow":
            assert call is not None, f"a → line with no call before it: {match.group(0)}"
            raises = bool(match.group(1))
            if raises or match.group(3).strip() == ", content empty.":
                content = None if raises else ""
                found.append(Example(call[0], pending, call[1], match.group(2), raises, content))
                call = None
            else:
                assert match.group(3) == ", content:", match.group(0)
                arrow = match
        elif kind == "fence" and match.group(1) == "text" and arrow is not None:
            assert call is not None
            content = match.group(2)[:-1]  # the newline before the closing fence
            found.append(Example(call[0], pending, call[1], arrow.group(2), False, content))
            call, arrow = None, None
    assert call is None and arrow is None, "the last example is not finished"
    return found


def names(*objects: Any) -> dict[str, Any]:
    """The namespace an examples page imports: each class or function by its name."""
    return {thing.__name__: thing for thing in objects}


def check_example(example: Example, names: dict[str, Any]) -> None:
    """Run ``example`` with ``names`` imported: its answer, byte for byte, or its error."""
    namespace = dict(names)
    exec(example.setup, namespace)  # defines the documents the later examples ask about
    if example.raises:
        expected_error = eval(example.expected, namespace)
        with pytest.raises(type(expected_error)) as raised:
            eval(example.call, namespace)
        assert str(raised.value) == str(expected_error)
        return
    answer = eval(example.call, namespace)
    assert isinstance(answer, Rendered) and example.content is not None
    fields = eval(f"dict({example.expected})", namespace)
    assert set(fields) == {"map", "first", "last", "grep_hits", "note"}
    assert answer == Rendered(content=example.content, **fields)
