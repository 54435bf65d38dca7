"""docs/SPEC.md's worked examples, run as written and checked byte for byte.

The examples section is read in order: every ```python block runs after all
the blocks before it (each example in a fresh namespace, so that pytest-xdist
may run them on any worker); when its last line is an expression (a render() call), the line
starting with → after it says what that call gives: `field=value, ...` and the
```text block that follows (or "content empty"), or `raises Error("message")`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from siftui.core.doc import Doc, OutlineItem
from siftui.core.render import BadGrep, BadPages, Options, Rendered, render

SPEC = Path(__file__).resolve().parents[2] / "docs" / "SPEC.md"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
_ARROW = re.compile(r"^→ (raises )?`([^`]+)`(.*)$", re.M)


@dataclass(frozen=True)
class Example:
    line: int  # where its python block starts in SPEC.md, for the failure message
    setup: str  # the statements of every block before the call
    call: str  # the expression whose answer is checked
    expected: str  # the → line's expression: fields, or the exception
    raises: bool
    content: str | None  # the text block; None when raises


def examples(text: str) -> list[Example]:
    """The worked examples in document order."""
    section = text[text.index("\n## Worked examples\n") :]
    offset = text.index(section)
    tokens = sorted(
        [(m.start(), "fence", m) for m in _FENCE.finditer(section)]
        + [(m.start(), "arrow", m) for m in _ARROW.finditer(section)],
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


EXAMPLES = examples(SPEC.read_text(encoding="utf-8"))
NAMESPACE: dict[str, Any] = {
    "Doc": Doc,
    "OutlineItem": OutlineItem,
    "Options": Options,
    "render": render,
    "BadPages": BadPages,
    "BadGrep": BadGrep,
}


def test_the_spec_has_its_examples() -> None:
    """Every → line became an example: none was skipped by the reader above."""
    text = SPEC.read_text(encoding="utf-8")
    assert len(EXAMPLES) == len(_ARROW.findall(text)) >= 14
    assert sum(example.raises for example in EXAMPLES) >= 4


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line{e.line}" for e in EXAMPLES])
def test_spec_example(example: Example) -> None:
    namespace = dict(NAMESPACE)
    exec(example.setup, namespace)  # defines `short` and `thesis` for the later examples
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
