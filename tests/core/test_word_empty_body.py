"""A body without lines: the first call says so and names the scopes that hold text."""

from __future__ import annotations

import pytest

from siftui.core.word.model import DocxDoc, Para, Story, Table
from siftui.core.word.render import BadOption, DocxOptions, Rendered, render_docx


def headers_only() -> DocxDoc:
    # Headers.docx: five empty body paragraphs, three headers with text.
    headers = Story(tuple(Para(t, item=i) for t, i in (("Section 1", "s1 default"), ("", ""))))
    return DocxDoc(
        "",
        {
            "body": Story((Para(""),) * 5),
            "headers": Story((*headers.paragraphs, Para("Section 2"), Para("Section 3"))),
            "comments": Story((), (Table(0, ("| a |",), 1, item="C1"),)),
        },
    )


def test_the_first_call_names_the_scopes_that_hold_text() -> None:
    answer = render_docx(headers_only(), DocxOptions())
    note = (
        'the body is empty; text is in scope="comments" (1 table), scope="headers" (3 paragraphs)'
    )
    assert answer == Rendered("", False, 1, 5, 0, note)


def test_a_body_without_paragraphs_says_so_too() -> None:
    doc = DocxDoc("T", {"footnotes": Story((Para("^1 See.", item="^1"), Para("More.")))})
    answer = render_docx(doc, DocxOptions(out_cap=5))
    note = 'the body is empty; text is in scope="footnotes" (2 paragraphs)'
    assert answer == Rendered("", False, 0, 0, 0, note)
    with pytest.raises(BadOption, match=r"^range out of range \(no paragraphs\)$"):
        render_docx(doc, DocxOptions(range="P1"))


def test_a_document_without_text_says_no_scope_holds_any() -> None:
    answer = render_docx(DocxDoc("T", {"body": Story((Para(""),))}), DocxOptions())
    assert answer.note == "the body is empty; no other scope holds text"


def test_ranges_greps_and_other_scopes_keep_the_contract_s_answers() -> None:
    # DOCX.md fixes these: a range over empty blocks is "" with no note, and so on.
    doc = headers_only()
    assert render_docx(doc, DocxOptions(range="P1..P5")) == Rendered("", False, 1, 5, 0, "")
    assert render_docx(doc, DocxOptions(grep="x")).note == ""
    assert render_docx(doc, DocxOptions(scope="footers")) == Rendered("", False, 0, 0, 0, "")


def test_a_body_with_only_a_table_is_not_empty() -> None:
    doc = DocxDoc("T", {"body": Story((), (Table(0, ("| x |",), 1),))})
    assert render_docx(doc, DocxOptions()).note == ""
