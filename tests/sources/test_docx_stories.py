"""docs/WORD.md *Stories*: headers and footers of several sections, notes, comments, the title."""

from __future__ import annotations

from support.docx_build import NS, comments, notes, p, projection, read, tbl

from siftui.core.word.model import Para
from siftui.core.word.render import DocxOptions, render_docx


def part(kind: str, *paragraphs: str) -> str:
    return f"<w:{kind} {NS}>{''.join(paragraphs)}</w:{kind}>"


def refs(*items: tuple[str, str, str]) -> str:
    return "".join(f'<w:{k}Reference w:type="{t}" r:id="{i}"/>' for k, t, i in items)


def test_headers_and_footers_of_several_sections() -> None:
    parts = {
        "header1.xml": part("hdr", p("H one")),
        "header2.xml": part("hdr", p("H first")),
        "header3.xml": part("hdr", p("H even")),
        "header4.xml": part("hdr", p("H last")),
        "footer1.xml": part("ftr", tbl(["only a table"])),
        "footer2.xml": part("ftr", p(), p("F two")),
    }
    section1 = refs(
        ("header", "even", "header3"),
        ("header", "first", "header2"),
        ("header", "default", "header1"),
        ("footer", "default", "footer1"),
    )
    section2 = refs(("header", "default", "header1"), ("footer", "first", "footer2"))
    final = refs(("header", "default", "header4"), ("footer", "default", "footer2"))
    body = (
        f"<w:p><w:pPr><w:sectPr>{section1}</w:sectPr></w:pPr><w:r><w:t>s1</w:t></w:r></w:p>"
        f"<w:sectPr>{final}</w:sectPr>"  # the body's own sectPr is the last section
        f"<w:p><w:pPr><w:sectPr>{section2}<w:sectPrChange><w:sectPr>"
        f"{refs(('header', 'default', 'header4'))}</w:sectPr></w:sectPrChange></w:sectPr>"
        "</w:pPr><w:r><w:t>s2</w:t></w:r></w:p>"
    )
    headers = projection(body, "headers", parts=parts).split("\n")
    assert [x[:24].split("  ", 1)[1].rstrip(" ]") for x in headers] == [
        "s1 default",
        "s1 first",
        "s1 even",
        "s3 default",
    ]
    assert [x[25:] for x in headers] == ["H one", "H first", "H even", "H last"]
    footers = projection(body, "footers", parts=parts).split("\n")
    assert footers == [
        "[T1  1×1 @start  s1 default] | only a table |",
        f"[P2#{Para('F two').hash}  s2 first]".ljust(24) + " F two",
    ]


def test_notes_skip_separators_and_number_across_items() -> None:
    foot = notes("footnote", (1, p("one") + p("one more")), (2, tbl(["t"])))
    body = p("a", '<w:r><w:footnoteReference w:id="1"/></w:r>')
    doc = read(body, footnotes=foot)
    story = doc.stories["footnotes"]
    assert [x.text for x in story.paragraphs] == ["one", "one more"]
    assert [x.item for x in story.paragraphs] == ["^1", ""]
    assert story.tables[0].item == "^2" and story.tables[0].after == 2


def test_comments_story_and_title() -> None:
    cmts = comments((4, "Ann", p() + p("body of it")))
    doc = read(p("x"), comments_xml=cmts, title="  The \n  Title ")
    found = render_docx(doc, DocxOptions(scope="comments"))
    assert found.content == f"[P2#{Para('body of it').hash}  C1]".ljust(24) + " body of it"
    assert doc.title == "  The \n  Title "
    long = read(p("word " * 100), title="  The \n  Title ")
    assert render_docx(long, DocxOptions(out_cap=300)).content.startswith("# The Title\n\n")
    untitled = read(p("word " * 100))
    assert render_docx(untitled, DocxOptions(out_cap=300)).content.startswith(
        "# Untitled document\n"
    )
