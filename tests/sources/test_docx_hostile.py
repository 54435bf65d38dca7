"""Untrusted .docx files: every failure is one line, every limit holds, nothing hangs."""

from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.docx_build import NS, docx_bytes, p, read
from support.same_bytes import zip_entry

from siftui.core.word.render import DocxOptions, render_docx
from siftui.sources.word import package
from siftui.sources.word import read as reader
from siftui.sources.word.read import DocxError, read_docx


def error_of(data: bytes) -> str:
    with pytest.raises(DocxError) as error:
        read_docx(io.BytesIO(data))
    message = str(error.value)
    assert "\n" not in message and message
    return message


def zipped(files: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in files.items():
            out.writestr(zip_entry(name), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def test_not_a_package_no_main_part_broken_main_part() -> None:
    assert error_of(b"%PDF-1.7 nothing").startswith("not a Word document (.docx): not a ZIP")
    assert error_of(b"\xd0\xcf\x11\xe0" + bytes(600)).startswith("not a Word document")
    assert "no main document part" in error_of(zipped({"a.txt": "x"}))
    assert error_of(docx_bytes("", raw_document="<w:document")).startswith(
        "word/document.xml: broken XML"
    )
    no_body = f"<w:document {NS}></w:document>"
    assert "no w:body" in error_of(docx_bytes("", raw_document=no_body))


def test_deep_nesting_is_one_line_error_or_read() -> None:
    def nested(depth: int) -> str:
        return "<w:sdt><w:sdtContent>" * depth + p("deep") + "</w:sdtContent></w:sdt>" * depth

    assert [x.text for x in read(nested(120)).body.paragraphs] == ["deep"]
    assert "Excessive depth" in error_of(docx_bytes(nested(200)))
    tables = "<w:tbl><w:tr><w:tc>" * 80 + p("x") + "</w:tc></w:tr></w:tbl>" * 80
    assert read(tables).body.tables[0].rows == ("| x |",)


def test_zip_bomb_main_part_refused() -> None:
    bomb = f"<w:document {NS}><w:body>" + " " * (65 * 1024 * 1024) + "</w:body></w:document>"
    data = zipped({"word/document.xml": bomb})
    assert len(data) < 200_000
    assert "inflates past 64 MiB (a zip bomb" in error_of(data)


def test_zip_bomb_in_another_part_is_left_out_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(package, "MAX_PART_BYTES", 2000)
    styles = "<w:styles " + NS + ">" + " " * 5000 + "</w:styles>"
    doc = read(p("Title", style="Title"), styles=styles)
    assert doc.body.paragraphs[0].text == "Title"
    assert doc.notes == (
        "word/styles.xml: inflates past 0.00190735 MiB (a zip bomb, or too large to read); "
        "left out",
    )


def test_total_and_element_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(package, "MAX_ELEMENTS", 50)
    assert "more than 50 XML elements" in error_of(docx_bytes(p("x") * 20))
    monkeypatch.setattr(package, "MAX_ELEMENTS", 2_000_000)
    monkeypatch.setattr(package, "MAX_TOTAL_BYTES", 3000)
    assert "the package inflates past" in error_of(docx_bytes(p("x" * 4000)))


def test_too_many_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(package, "MAX_PARTS", 5)
    data = zipped({f"word/media/x{i}.bin": b"" for i in range(6)})
    assert error_of(data) == "not a Word document one can read: more than 5 parts"


def test_paragraph_limit_keeps_a_best_effort_projection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "MAX_PARAGRAPHS", 10)
    doc = read(p("x") * 25)
    assert doc.body.count == 10
    assert doc.notes == ("body: only the first 10 paragraphs were read",)


@pytest.mark.slow
def test_a_million_paragraphs() -> None:
    doc = read_docx(io.BytesIO(docx_bytes("<w:p/>" * 999_999 + p("last"))))
    assert doc.body.count == reader.MAX_PARAGRAPHS
    assert render_docx(doc, DocxOptions()).content == ""


def test_broken_parts_are_left_out_with_notes() -> None:
    doc = read(
        p("a", '<w:r><w:footnoteReference w:id="1"/></w:r>'),
        styles="<w:styles",
        numbering_xml="<<<",
        footnotes="not xml",
    )
    assert [x.text for x in doc.body.paragraphs] == ["a[^?]"]
    assert len(doc.notes) == 3 and all(
        "broken XML" in n and n.endswith("left out") for n in doc.notes
    )


def test_entities_are_not_expanded() -> None:
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
        f"<w:document {NS}><w:body><w:p><w:r><w:t>&c;</w:t></w:r></w:p></w:body></w:document>"
    )
    doc = read_docx(io.BytesIO(docx_bytes("", raw_document=laughs)))
    assert len(doc.body.paragraphs[0].text) < 100


VALID = docx_bytes(
    p("Hello", style="Title") + p("world", '<w:r><w:commentReference w:id="1"/></w:r>')
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(VALID) - 1), st.integers(0, 255)), max_size=8))
def test_corrupted_packages_give_a_document_or_one_line(flips: list[tuple[int, int]]) -> None:
    data = bytearray(VALID)
    for at, value in flips:
        data[at] = value
    try:
        doc = read_docx(io.BytesIO(bytes(data)))
    except DocxError as error:
        assert "\n" not in str(error)
    else:
        assert len(render_docx(doc, DocxOptions(out_cap=50)).content) <= 50
