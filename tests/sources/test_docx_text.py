"""docs/WORD.md *A paragraph's text*, on documents written as raw OOXML."""

from __future__ import annotations

from support.docx_build import comments, notes, p, projection, t, tbl, texts

from siftui.core.word.model import Para


def r(inner: str, props: str = "") -> str:
    return f"<w:r>{f'<w:rPr>{props}</w:rPr>' if props else ''}{inner}</w:r>"


def test_worked_example_from_ooxml() -> None:
    from support.docx_build import abstract, numbering

    num = numbering(
        abstract(1, (0, "decimal", "%1.", 1)),
        abstract(2, (0, "bullet", "o", 1), (1, "bullet", "o", 1)),
        nums={1: '<w:abstractNumId w:val="1"/>', 2: '<w:abstractNumId w:val="2"/>'},
    )
    body = "".join(
        [
            p("Master Services Agreement", style="Title"),
            p("This Agreement is entered into as of {{EffectiveDate}}."),
            p(),
            p("Definitions", style="Heading2"),
            tbl(["Term", "Value"], ["Fee", "10 | 20"]),
            p('"Fee" means the amount in the order form.', r('<w:commentReference w:id="0"/>')),
            p("First obligation", num=(1, 0)),
            p(
                "Second",
                '<w:ins w:id="5" w:author="Jane"><w:r><w:t xml:space="preserve"> obligation'
                "</w:t></w:r></w:ins>",
                num=(1, 0),
            ),
            p("in writing", num=(2, 1)),
        ]
    )
    found = projection(
        body, numbering_xml=num, comments_xml=comments((0, "J. Doe", p("Check this.")))
    )
    assert found == (
        "[P1#515a  H1]            Master Services Agreement\n"
        "[P2#ca49]                This Agreement is entered into as of {{EffectiveDate}}.\n"
        "[P4#8775  H2]            Definitions\n"
        "[T1  2×2 @after:P4]      | Term | Value |\n"
        "                         | Fee | 10 \\| 20 |\n"
        '[P5#3f00]                "Fee" means the amount in the order form. '
        "[comment:C1 by J. Doe]\n"
        "[P6#ac86  List:ol L1]    1. First obligation\n"
        "[P7#9793  List:ol L1]    2. Second obligation [ins by Jane]\n"
        "[P8#c8a3  List:ul L2]    • in writing"
    )


def test_run_content() -> None:
    body = p(
        "a",
        r("<w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t><w:cr/><w:t>d</w:t><w:ptab/><w:t>e</w:t>"),
        r("<w:noBreakHyphen/><w:t>f</w:t><w:softHyphen/><w:t>g</w:t>"),
        r('<w:sym w:font="Symbol" w:char="03A9"/><w:sym w:font="Wingdings" w:char="F0E0"/>'),
        r('<w:sym w:char="zz"/><w:lastRenderedPageBreak/><w:t>h</w:t>'),
    )
    assert texts(body) == ["a b c d e-fgΩh"]


def test_whitespace_becomes_space_then_stripped_placeholders_verbatim() -> None:
    body = p(r("<w:t xml:space='preserve'>  x\ty\u000bz {{Name}} </w:t>")) + p(r("<w:tab/>"))
    # \v is not allowed in XML 1.0; a tab inside w:t is
    assert texts(body.replace("\u000b", "\n")) == ["x y z {{Name}}", ""]


def test_hidden_runs() -> None:
    body = p(
        "shown",
        r("<w:t> hidden</w:t>", "<w:vanish/>"),
        r("<w:t> too</w:t>", '<w:vanish w:val="0"/>'),
    )
    assert texts(body) == ["shown too"]
    deleted_hidden = p(
        "a",
        '<w:del w:author="X"><w:r><w:rPr><w:vanish/></w:rPr><w:delText>b</w:delText></w:r></w:del>',
    )
    assert texts(deleted_hidden) == ["a [del by X]"]


def test_complex_and_simple_fields() -> None:
    begin = r('<w:fldChar w:fldCharType="begin"/>')
    instr = r("<w:instrText> PAGE </w:instrText>")
    sep = r('<w:fldChar w:fldCharType="separate"/>')
    end = r('<w:fldChar w:fldCharType="end"/>')
    body = p(
        "page ",
        begin,
        instr,
        sep,
        "7",
        end,
        " of ",
        '<w:fldSimple w:instr="NUMPAGES">' + t("9") + "</w:fldSimple>",
    )
    assert texts(body) == ["page 7 of 9"]
    nested = p(
        begin, instr, begin, r("<w:instrText>X</w:instrText>"), sep, "inner", end, sep, "outer", end
    )
    assert texts(nested) == ["outer"]
    # a field spanning paragraphs leaves each part of its result where it is
    spanning = p("a", begin, instr, sep, "res1") + p("res2", end, "b") + p("c")
    assert texts(spanning) == ["ares1", "res2b", "c"]
    # instruction spanning paragraphs shows nothing until its separator
    instr_span = p("x", begin, instr) + p(r("<w:instrText>more</w:instrText>"), sep, "shown", end)
    assert texts(instr_span) == ["x", "shown"]


