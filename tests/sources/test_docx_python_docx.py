"""Documents written by python-docx (another writer than ours), raw XML added only where
python-docx has no API (a tracked insertion, a list level)."""

from __future__ import annotations

import io

import docx
from docx.enum.section import WD_SECTION
from docx.oxml import parse_xml
from support.docx_build import W
from support.docx_worked import WORKED

from siftui.core.word.render import DocxOptions, render_docx
from siftui.sources.word.read import read_docx


def build() -> bytes:
    document = docx.Document()
    document.core_properties.title = "Made  by\tpython-docx"
    document.add_heading("Master Services Agreement", 0)  # the Title style
    document.add_paragraph("This Agreement is entered into as of {{EffectiveDate}}.")
    document.add_paragraph()
    document.add_heading("Definitions", 2)
    table = document.add_table(rows=2, cols=2)
    for (row, col), text in {
        (0, 0): "Term",
        (0, 1): "Value",
        (1, 0): "Fee",
        (1, 1): "10 | 20",
    }.items():
        table.cell(row, col).text = text
    fee = document.add_paragraph('"Fee" means the amount in the order form.')
    document.add_comment(fee.runs, text="Check", author="J. Doe")
    document.add_paragraph("First obligation", style="List Number")
    second = document.add_paragraph("Second", style="List Number")
    second._p.append(
        parse_xml(
            f'<w:ins xmlns:w="{W}" w:id="90" w:author="Jane"><w:r>'
            '<w:t xml:space="preserve"> obligation</w:t></w:r></w:ins>'
        )
    )
    # python-docx's template lists have one level: a second level is defined here
    document.part.numbering_part.element.append(
        parse_xml(
            f'<w:num xmlns:w="{W}" w:numId="100"><w:abstractNumId w:val="1"/>'
            '<w:lvlOverride w:ilvl="1"><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/>'
            '<w:lvlText w:val="o"/></w:lvl></w:lvlOverride></w:num>'
        )
    )
    bullet = document.add_paragraph("in writing")
    bullet._p.get_or_add_pPr().append(
        parse_xml(f'<w:numPr xmlns:w="{W}"><w:ilvl w:val="1"/><w:numId w:val="100"/></w:numPr>')
    )
    first = document.sections[0]
    first.header.paragraphs[0].text = "Header one"
    first.different_first_page_header_footer = True
    first.first_page_header.paragraphs[0].text = "First page"
    second_section = document.add_section(WD_SECTION.NEW_PAGE)
    second_section.header.is_linked_to_previous = False
    second_section.header.paragraphs[0].text = "Second section"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_worked_example_written_by_python_docx() -> None:
    doc = read_docx(io.BytesIO(build()))
    assert render_docx(doc, DocxOptions()).content == WORKED
    assert doc.notes == ()


def test_headers_comments_and_title_written_by_python_docx() -> None:
    doc = read_docx(io.BytesIO(build()))
    headers = render_docx(doc, DocxOptions(scope="headers")).content.split("\n")
    assert [h[:24].split("  ")[1].rstrip(" ]") for h in headers] == [
        "s1 default",
        "s1 first",
        "s2 default",
    ]
    assert [h[25:] for h in headers] == ["Header one", "First page", "Second section"]
    comments = render_docx(doc, DocxOptions(scope="comments")).content
    assert comments.endswith("  C1]            Check")
    assert render_docx(doc, DocxOptions(out_cap=200)).content.startswith("# Made by python-docx\n")
