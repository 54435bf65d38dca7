"""Word documents the tests write themselves: raw OOXML parts in a ZIP package.

python-docx writes the ordinary parts (see test_docx_python_docx.py); this writes
what python-docx cannot express (numbering overrides, revisions, fields, notes,
text boxes, several sections) exactly as the test states it.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from siftui.core.word.model import DocxDoc
from siftui.core.word.render import full_projection
from siftui.sources.word.read import read_docx
from support.same_bytes import zip_entry

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = (
    f'xmlns:w="{W}" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:v="urn:schemas-microsoft-com:vml"'
)
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
</Types>"""
ROOT_RELS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/>
</Relationships>"""


def style(style_id: str, name: str, extra: str = "", *, default: bool = False) -> str:
    """A paragraph style (raw XML); ``extra`` goes inside it (basedOn, pPr)."""
    flag = ' w:default="1"' if default else ""
    return (
        f'<w:style w:type="paragraph"{flag} w:styleId="{style_id}">'
        f'<w:name w:val="{name}"/>{extra}</w:style>'
    )


def styles(*items: str) -> str:
    return f"<w:styles {NS}>{''.join(items)}</w:styles>"


BASED_ON_NORMAL = '<w:basedOn w:val="Normal"/>'
STYLES = styles(
    style("Normal", "Normal", default=True),
    style("Title", "Title", BASED_ON_NORMAL),
    style("Heading1", "heading 1", BASED_ON_NORMAL),
    style("Heading2", "heading 2", BASED_ON_NORMAL),
)


def t(text: str) -> str:
    """A run holding ``text``."""
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def p(*content: str, style: str | None = None, num: tuple[int, int] | None = None) -> str:
    """A paragraph of ``content`` (raw XML; plain strings are wrapped in runs)."""
    props = ""
    if style:
        props += f'<w:pStyle w:val="{style}"/>'
    if num:
        props += f'<w:numPr><w:ilvl w:val="{num[1]}"/><w:numId w:val="{num[0]}"/></w:numPr>'
    inner = "".join(c if c.startswith("<") else t(c) for c in content)
    return f"<w:p>{f'<w:pPr>{props}</w:pPr>' if props else ''}{inner}</w:p>"


def tbl(*rows: list[str]) -> str:
    """A table; each cell is raw XML of paragraphs or a plain text (one paragraph)."""
    out = []
    for row in rows:
        cells = "".join(f"<w:tc>{c if c.startswith('<') else p(c)}</w:tc>" for c in row)
        out.append(f"<w:tr>{cells}</w:tr>")
    return f"<w:tbl>{''.join(out)}</w:tbl>"


def numbering(*abstracts: str, nums: dict[int, str]) -> str:
    """numbering.xml from abstractNum XML and numId -> inner XML of its w:num."""
    num_xml = "".join(f'<w:num w:numId="{k}">{v}</w:num>' for k, v in nums.items())
    return f"<w:numbering {NS}>{''.join(abstracts)}{num_xml}</w:numbering>"


def abstract(aid: int, *levels: tuple[int, str, str, int] | str, link: str = "") -> str:
    """An abstractNum: levels as (ilvl, numFmt, lvlText, start) or raw w:lvl XML."""
    out = [f'<w:abstractNum w:abstractNumId="{aid}">']
    if link:
        out.append(f'<w:numStyleLink w:val="{link}"/>')
    for level in levels:
        if isinstance(level, str):
            out.append(level)
        else:
            ilvl, fmt, text, start = level
            out.append(
                f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
                f'<w:lvlText w:val="{text}"/></w:lvl>'
            )
    out.append("</w:abstractNum>")
    return "".join(out)


def notes(kind: str, *items: tuple[int, str]) -> str:
    """footnotes.xml or endnotes.xml (kind "footnote"/"endnote") with separators first."""
    seps = (
        f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
        f'<w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r>'
        f"<w:continuationSeparator/></w:r></w:p></w:{kind}>"
    )
    body = "".join(f'<w:{kind} w:id="{i}">{xml}</w:{kind}>' for i, xml in items)
    return f"<w:{kind}s {NS}>{seps}{body}</w:{kind}s>"


def comments(*items: tuple[int, str, str]) -> str:
    """comments.xml from (id, author, inner XML)."""
    body = "".join(f'<w:comment w:id="{i}" w:author="{a}">{xml}</w:comment>' for i, a, xml in items)
    return f"<w:comments {NS}>{body}</w:comments>"


def core(title: str) -> str:
    return (
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
        'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"<dc:title>{title}</dc:title></cp:coreProperties>"
    )


def docx_bytes(
    body: str,
    *,
    styles: str | None = STYLES,
    numbering_xml: str | None = None,
    footnotes: str | None = None,
    endnotes: str | None = None,
    comments_xml: str | None = None,
    parts: dict[str, str] | None = None,
    title: str | None = None,
    raw_document: str | None = None,
) -> bytes:
    """A .docx package. ``parts``: extra word/ parts (name -> XML), related by their
    name's stem as rId (e.g. {"header1.xml": ...} is rId "header1", type header)."""
    rels: list[tuple[str, str, str]] = []
    files: dict[str, str] = {}
    for name, xml, kind in (
        ("styles.xml", styles, "styles"),
        ("numbering.xml", numbering_xml, "numbering"),
        ("footnotes.xml", footnotes, "footnotes"),
        ("endnotes.xml", endnotes, "endnotes"),
        ("comments.xml", comments_xml, "comments"),
    ):
        if xml is not None:
            files[f"word/{name}"] = xml
            rels.append((kind, kind, name))
    for name, xml in (parts or {}).items():
        stem = name.rsplit(".", 1)[0]
        kind = "header" if stem.startswith("header") else "footer"
        files[f"word/{name}"] = xml
        rels.append((stem, kind, name))
    rel_xml = "".join(f'<Relationship Id="{i}" Type="{REL}/{k}" Target="{n}"/>' for i, k, n in rels)
    files["word/_rels/document.xml.rels"] = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f"{rel_xml}</Relationships>"
    )
    files["word/document.xml"] = raw_document or (
        f"<w:document {NS}><w:body>{body}</w:body></w:document>"
    )
    files["[Content_Types].xml"] = CONTENT_TYPES
    files["_rels/.rels"] = ROOT_RELS
    if title is not None:
        files["docProps/core.xml"] = core(title)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        for name, text in files.items():
            package.writestr(zip_entry(name), text, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def write_docx(path: Path, body: str, **parts: object) -> Path:
    path.write_bytes(docx_bytes(body, **parts))  # type: ignore[arg-type]
    return path


def read(body: str, **parts: object) -> DocxDoc:
    """The model of a document built from ``body`` and ``parts`` (see docx_bytes)."""
    return read_docx(io.BytesIO(docx_bytes(body, **parts)))  # type: ignore[arg-type]


def texts(body: str, scope: str = "body", **parts: object) -> list[str]:
    """The texts of a story's paragraphs, empty ones included."""
    return [para.text for para in read(body, **parts).stories[scope].paragraphs]


def projection(body: str, scope: str = "body", **parts: object) -> str:
    return full_projection(read(body, **parts), scope)