def test_ruby_inside_a_run_gives_its_base_as_word_writes_it() -> None:
    ruby = "<w:ruby><w:rubyPr/><w:rt>" + t("かん") + "</w:rt><w:rubyBase>" + t("漢")
    ruby += "</w:rubyBase></w:ruby>"
    hidden = r(ruby, "<w:vanish/>")
    assert texts(p("Before ", r(ruby), " after") + p(r(ruby)) + p("a", hidden, "b")) == [
        "Before 漢 after",
        "漢",
        "ab",
    ]


def test_math_and_ruby_and_wrappers() -> None:
    math = (
        "<m:oMathPara><m:oMath><m:r><m:t>x</m:t></m:r><m:sSup><m:e><m:r><m:t>y</m:t></m:r></m:e>"
        "<m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath></m:oMathPara>"
    )
    ruby = (
        "<w:ruby><w:rt>"
        + t("かんじ")
        + "</w:rt><w:rubyBase>"
        + t("漢字")
        + "</w:rubyBase></w:ruby>"
    )
    wrappers = (
        '<w:hyperlink r:id="x">' + t("link") + "</w:hyperlink>"
        '<w:smartTag w:element="City">' + t(" city") + "</w:smartTag>"
        '<w:customXml w:element="c">' + t(" cx") + "</w:customXml>"
        '<w:dir w:val="rtl">' + t(" dir") + "</w:dir>"
        '<w:bdo w:val="rtl">' + t(" bdo") + "</w:bdo>"
        "<w:sdt><w:sdtPr><w:alias w:val='no'/></w:sdtPr><w:sdtContent>"
        + t(" sdt")
        + "</w:sdtContent></w:sdt>"
    )
    assert texts(p("m: ", math) + p(ruby) + p(wrappers)) == [
        "m: xy2",
        "漢字",
        "link city cx dir bdo sdt",
    ]


def test_revisions() -> None:
    ins = '<w:ins w:id="1" w:author="Ann">' + t("new") + "</w:ins>"
    dele = '<w:del w:id="2" w:author="Bob"><w:r><w:delText>old</w:delText></w:r></w:del>'
    move_to = '<w:moveTo w:id="3" w:author="Cy">' + t("moved") + "</w:moveTo>"
    move_from = '<w:moveFrom w:id="4">' + t("gone") + "</w:moveFrom>"
    body = (
        p("foo", dele, "bar")
        + p("x ", ins)
        + p(move_to, " then", move_from)
        + p(dele)
        + p('<w:pPr><w:rPr><w:ins w:id="9" w:author="Z"/></w:rPr></w:pPr>', "mark")
        + p(r("<w:t>styled</w:t>", '<w:rPrChange w:author="Q"><w:rPr/></w:rPrChange>'))
    )
    assert texts(body) == [
        "foo [del by Bob]bar",
        "x new [ins by Ann]",
        "moved [ins by Cy] then [del by unknown]",
        "[del by Bob]",
        "mark",
        "styled",
    ]


def test_a_deletion_then_an_insertion_keeps_the_contract_s_bytes() -> None:
    # pandoc's track_changes_scrubbed_metadata.docx: "Here is a " then a deletion,
    # then an insertion of "test", then " document". DOCX.md's marker rule (a
    # deletion's marker in its place with nothing after it, an insertion's after
    # its text) writes the inserted word right after the deletion's marker, so it
    # reads as the deleted one: the ambiguity docx-decisions.md records. The bytes
    # stay the contract's until DOCX.md changes.
    dele = '<w:del w:id="1" w:author="Author"><w:r><w:delText>an example</w:delText></w:r></w:del>'
    ins = '<w:ins w:id="2" w:author="Author">' + t("test") + "</w:ins>"
    body = p(t("Here is a "), dele, ins, t(" document"))
    assert texts(body) == ["Here is a [del by Author]test [ins by Author] document"]


