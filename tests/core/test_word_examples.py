"""docs/WORD.md's worked examples, run as written and checked byte for byte.

The page's examples are read as docs/SPEC.md's are (support.doc_examples): each
```python block builds a Word document's model (DocxDoc, Story, Para, Table) and
asks render_docx; the → line after it and the ```text block that follows are
the exact answer, or the exact error. An example that stops being true fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.doc_examples import ARROW, Example, check_example, examples, names

from siftui.core.word.model import DocxDoc, Para, Story, Table
from siftui.core.word.render import BadGrep, BadOption, DocxOptions, render_docx

WORD = Path(__file__).resolve().parents[2] / "docs" / "WORD.md"
EXAMPLES = examples(WORD.read_text(encoding="utf-8"))
NAMESPACE = names(DocxDoc, Story, Para, Table, DocxOptions, render_docx, BadOption, BadGrep)


def test_the_page_has_its_examples() -> None:
    """Every → line became an example, and each answer D1-D5 and the errors are shown."""
    text = WORD.read_text(encoding="utf-8")
    assert len(EXAMPLES) == len(ARROW.findall(text)) >= 12
    assert sum(example.raises for example in EXAMPLES) >= 4
    calls = " ".join(example.call for example in EXAMPLES)
    for option in ("range=", "anchor=", "grep=", "scope="):
        assert option in calls


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line{e.line}" for e in EXAMPLES])
def test_word_example(example: Example) -> None:
    check_example(example, NAMESPACE)
