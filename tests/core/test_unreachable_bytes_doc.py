"""docs/SPEC.md's example of what no call shows in bytes, run as a doctest."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from siftui.core.budget import BYTES
from siftui.core.doc import Doc
from siftui.core.kinds import PDF, WORD
from siftui.core.unreachable import unreachable_text
from siftui.core.word.model import DocxDoc, Para, Story

SPEC = Path(__file__).resolve().parents[2] / "docs" / "SPEC.md"
HEADING = "\n### What no call shows, in bytes\n"


def test_the_bytes_unreachable_example_is_true() -> None:
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index(HEADING) :]
    found = re.search(r"^```pycon\n(.*?)^```$", section, re.S | re.M)
    assert found is not None
    names = {
        "BYTES": BYTES,
        "Doc": Doc,
        "PDF": PDF,
        "WORD": WORD,
        "DocxDoc": DocxDoc,
        "Para": Para,
        "Story": Story,
        "unreachable_text": unreachable_text,
    }
    test = doctest.DocTestParser().get_doctest(found.group(1), names, "SPEC.md", str(SPEC), 0)
    assert len(test.examples) == 5
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