def test_notes_references_numbering() -> None:
    foot = notes("footnote", (5, p("five")), (2, p("two")), (9, p("never referenced")))
    end = notes("endnote", (1, p("end")))
    body = (
        p("a", r('<w:footnoteReference w:id="2"/>'), " b", r('<w:footnoteReference w:id="5"/>'))
        + tbl([p("cell", r('<w:footnoteReference w:id="2"/>'))])
        + p("c", r('<w:endnoteReference w:id="1"/>'), r('<w:footnoteReference w:id="77"/>'))
    )
    doc_texts = texts(body, footnotes=foot, endnotes=end)
    assert doc_texts == ["a[^1] b[^2]", "c[^e1][^?]"]
    found = projection(body, "footnotes", footnotes=foot, endnotes=end).split("\n")
    assert found == [
        f"[P1#{Para('five').hash}  ^2]".ljust(24) + " five",
        f"[P2#{Para('two').hash}  ^1]".ljust(24) + " two",
        f"[P3#{Para('never referenced').hash}  ^3]".ljust(24) + " never referenced",
    ]
    assert projection(body, "endnotes", footnotes=foot, endnotes=end).endswith(
        "  ^e1]           end"
    )


def test_comment_numbers_and_markers() -> None:
    ref = r('<w:commentReference w:id="{}"/>')
    cmts = comments(
        (3, "A", p("three")), (1, "", p("one")), (7, "C", p("seven")), (2, "B", p("two"))
    )
    body = (
        p("x", ref.format(7))
        + p("y", r('<w:commentReference w:id="3"/>', "<w:vanish/>"))
        + p("z ", ref.format(1), ref.format(99))
    )
    assert texts(body, comments_xml=cmts) == [
        "x [comment:C1 by C]",
        "y",
        "z [comment:C3 by unknown] [comment:C? by unknown]",
    ]
    found = projection(body, "comments", comments_xml=cmts).split("\n")
    # in the order of the part; C4 is unreferenced (by w:id after the referenced ones)
    assert [x.split("]")[0].split("  ")[1] for x in found] == ["C2", "C3", "C1", "C4"]


def test_text_boxes() -> None:
    box = (
        "<w:txbxContent>" + p("inside") + p() + p("second") + tbl(["c1", "c2"]) + "</w:txbxContent>"
    )
    drawing = (
        "<mc:AlternateContent><mc:Choice Requires='wps'><w:drawing><wps:wsp><wps:txbx>"
        + box
        + "</wps:txbx></wps:wsp></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>"
        + box
        + "</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent>"
    )
    body = p("Lead", r(drawing), " tail") + p(
        r(
            "<w:pict><v:shape><v:textbox><w:txbxContent>"
            + p()
            + "</w:txbxContent></v:textbox></v:shape></w:pict>"
        )
    )
    assert texts(body) == ["Lead tail [textbox: inside / second / c1 / c2]", ""]


def test_alternate_content_at_block_level_reads_the_first_choice() -> None:
    body = (
        "<mc:AlternateContent><mc:Choice Requires='w14'>" + p("choice") + "</mc:Choice>"
        "<mc:Fallback>" + p("fallback") + "</mc:Fallback></mc:AlternateContent>"
    )
    assert texts(body) == ["choice"]


def test_block_descent_into_sdt_and_custom_xml_not_tables() -> None:
    body = (
        "<w:sdt><w:sdtContent>" + p("one") + tbl(["cell"]) + "</w:sdtContent></w:sdt>"
        '<w:customXml w:element="x">' + p("two") + "</w:customXml>" + p("three")
    )
    found = projection(body).split("\n")
    assert [x[25:] for x in found] == ["one", "| cell |", "two", "three"]
    assert found[1].startswith("[T1  1×1 @after:P1]")


def test_tables_merges_nesting_deleted_rows_and_sdt_rows() -> None:
    merged = '<w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr>' + p("top") + "</w:tc>"
    cont = "<w:tc><w:tcPr><w:vMerge/></w:tcPr>" + p("hidden") + "</w:tc>"
    nested = "<w:tc>" + p("outer") + tbl(["n1", "n2"], ["", "n|4"]) + p() + "</w:tc>"
    deleted = '<w:tr><w:trPr><w:del w:author="X"/></w:trPr><w:tc>' + p("gone") + "</w:tc></w:tr>"
    sdt_row = (
        "<w:sdt><w:sdtContent><w:tr><w:tc>"
        + p("s")
        + "</w:tc><w:sdt><w:sdtContent><w:tc>"
        + p("t")
        + "</w:tc></w:sdtContent></w:sdt><w:tc>"
        + p("u")
        + "</w:tc></w:tr></w:sdtContent></w:sdt>"
    )
    second = f"<w:tr>{cont}<w:tc>{p('a', ' | b')}</w:tc></w:tr>"
    table = f"<w:tbl><w:tr>{merged}{nested}</w:tr>{second}{deleted}{sdt_row}</w:tbl>"
    found = projection(table).split("\n")
    assert found == [
        "[T1  3×3 @start]         | top | outer n1 n2 n\\|4 |",
        "                         |  | a \\| b |",
        "                         | s | t | u |",
    ]
    assert projection("<w:tbl></w:tbl>") == "[T1  0×0 @start]"
