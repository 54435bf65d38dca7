"""Grep searches a whole page per RE2 call; it must find what a line-by-line search finds."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.pdfs import CorpusDocs

from siftui.core import grep as grep_module
from siftui.core.doc import Doc
from siftui.core.docindex import index_of
from siftui.core.matching import search_line
from siftui.core.render import Options, render

TRICKY = [
    "node",
    "^node",
    "node$",
    "^$",
    "^",
    "$",
    "x*",
    "",
    r"\bthe\b",
    r"\Bhe",
    r"\s+$",
    r"^\s*\S",
    r"[^a-z]{3}",
    "a.b",
    r"\d+\.\d+",
    "(?i)TeX",
    "TeX",
    r"\p{Han}+",
    "的",
    r"^\p{Han}",
    "[[:punct:]]$",
    "e",
    "(a|b)+c",
    r"\Anode",
    r"node\z",
    r"(?-m)^node",
    r"\C",
    "(?s).",
    r"\n",
    r"[\s\S]",
    "(?U)a+",
    "q{2,}",
    "é",
    "É",
    "ǅ",
]


def line_by_line(doc: Doc, pattern: str) -> list[tuple[int, int, int]]:
    index = index_of(doc)
    regex = grep_module.compile_pattern(pattern)
    found = []
    for page in range(1, index.extracted + 1):
        for at, line in enumerate(index.lines(page)):
            match = search_line(regex, line)
            if match is not None:
                found.append((page, at, match.start()))
    return found


def page_at_once(doc: Doc, pattern: str) -> list[tuple[int, int, int]]:
    index = index_of(doc)
    return [
        (page, at, start)
        for page in range(1, index.extracted + 1)
        for at, start in grep_module.page_hits(index, page, pattern)
    ]


@pytest.mark.parametrize("name", ["ksp-thesis.pdf", "lshort-zh-cn.pdf", "sample-sigconf.pdf"])
@pytest.mark.parametrize("pattern", [p for p in TRICKY if p])
def test_same_hits_as_line_by_line_on_the_corpus(
    corpus: CorpusDocs, name: str, pattern: str
) -> None:
    doc = corpus[name]
    assert page_at_once(doc, pattern) == line_by_line(doc, pattern)


LINE_TEXT = st.text(
    alphabet=st.sampled_from(
        [*"ab eÉé文字\t\r \u00a0\u2028\x1c\x85\u3000\x0bx1.-:", "\ud800", "🙂"]
    ),
    max_size=12,
)
PAGE = st.lists(LINE_TEXT, max_size=6).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(
    pages=st.lists(PAGE, min_size=1, max_size=3), pattern=st.sampled_from([p for p in TRICKY if p])
)
def test_same_hits_on_random_pages(pages: list[str], pattern: str) -> None:
    doc = Doc("t", len(pages), tuple(pages))
    assert page_at_once(doc, pattern) == line_by_line(doc, pattern)


def test_pathological_pattern_is_linear() -> None:
    """(a+)+$ backtracks exponentially in Python's re; RE2 is linear."""
    sizes = (2_500, 5_000, 10_000)
    seconds = []
    for size in sizes:
        doc = Doc("t", 1, ("a" * size + "!",))
        start = time.perf_counter()
        answer = render(doc, Options(grep="(a+)+$"))
        seconds.append(time.perf_counter() - start)
        assert answer.grep_hits == 0
    # Generous: a backtracking engine would take astronomically long, not 4x.
    assert max(seconds) < 5.0
