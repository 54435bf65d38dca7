"""The XML names the reader looks for, as lxml spells them ("{namespace}local")."""

from __future__ import annotations

from typing import Any

# An lxml element (lxml ships no type hints).
Element = Any

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
DC_NS = "http://purl.org/dc/elements/1.1/"

# ISO 29500 Strict documents use other namespace names for the same vocabulary.
STRICT_TO_TRANSITIONAL = (
    (b"http://purl.oclc.org/ooxml/wordprocessingml/main", W_NS.encode()),
    (b"http://purl.oclc.org/ooxml/officeDocument/math", M_NS.encode()),
    (b"http://purl.oclc.org/ooxml/officeDocument/relationships", R_NS.encode()),
)


def w(local: str) -> str:
    return f"{{{W_NS}}}{local}"


VAL = w("val")
ID = w("id")
AUTHOR = w("author")
TYPE = w("type")
R_ID = f"{{{R_NS}}}id"

P = w("p")
R = w("r")
T = w("t")
TBL = w("tbl")
TR = w("tr")
TC = w("tc")
SDT = w("sdt")
SDT_CONTENT = w("sdtContent")
CUSTOM_XML = w("customXml")
PPR = w("pPr")
RPR = w("rPr")
TRPR = w("trPr")
TCPR = w("tcPr")
VMERGE = w("vMerge")
VANISH = w("vanish")
INS = w("ins")
DEL = w("del")
MOVE_TO = w("moveTo")
MOVE_FROM = w("moveFrom")
RUBY = w("ruby")
RUBY_BASE = w("rubyBase")
FLD_CHAR = w("fldChar")
FLD_CHAR_TYPE = w("fldCharType")
SYM = w("sym")
CHAR = w("char")
TXBX_CONTENT = w("txbxContent")
COMMENT_REFERENCE = w("commentReference")
FOOTNOTE_REFERENCE = w("footnoteReference")
ENDNOTE_REFERENCE = w("endnoteReference")
SECT_PR = w("sectPr")
P_STYLE = w("pStyle")
NUM_PR = w("numPr")
NUM_ID = w("numId")
ILVL = w("ilvl")
OUTLINE_LVL = w("outlineLvl")

ALTERNATE_CONTENT = f"{{{MC_NS}}}AlternateContent"
CHOICE = f"{{{MC_NS}}}Choice"
FALLBACK = f"{{{MC_NS}}}Fallback"
M_T = f"{{{M_NS}}}t"
O_MATH = f"{{{M_NS}}}oMath"
O_MATH_PARA = f"{{{M_NS}}}oMathPara"

# One space each, as the contract says; w:noBreakHyphen is "-".
SPACES = frozenset({w("tab"), w("ptab"), w("br"), w("cr")})
NO_BREAK_HYPHEN = w("noBreakHyphen")


def on(element: Element | None) -> bool:
    """An OOXML on/off property (w:vanish, ...): present and not "false"/"0"/"off"."""
    if element is None:
        return False
    return element.get(VAL) not in ("false", "0", "off")


def children(element: Element) -> list[Element]:
    """The element's children, an mc:AlternateContent read as its first mc:Choice."""
    found: list[Element] = []
    for child in element:
        tag = child.tag
        if tag == ALTERNATE_CONTENT:
            choice = child.find(CHOICE)
            if choice is not None:
                found.extend(children(choice))
        elif isinstance(tag, str):
            found.append(child)
    return found
