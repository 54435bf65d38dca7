"""docs/SPEC.md's worked examples, run as written and checked byte for byte.

The examples section is read in order: every ```python block runs after all
the blocks before it (each example in a fresh namespace, so that pytest-xdist
may run them on any worker); when its last line is an expression (a render() call), the line
starting with → after it says what that call gives: `field=value, ...` and the
```text block that follows (or "content empty"), or `raises Error("message")`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.doc_examples import ARROW, Example, check_example, examples, names

from siftui.core.doc import Doc, OutlineItem
from siftui.core.render import BadGrep, BadPages, Options, render

SPEC = Path(__file__).resolve().parents[2] / "docs" / "SPEC.md"
EXAMPLES = examples(SPEC.read_text(encoding="utf-8"))
NAMESPACE = names(Doc, OutlineItem, Options, render, BadPages, BadGrep)


def test_the_spec_has_its_examples() -> None:
    """Every → line became an example: none was skipped by the reader above."""
    text = SPEC.read_text(encoding="utf-8")
    assert len(EXAMPLES) == len(ARROW.findall(text)) >= 14
    assert sum(example.raises for example in EXAMPLES) >= 4


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line{e.line}" for e in EXAMPLES])
def test_spec_example(example: Example) -> None:
    check_example(example, NAMESPACE)
