"""The kinds table: a PDF never loads the Word entry's modules; a Word value is still
known as Word's, whatever was loaded before it."""

from __future__ import annotations

import subprocess
import sys

from siftui.core.doc import Doc
from siftui.core.kinds import PDF, WORD, kind_of, render_any
from siftui.core.render import Options
from siftui.core.word.model import DocxDoc, Para, Story
from siftui.core.word.render import DocxOptions

WORD_MODULES = (
    "siftui.core.word.model",
    "siftui.core.word.render",
    "siftui.core.word.index",
    "siftui.core.word.grep",
)

# Every question a PDF's first call asks of the table, in a fresh interpreter.
PDF_ONLY = """
import sys
from siftui.core.doc import Doc
from siftui.core.kinds import PDF, WORD, kind_of, next_call_any, render_any
from siftui.core.render import Options

doc = Doc(title="t", page_count=2, pages=("one", "two"), outline=())
options = Options(out_cap=20)
assert kind_of(doc) is PDF and kind_of(options) is PDF
assert WORD.doc(doc) is None and WORD.options(options) is None and not WORD.owns(doc)
assert WORD.scope(options) == "body"
rendered = render_any(doc, options)
next_call_any(options, rendered, doc)
print(" ".join(sorted(name for name in sys.modules if name.startswith("siftui.core.word."))))
"""


def test_a_pdf_loads_no_word_module() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PDF_ONLY], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert [name for name in done.stdout.split() if name in WORD_MODULES] == []


def test_word_values_are_words() -> None:
    story = Story(paragraphs=(Para("hello"),), tables=())
    doc = DocxDoc(title="t", stories={"body": story})
    options = DocxOptions(out_cap=100)
    assert kind_of(doc) is WORD and kind_of(options) is WORD
    assert WORD.expect(doc) is doc and WORD.options_of(options) is options
    assert PDF.doc(doc) is None and PDF.options(options) is None
    assert "hello" in render_any(doc, options).content


def test_each_kind_refuses_the_others_options() -> None:
    pdf = Doc(title="t", page_count=1, pages=("one",), outline=())
    story = Story(paragraphs=(Para("hello"),), tables=())
    word = DocxDoc(title="t", stories={"body": story})
    for doc, options in ((pdf, DocxOptions()), (word, Options())):
        try:
            render_any(doc, options)
        except ValueError as refusal:
            assert "PDF" in str(refusal) or "Word" in str(refusal)
        else:
            raise AssertionError(f"{type(options).__name__} rendered on {type(doc).__name__}")
