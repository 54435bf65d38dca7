# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""E17 and E18 served by a host: a page's form inspected (the image and the list of one
snapshot), filled by label, read back, saved once the person approves, and the saved
file read by MuPDF, pypdf and poppler; each refusal of E18 once, with nothing filled;
inspections kept across a fill of another page and out of date after their own.

The corpus forms (qpdf's field-types.pdf and fields-two-pages.pdf, pdfminer.six's
AcroForm_TEST.pdf, pdf.js's resetform.pdf) are copied into the test's folder, since a
save writes over the file; the other forms are made by support.forms.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pymupdf
import pypdf
import pytest
from support.edit_host import ApprovingReader, call
from support.forms import CORPUS_EDIT, make_form_pdf, make_xfa_only_pdf
from support.http_host import client, result_lines, serving

from siftui.serve.access import Roots
from siftui.serve.edit.state import EditHost
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import ImageBlock, TextBlock
from siftui.sources.edit.drafts import DraftStore

FIELD_TYPES_FILL = [
    {"label": "F1", "value": "hello"},  # text
    {"label": "F4", "value": "3"},  # radio r1 (its third button)
    {"label": "F5", "value": True},  # checkbox1
    {"label": "F6", "value": False},  # checkbox2
    {"label": "F9", "value": ""},  # radio r2 cleared
    {"label": "F11", "value": "pommes ÷ frites"},  # text with non-ASCII
    {"label": "F12", "value": "any text"},  # an editable combobox takes any text
    {"label": "F13", "value": ["seven"]},  # listbox
    {"label": "F14", "value": "elephant"},  # a fixed combobox: one of its options
    {"label": "F15", "value": "gamma"},  # editable combobox, an option
]
FIELD_TYPES_READ = {
    "text": "hello",
    "r1": "3",
    "checkbox1": True,
    "checkbox2": False,
    "r2": "",
    "text2": "pommes ÷ frites",
    "combolist1": "any text",
    "list1": ["seven"],
    "drop1": "elephant",
    "combodrop1": "gamma",
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("field-types.pdf", "fields-two-pages.pdf", "AcroForm_TEST.pdf", "resetform.pdf"):
        shutil.copyfile(CORPUS_EDIT / name, tmp_path / name)
    make_form_pdf(tmp_path / "made.pdf")
    make_xfa_only_pdf(tmp_path / "xfa.pdf")
    return tmp_path


@pytest.fixture
def host(folder: Path) -> Iterator[ToolHost]:
    edit = EditHost(drafts=DraftStore(folder / "drafts"))
    served = ToolHost(Roots([folder]), families={"evidence", "edit"}, edit=edit)
    yield served
    served.shutdown()


def inspect(host: ToolHost, page: int, document: str = "doc-1", values: bool = True) -> Any:
    arguments: dict[str, Any] = {"documentId": document, "page": page}
    if values:
        arguments["includeValues"] = True
    return call(host, "pdf_form_inspect", arguments)


def fill(host: ToolHost, inspection: str, revision: int, fields: list[dict[str, Any]]) -> Any:
    arguments = {"inspectionId": inspection, "expectedRevision": revision, "fields": fields}
    return call(host, "pdf_form_fill", arguments)


def values_of(inspected: dict[str, Any]) -> dict[str, Any]:
    return {field["name"]: field["value"] for field in inspected["fields"]}


def saved_values_pypdf(path: Path) -> dict[str, Any]:
    fields = pypdf.PdfReader(path).get_fields() or {}
    return {name: field.get("/V") for name, field in fields.items()}


def test_over_http_every_field_type_is_inspected_filled_read_back_and_saved(folder: Path) -> None:
    answers: dict[str, list[str]] = {}

    async def agent() -> None:
        async with client(served) as session:
            await session.call_tool("pdf_open", {"path": "field-types.pdf"})
            got = await session.call_tool(
                "pdf_form_inspect", {"documentId": "doc-1", "page": 1, "includeValues": True}
            )
            answers["inspect"] = result_lines(got)
            arguments = {
                "inspectionId": "insp-1",
                "expectedRevision": 0,
                "fields": FIELD_TYPES_FILL,
            }
            answers["fill"] = result_lines(await session.call_tool("pdf_form_fill", arguments))
            save = {"documentId": "doc-1", "expectedRevision": 1}
            answers["save"] = result_lines(await session.call_tool("pdf_save", save))

    with serving(
        folder, {"evidence", "edit"}, edit=EditHost(drafts=DraftStore(folder / "d"))
    ) as served:
        served.host.settings.edit.attach(ApprovingReader())
        anyio.run(agent)
    image, text = answers["inspect"]
    assert image.startswith("image: 816x1056 png ")  # 96 dpi of a Letter page
    inspected = json.loads(text)
    assert list(inspected) == ["inspectionId", "documentId", "revision", "page", "fields"]
    assert [field["label"] for field in inspected["fields"]] == [f"F{n}" for n in range(1, 16)]
    assert [field["type"] for field in inspected["fields"]] == (
        ["text"] + ["radio"] * 3 + ["checkbox"] * 3 + ["radio"] * 3 + ["text"]
        + ["combobox", "listbox", "combobox", "combobox"]
    )  # fmt: skip
    assert list(inspected["fields"][12]) == [
        "label", "name", "type", "valueType", "options", "optionLabels", "required",
        "maxLength", "value",
    ]  # fmt: skip
    filled = json.loads(answers["fill"][0])
    assert filled["revision"] == 1 and filled["page"] == 1
    assert {field["name"]: field["value"] for field in filled["fields"]} == FIELD_TYPES_READ
    assert json.loads(answers["save"][0])["saved"] is True

    saved = folder / "field-types.pdf"
    with pymupdf.open(saved) as document:
        read = {widget.field_name: widget for widget in document[0].widgets()}
        assert read["text"].field_value == "hello"
        assert read["text2"].field_value == "pommes ÷ frites"
        assert read["drop1"].field_value == "elephant"
        assert read["checkbox1"].field_value == "Yes" and read["checkbox2"].field_value == "Off"
    pypdf_values = saved_values_pypdf(saved)
    assert pypdf_values["text"] == "hello" and pypdf_values["r1"] == "/3"
    assert pypdf_values["checkbox1"] == "/Yes" and pypdf_values["r2"] == "/Off"
    assert pypdf_values["list1"] == "seven" and pypdf_values["combodrop1"] == "gamma"
    info = subprocess.run(["pdfinfo", str(saved)], capture_output=True, text=True, check=True)
    facts = dict(line.split(":", 1) for line in info.stdout.splitlines() if ":" in line)
    assert facts["Pages"].strip() == "1" and facts["Form"].strip() == "AcroForm"
    shown = subprocess.run(
        ["pdftotext", "-layout", str(saved), "-"], capture_output=True, text=True, check=True
    ).stdout
    for value in ("hello", "pommes ÷ frites", "elephant", "gamma", "any text"):
        assert value in shown, value


def test_a_form_on_two_pages_is_filled_page_by_page_and_saved(host: ToolHost, folder: Path) -> None:
    host.settings.edit.attach(ApprovingReader())
    call(host, "pdf_open", {"path": "fields-two-pages.pdf"})
    first, second = inspect(host, 1), inspect(host, 2)
    assert [field["name"] for field in first["fields"]] == ["Text Box 1", "Text Box 2"] + ["r1"] * 3
    assert len(second["fields"]) == 15
    page_two = fill(host, "insp-2", 0, [
        {"label": "F1", "value": "xyz"},
        {"label": "F2", "value": "1"},
        {"label": "F7", "value": True},
        {"label": "F13", "value": ["five", "10÷"]},
    ])  # fmt: skip
    assert page_two.startswith("error: F13: one option at most")
    page_two = fill(host, "insp-2", 0, [
        {"label": "F1", "value": "xyz"},
        {"label": "F2", "value": "1"},
        {"label": "F7", "value": True},
        {"label": "F13", "value": ["10÷"]},
    ])  # fmt: skip
    assert [field["value"] for field in page_two["fields"]] == ["xyz", "1", True, ["10÷"]]
    # The inspection of page 1 is kept across a fill of page 2 ...
    page_one = fill(host, "insp-1", 1, [{"label": "F1", "value": "first"}])
    assert page_one["revision"] == 2 and page_one["fields"][0]["value"] == "first"
    # ... and out of date after a fill of its own page.
    assert fill(host, "insp-1", 2, [{"label": "F2", "value": "x"}]) == (
        "error: insp-1 is out of date: inspect page 1 again"
    )
    assert values_of(inspect(host, 2))["text"] == "xyz"
    saved = call(host, "pdf_save", {"documentId": "doc-1", "expectedRevision": 2})
    assert saved["saved"] is True
    values = saved_values_pypdf(folder / "fields-two-pages.pdf")
    assert values["Text Box 1"] == "first" and values["text"] == "xyz"
    assert values["r3"] == "/1" and values["checkbox3"] == "/Yes" and values["list1"] == "10÷"
    shown = subprocess.run(
        ["pdftotext", str(folder / "fields-two-pages.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "first" in shown and "xyz" in shown  # no NeedAppearances here: our appearances


def test_each_refusal_of_a_fill_fills_nothing(host: ToolHost) -> None:
    call(host, "pdf_open", {"path": "field-types.pdf"})
    inspect(host, 1)
    refusals: dict[str, tuple[list[dict[str, Any]], str]] = {
        "unknown label": (
            [{"label": "F16", "value": "x"}],
            'unknown label "F16" (insp-1 has F1-F15)',
        ),
        "text type": ([{"label": "F1", "value": 3}], "F1 is a text: value must be a string"),
        "checkbox type": (
            [{"label": "F5", "value": "Yes"}],
            "F5 is a checkbox: value must be true or false",
        ),
        "listbox type": (
            [{"label": "F13", "value": "six"}],
            "F13 is a listbox: value must be a list of strings",
        ),
        "radio option": (
            [{"label": "F2", "value": "4"}],
            'F2: "4" is not an option ("1", "2", "3")',
        ),
        "combobox option": (
            [{"label": "F14", "value": "eleven"}],
            'F14: "eleven" is not an option ("nine", "ten", "elephant", "twelve")',
        ),
        "listbox option": (
            [{"label": "F13", "value": ["nine"]}],
            'F13: "nine" is not an option ("five", "six", "seven", "eight")',
        ),
        "twice": (
            [{"label": "F1", "value": "a"}, {"label": "F1", "value": "b"}],
            "F1 is given twice",
        ),
        "one field": (
            [{"label": "F8", "value": "1"}, {"label": "F10", "value": "3"}],
            'F8 and F10 are one field "r2": give it once',
        ),
        "unknown key": (
            [{"label": "F1", "text": "a"}],
            'unknown argument "fields[1].text" (fields[1] takes label, value)',
        ),
        "no fields": ([], 'argument "fields" must hold 1-200 items'),
    }
    for why, (fields, message) in refusals.items():
        # A good field first: all or nothing.
        given = [{"label": "F11", "value": "kept out"}, *fields] if fields else fields
        got = fill(host, "insp-1", 0, given)
        assert got == f"error: {message}".replace(
            "fields[1]", "fields[2]" if fields else "fields[1]"
        ), why
    assert (
        fill(host, "insp-9", 0, [{"label": "F1", "value": "x"}])
        == 'error: unknown inspectionId "insp-9"'
    )
    assert fill(host, "insp-1", 5, [{"label": "F1", "value": "x"}]) == (
        "error: revision is 0, not 5: list again to see what changed"
    )
    assert values_of(inspect(host, 1))["text2"] == "salad πʬ"  # nothing was filled
    assert call(host, "pdf_status", {"documentId": "doc-1"})["revision"] == 0


def test_max_length_the_real_on_state_and_the_fields_left_out(host: ToolHost, folder: Path) -> None:
    host.settings.edit.attach(ApprovingReader())
    call(host, "pdf_open", {"path": "made.pdf"})
    first = inspect(host, 1)
    # The read-only field and the push button get no label.
    assert [field["name"] for field in first["fields"]] == ["name", "agree", "shared"]
    assert first["fields"][0]["maxLength"] == 5
    assert fill(host, "insp-1", 0, [{"label": "F1", "value": "toolong"}]) == (
        "error: F1: at most 5 characters"
    )
    made = fill(
        host, "insp-1", 0, [{"label": "F1", "value": "Ana"}, {"label": "F2", "value": True}]
    )
    assert [field["value"] for field in made["fields"]] == ["Ana", True]
    call(host, "pdf_save", {"documentId": "doc-1", "expectedRevision": 1})
    with pymupdf.open(folder / "made.pdf") as document:
        agree = next(widget for widget in document[0].widgets() if widget.field_name == "agree")
        assert document.xref_get_key(agree.xref, "AS") == ("name", "/Ja")  # not "Yes"
    assert saved_values_pypdf(folder / "made.pdf")["agree"] == "/Ja"


def test_a_field_on_two_pages_is_listed_on_each_and_filled_once(host: ToolHost) -> None:
    call(host, "pdf_open", {"path": "made.pdf"})
    first, second = inspect(host, 1), inspect(host, 2)
    assert "shared" in values_of(first) and "shared" in values_of(second)
    filled = fill(host, "insp-1", 0, [{"label": "F3", "value": "both"}])
    assert filled["fields"] == [{"label": "F3", "name": "shared", "value": "both"}]
    assert values_of(inspect(host, 2))["shared"] == "both"
    # Page 2's inspection lists the field filled: out of date though its page was not filled.
    assert fill(host, "insp-2", 1, [{"label": "F1", "value": "Oslo"}]) == (
        "error: insp-2 is out of date: inspect page 2 again"
    )
    several = fill(host, "insp-3", 1, [{"label": "F3", "value": ["red", "blue"]}])
    assert several["fields"][0]["value"] == ["red", "blue"]  # a multi-select listbox


def test_undo_and_redo_make_every_inspection_out_of_date(host: ToolHost, folder: Path) -> None:
    call(host, "pdf_open", {"path": "fields-two-pages.pdf"})
    inspect(host, 1)
    inspect(host, 2)
    fill(host, "insp-2", 0, [{"label": "F1", "value": "abc2"}])
    copy = host.settings.edit.copies.get(str(folder / "fields-two-pages.pdf"))
    assert copy is not None
    copy.undo()
    assert fill(host, "insp-1", 2, [{"label": "F1", "value": "x"}]) == (
        "error: insp-1 is out of date: inspect page 1 again"
    )
    assert values_of(inspect(host, 2))["text"] == "abc"  # the undo took the fill back
    copy.redo()
    assert fill(host, "insp-3", 3, [{"label": "F1", "value": "x"}]) == (
        "error: insp-3 is out of date: inspect page 2 again"
    )


def test_an_annotation_on_another_page_keeps_an_inspection(host: ToolHost) -> None:
    call(host, "pdf_open", {"path": "fields-two-pages.pdf"})
    inspect(host, 1)
    note = {"kind": "pdf-region", "page": 2, "rectPdf": [10, 10, 60, 60]}
    made = call(
        host,
        "pdf_annotation_create",
        {"documentId": "doc-1", "expectedRevision": 0, "subtype": "Text", "target": note},
    )
    assert made["revision"] == 1
    assert fill(host, "insp-1", 1, [{"label": "F1", "value": "kept"}])["revision"] == 2


def test_an_xfa_only_form_is_refused_and_a_page_without_fields_has_none(host: ToolHost) -> None:
    call(host, "pdf_open", {"path": "xfa.pdf"})
    assert inspect(host, 1) == "error: the form on page 1 is XFA: not supported"
    call(host, "pdf_open", {"path": "made.pdf"})
    assert inspect(host, 3, "doc-2") == "error: page out of range (1-2)"
    got = host.call({"documentId": "doc-2", "page": 1}, "pdf_form_inspect", None)
    image, text = got.blocks
    assert isinstance(image, ImageBlock) and isinstance(text, TextBlock)
    assert json.loads(text.text)["inspectionId"] == "insp-1"  # per session
    assert "value" not in json.loads(text.text)["fields"][0]


@pytest.mark.parametrize("name", ["AcroForm_TEST.pdf", "resetform.pdf"])
def test_the_other_corpus_forms(host: ToolHost, name: str) -> None:
    call(host, "pdf_open", {"path": name})
    fields = inspect(host, 1)["fields"]
    assert all(field["type"] != "button" for field in fields)
    wanted: list[dict[str, Any]] = []
    for field in fields:
        if any(field["name"] == one["name"] for one in wanted):
            continue
        if field["type"] == "text":
            value: Any = "filled"
        elif field["type"] == "checkbox":
            value = True
        elif field["type"] == "listbox":
            value = [field["options"][-1]]
        else:
            value = field["options"][-1]
        wanted.append({"label": field["label"], "name": field["name"], "value": value})
    filled = fill(
        host, "insp-1", 0, [{"label": one["label"], "value": one["value"]} for one in wanted]
    )
    assert filled["fields"] == wanted
    assert {one["name"]: one["value"] for one in wanted}.items() <= values_of(
        inspect(host, 1)
    ).items()
