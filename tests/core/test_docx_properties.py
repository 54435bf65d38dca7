"""Properties of the Word answers over random document models (hypothesis).

The default profile runs few examples (fast); the `slow` variants run many.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.docx_strategies import PATTERNS, stories, texts

from siftui.core.word.docjson import docx_from_json, docx_to_json
from siftui.core.word.index import index_story
from siftui.core.word.model import DocxDoc, Story, line
from siftui.core.word.render import BadOption, DocxOptions, full_projection, render_docx
from siftui.core.word.walk import walk_docx

docs = st.builds(lambda s, t: DocxDoc(t, {"body": s}), stories(), texts)
caps = st.integers(1, 3000)
_ANCHOR = re.compile(r"\[P([0-9]+)#([0-9a-f]{4})")


def _shown_lines(story: Story) -> list[str]:
    return [line(p.prefix(n), p.text) for n, p in enumerate(story.paragraphs, 1) if p.text]


def check_projection_order(doc: DocxDoc) -> None:
    lines = full_projection(doc).split("\n")
    at = -1
    for expected in _shown_lines(doc.body):
        assert lines.count(expected) == 1
        assert lines.index(expected) > at
        at = lines.index(expected)


def check_walk(doc: DocxDoc, out_cap: int) -> None:
    """The map and the notes read blocks 1..N once each, in order, within OutCap."""
    calls = walk_docx(doc, out_cap)
    count = doc.body.count
    index = index_story(doc.body)
    seen = 0
    for number, call in enumerate(calls, 1):
        answer = call.answer
        assert len(answer.content) <= out_cap
        if count == 0:
            assert answer.first == answer.last == 0
            continue
        start = 1 if answer.map else answer.first
        assert start == seen + 1
        seen = answer.last
        if answer.map and number < len(calls):
            # A block the map cut is read again by the next call.
            seen = int(calls[number].options.range[1:].split("..")[0]) - 1
        if not answer.map and "cut to" not in answer.note:
            assert answer.content == index.join(answer.first, answer.last)
    assert seen == count


def check_answers(doc: DocxDoc, out_cap: int, pattern: str) -> None:
    count = doc.body.count
    options = [DocxOptions(out_cap=out_cap), DocxOptions(grep=pattern, out_cap=out_cap)]
    if count:
        options += [
            DocxOptions(range=f"P{count // 2 + 1}..", out_cap=out_cap),
            DocxOptions(range="P1", grep=pattern, out_cap=out_cap),
        ]
    for option in options:
        answer = render_docx(doc, option)
        assert len(answer.content) <= out_cap
        assert answer == render_docx(doc, option)
        for number, digest in _ANCHOR.findall(answer.content):
            n = int(number)
            para = doc.body.paragraphs[n - 1]
            assert para.hash == digest
            read = render_docx(doc, DocxOptions(anchor=f"P{n}#{digest}", window=0, out_cap=out_cap))
            assert read.content == line(para.prefix(n), para.text)[:out_cap]
            stale = format((int(digest, 16) + 1) % 0x10000, "04x")
            with pytest.raises(
                BadOption, match=f"^stale anchor P{n}#{stale}: P{n} is now P{n}#{digest}"
            ):
                render_docx(doc, DocxOptions(anchor=f"P{n}#{stale}"))


def check_json(doc: DocxDoc) -> None:
    again = docx_from_json(docx_to_json(doc))
    assert again == doc
    assert full_projection(again) == full_projection(doc)


def run_all(doc: DocxDoc, out_cap: int, pattern: str) -> None:
    check_projection_order(doc)
    check_walk(doc, out_cap)
    check_answers(doc, out_cap, pattern)
    check_json(doc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(docs, caps, PATTERNS)
def test_properties(doc: DocxDoc, out_cap: int, pattern: str) -> None:
    run_all(doc, out_cap, pattern)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(docs, caps, PATTERNS)
def test_properties_long(doc: DocxDoc, out_cap: int, pattern: str) -> None:
    run_all(doc, out_cap, pattern)
