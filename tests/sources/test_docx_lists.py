"""docs/WORD.md *Headings* and *Lists*: the style chain, outline levels, numbering and counters."""

from __future__ import annotations

from support.docx_build import (
    BASED_ON_NORMAL,
    abstract,
    notes,
    numbering,
    p,
    read,
    style,
    styles,
    tbl,
    texts,
)


def headings(body: str, styles_xml: str) -> list[int]:
    return [para.heading for para in read(body, styles=styles_xml).body.paragraphs]


def outline(level: int) -> str:
    return f'<w:pPr><w:outlineLvl w:val="{level}"/></w:pPr>'


def test_headings_by_outline_level_and_by_name() -> None:
    chain = styles(
        style("Normal", "Normal", default=True),
        style("Base", "heading 4", '<w:basedOn w:val="Normal"/>' + outline(1)),
        style("Child", "my child", '<w:basedOn w:val="Base"/>'),
        style("Named", "HEADING 5", BASED_ON_NORMAL),
        style("Deep", "deep", '<w:basedOn w:val="Named"/>'),
        style("Body", "heading 1", outline(9)),
        style("T", "title"),
        style("Seven", "heading 7"),
    )
    body = (
        p("a", style="Child")  # outlineLvl 1 on its base: H2, not the name's H4
        + p("b", style="Deep")  # by name through basedOn: H5
        + p("c", style="Body")  # outlineLvl 9 decides: not a heading
        + p("d", style="T")
        + p("e", style="Seven")
        + p("f", style="Missing")  # an unknown style: the default paragraph style
        + "<w:p>"
        + outline(0)
        + "<w:r><w:t>g</w:t></w:r></w:p>"
        + '<w:p><w:pPr><w:pStyle w:val="Child"/><w:outlineLvl w:val="7"/></w:pPr>'
        "<w:r><w:t>h</w:t></w:r></w:p>"
    )
    assert headings(body, chain) == [2, 5, 0, 1, 0, 0, 1, 0]


def test_style_cycle_and_chain_limit() -> None:
    cycle = styles(
        style("A", "a", '<w:basedOn w:val="B"/>'),
        style("B", "b", '<w:basedOn w:val="A"/>'),
    )
    assert headings(p("x", style="A"), cycle) == [0]
    # 21 styles: heading 2 on the 21st is beyond the 20-style chain
    long_chain = [style(f"S{i}", f"s{i}", f'<w:basedOn w:val="S{i + 1}"/>') for i in range(20)]
    deep = styles(*long_chain, style("S20", "heading 2"))
    assert headings(p("x", style="S0"), deep) == [0]
    shorter = styles(*long_chain[1:], style("S20", "heading 2"))
    assert headings(p("x", style="S1"), shorter) == [2]


def lists(*abstracts: str, nums: dict[int, str]) -> str:
    return numbering(*abstracts, nums=nums)


def use(aid: int, extra: str = "") -> str:
    return f'<w:abstractNumId w:val="{aid}"/>{extra}'


def test_formats_nested_levels_and_restart_of_deeper_levels() -> None:
    num = lists(
        abstract(
            1,
            (0, "upperRoman", "%1.", 1),
            (1, "lowerLetter", "%1.%2)", 1),
            (2, "decimalZero", "[%3]", 9),
            (3, "lowerRoman", "%4", 1),
            (4, "upperLetter", "%5", 26),
        ),
        nums={1: use(1)},
    )
    body = (
        p("one", num=(1, 0))
        + p("a", num=(1, 1))
        + p("b", num=(1, 1))
        + p("zero", num=(1, 2))
        + p("zero2", num=(1, 2))
        + p("roman", num=(1, 3))
        + p("letters", num=(1, 4))
        + p("letters2", num=(1, 4))
        + p("two", num=(1, 0))
        + p("a again", num=(1, 1))
    )
    assert texts(body, numbering_xml=num) == [
        "I. one",
        "I.a) a",
        "I.b) b",
        "[09] zero",
        "[10] zero2",
        "i roman",
        "Z letters",
        "AA letters2",
        "II. two",
        "II.a) a again",
    ]


