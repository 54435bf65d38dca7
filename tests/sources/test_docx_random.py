"""Properties over random Word documents (hypothesis): what is written is read back,
every answer stays within OutCap, every anchor shown resolves."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.docx_build import abstract, numbering, p, read, tbl

from siftui.core.word.render import DocxOptions, full_projection, render_docx
from siftui.core.word.walk import walk_docx

XML_SAFE = st.characters(
    codec="utf-8",
    exclude_categories=("Cc", "Cs", "Zl", "Zp", "Co"),
    exclude_characters="\ufffe\uffff",
)
words = st.text(XML_SAFE, max_size=12)
NUM = numbering(
    abstract(1, (0, "decimal", "%1.", 1), (1, "lowerLetter", "%1.%2", 1)),
    nums={1: '<w:abstractNumId w:val="1"/>'},
)


@st.composite
def paragraph(draw: st.DrawFn) -> tuple[str, str]:
    """(XML of a paragraph, the text it should read as before list markers)."""
    pieces = draw(st.lists(words, max_size=4))
    deleted = draw(st.booleans())
    xml = [
        f'<w:r><w:t xml:space="preserve">{html.escape(w, quote=False)}</w:t></w:r>' for w in pieces
    ]
    text = "".join(pieces)
    if deleted:
        xml.append('<w:del w:author="X"><w:r><w:delText>gone</w:delText></w:r></w:del>')
        text += "" if not text or text[-1] in " \t\n\r\v\f" else " "
        text += "[del by X]"
    style = draw(st.sampled_from([None, "Heading1", "Title"]))
    num = draw(st.sampled_from([None, (1, 0), (1, 1)]))
    return p(*xml, style=style, num=num), " ".join(text.split(" ")).strip()


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str, list[str]]:
    blocks = draw(st.lists(st.one_of(paragraph(), words.map(lambda w: ("table", w))), max_size=25))
    xml, expected = [], []
    for kind, text in blocks:
        if kind == "table":
            xml.append(tbl([html.escape(text or "x", quote=False), "y"]))
        else:
            xml.append(kind)
            expected.append(text)
    return "".join(xml), expected


_ANCHOR = re.compile(r"\[P([0-9]+)#([0-9a-f]{4})")


def check(body: str, expected: list[str], out_cap: int) -> None:
    doc = read(body, numbering_xml=NUM)
    paragraphs = doc.body.paragraphs
    assert len(paragraphs) == len(expected)
    for para, text in zip(paragraphs, expected, strict=True):
        normalized = re.sub(r"[\t\n\r\v\f]", " ", text).strip()
        if para.list and para.text:  # "<marker> <text>"
            assert para.text.endswith(" " + normalized)
        else:
            assert para.text == normalized
    full = full_projection(doc)
    for call in walk_docx(doc, out_cap):
        assert len(call.answer.content) <= out_cap
        for number, digest in _ANCHOR.findall(call.answer.content):
            answer = render_docx(doc, DocxOptions(anchor=f"P{number}#{digest}", window=0))
            assert answer.content in full.split("\n")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies(), st.integers(1, 2000))
def test_random_documents(body: tuple[str, list[str]], out_cap: int) -> None:
    check(body[0], body[1], out_cap)


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies(), st.integers(1, 2000))
def test_random_documents_long(body: tuple[str, list[str]], out_cap: int) -> None:
    check(body[0], body[1], out_cap)
