"""Hypothesis strategies for Word document models: paragraph texts, paragraphs,
stories with tables between them, and grep patterns that stress the projection's
characters. Shared by tests/core/test_docx_properties.py and test_docx_layout.py.
"""

from __future__ import annotations

from hypothesis import strategies as st

from siftui.core.word.model import Para, Story, Table

ALPHABET = st.characters(
    codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"), include_characters="|# "
)
texts = st.text(ALPHABET, max_size=40).map(str.strip)
paras = st.builds(
    Para,
    texts,
    st.sampled_from([0, 0, 0, 1, 2, 6]),
    st.sampled_from(["", "", "ol L1", "ul L3"]),
    st.sampled_from(["", "", "^1", "C2", "s1 default"]),
)


@st.composite
def stories(draw: st.DrawFn) -> Story:
    paragraphs = draw(st.lists(paras, max_size=30))
    afters = sorted(draw(st.lists(st.integers(0, len(paragraphs)), max_size=5)))
    tables = tuple(
        Table(
            after,
            tuple(
                "| " + cell + " |"
                for cell in draw(st.lists(texts.map(lambda t: t.replace("|", "\\|")), max_size=3))
            ),
            draw(st.integers(0, 4)),
        )
        for after in afters
    )
    return Story(tuple(paragraphs), tables)


PATTERNS = st.sampled_from(["a", "|", "^", "\\|", "[#]", "x$", "é", "(?i)A"])