def test_overrides_restarts_defaults_bullets_none() -> None:
    num = lists(
        abstract(1, (0, "decimal", "%1.", 1)),
        abstract(2, '<w:lvl w:ilvl="0"/>'),  # numFmt, lvlText and start by default
        abstract(3, (0, "bullet", "\uf0b7", 1), (1, "none", "", 1)),
        nums={
            1: use(1),
            # the same abstractNum restarted at 5 by a second w:num
            2: use(1, '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride>'),
            3: use(2),
            4: use(3),
            # a w:lvlOverride with its own w:lvl replaces the definition of that level
            5: use(
                1,
                '<w:lvlOverride w:ilvl="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
                '<w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%1)"/></w:lvl></w:lvlOverride>',
            ),
        },
    )
    body = (
        p("a", num=(1, 0))
        + p("b", num=(1, 0))
        + p("five", num=(2, 0))  # first use of num 2 at level 0: its startOverride
        + p("six", num=(2, 0))  # then it counts on
        + p("seven", num=(1, 0))  # num 1 shares the counter of abstractNum 1
        + p("default", num=(3, 0))
        + p("bullet", num=(4, 0))
        + p("none", num=(4, 1))
        + p("letter", num=(5, 0))
        + p("no list", num=(0, 0))
        + p("unknown", num=(42, 0))
    )
    doc = read(body, numbering_xml=num)
    assert [x.text for x in doc.body.paragraphs] == [
        "1. a",
        "2. b",
        "5. five",
        "6. six",
        "7. seven",
        "1. default",
        "• bullet",
        "none",
        "(h) letter",
        "no list",
        "unknown",
    ]
    assert [x.list for x in doc.body.paragraphs][5:] == ["ol L1", "ul L1", "ol L2", "ol L1", "", ""]


def test_empty_list_paragraphs_count_and_headings_keep_markers() -> None:
    num = lists(abstract(1, (0, "decimal", "%1.", 1)), nums={1: use(1)})
    body = p("a", num=(1, 0)) + p(num=(1, 0)) + p("c", num=(1, 0), style="Heading1")
    doc = read(body, numbering_xml=num)
    assert [x.text for x in doc.body.paragraphs] == ["1. a", "", "3. c"]
    assert doc.body.paragraphs[2].prefix(3) == f"[P3#{doc.body.paragraphs[2].hash}  H1]"


def test_numbering_from_style_and_num_style_link() -> None:
    num = lists(
        abstract(1, (0, "upperLetter", "%1.", 1)),
        abstract(2, link="ListStyle"),
        nums={1: use(1), 2: use(2)},
    )
    chain = styles(
        style("Normal", "Normal", default=True),
        style("Listed", "listed", '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr>'),
        style(
            "Deeper",
            "deeper",
            '<w:basedOn w:val="Listed"/><w:pPr><w:numPr><w:ilvl w:val="1"/></w:numPr></w:pPr>',
        ),
        '<w:style w:type="numbering" w:styleId="ListStyle"><w:name w:val="ls"/>'
        '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>',
    )
    body = (
        p("a", style="Listed")
        + p("b", style="Deeper")
        + p("linked", num=(2, 0))  # abstractNum 2 takes abstractNum 1's levels and counters
        + '<w:p><w:pPr><w:pStyle w:val="Listed"/><w:numPr><w:numId w:val="0"/></w:numPr>'
        "</w:pPr><w:r><w:t>off</w:t></w:r></w:p>"
    )
    found = read(body, numbering_xml=num, styles=chain).body.paragraphs
    assert [x.text for x in found] == ["A. a", "1. b", "B. linked", "off"]
    assert found[1].list == "ol L2"


def test_counters_per_story_and_cells_share_text_boxes_do_not() -> None:
    num = lists(abstract(1, (0, "decimal", "%1.", 1)), nums={1: use(1)})
    box = (
        "<w:r><w:pict><v:shape><v:textbox><w:txbxContent>"
        + p("boxed", num=(1, 0))
        + "</w:txbxContent></v:textbox></v:shape></w:pict></w:r>"
    )
    body = (
        p("a", num=(1, 0))
        + tbl([p("cell", num=(1, 0))])
        + p("b", box, num=(1, 0))
        + p("ref", '<w:r><w:footnoteReference w:id="1"/></w:r>')
    )
    foot = notes("footnote", (1, p("note", num=(1, 0))))
    doc = read(body, numbering_xml=num, footnotes=foot)
    assert [x.text for x in doc.body.paragraphs] == ["1. a", "3. b [textbox: boxed]", "ref[^1]"]
    assert doc.body.tables[0].rows == ("| 2. cell |",)
    assert doc.stories["footnotes"].paragraphs[0].text == "1. note"
