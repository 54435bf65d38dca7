# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial)
"""E16 pdf_bookmark_edit served over Streamable HTTP to the official MCP client, and
E11 listing the draft's outline; the person's approval faked by a small ReaderLink.

An agent renames, moves, adds and deletes bookmarks in one call; the draft's
outline is listed with the file's ids kept and the new one counted on; a refused
operation (a move into its own subtree, or any error) applies nothing; the save
writes an outline whose untouched items are what they were (title, page and
destination, read by PyMuPDF and by pypdf) and whose renamed and moved items kept
their destinations, styles and open states.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from support.edit_host import ApprovingReader
from support.http_host import client, result_lines, serving
from support.outlines import Item, items_of, outlined_pdf, poppler_items, pypdf_items

from siftui.serve.edit.state import EditHost
from siftui.sources.edit.drafts import DraftStore

CORPUS = Path(__file__).resolve().parents[2] / "../shared/corpus"

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


def run_agent(folder: Path, work: Callable[[Call], Awaitable[None]]) -> EditHost:
    """``work`` as an agent of a host serving ``folder`` (a reader that approves
    attached); each call's JSON result, or its ``error: ...`` line."""
    edit = EditHost(drafts=DraftStore(folder.parent / "drafts"))

    async def agent() -> None:
        async with client(served) as session:

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                [*_, line] = result_lines(await session.call_tool(tool, arguments))
                return line if line.startswith("error: ") else json.loads(line)

            await work(call)

    with serving(folder, {"evidence", "edit"}, edit=edit) as served:
        served.host.settings.edit.attach(ApprovingReader())
        anyio.run(agent)
    return edit


def listed(result: dict[str, Any]) -> list[tuple[str, int, str, int | None]]:
    return [(i["outlineId"], i["level"], i["title"], i["page"]) for i in result["items"]]


def edit_call(revision: int, *operations: dict[str, Any]) -> dict[str, Any]:
    return {"documentId": "doc-1", "expectedRevision": revision, "operations": list(operations)}


def test_an_edit_keeps_destinations_styles_and_open_states_through_the_save(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    pdf = outlined_pdf(folder / "outlined.pdf")
    before = items_of(pdf)
    before_pypdf = pypdf_items(pdf)
    seen: dict[str, Any] = {}

    async def work(call: Call) -> None:
        await call("pdf_open", {"path": "outlined.pdf"})
        seen["file"] = await call("pdf_bookmark_list", {"documentId": "doc-1"})
        seen["edit"] = await call(
            "pdf_bookmark_edit",
            edit_call(
                0,
                {"op": "outline-update", "outlineId": "ol-5", "title": "Web site"},
                {"op": "outline-move", "outlineId": "ol-2", "index": 3},  # closed, 2 children
                {"op": "outline-move", "outlineId": "ol-1", "parentId": "ol-2", "index": 1},
                {"op": "outline-add", "title": "Added", "page": 1, "parentId": "ol-2"},
                {"op": "outline-delete", "outlineId": "ol-4"},
            ),
        )
        seen["draft"] = await call("pdf_bookmark_list", {"documentId": "doc-1"})
        seen["itself"] = await call(
            "pdf_bookmark_edit",
            edit_call(1, {"op": "outline-move", "outlineId": "ol-2", "parentId": "ol-1"}),
        )
        seen["itself"] = await call(
            "pdf_bookmark_edit",
            edit_call(
                1,
                {"op": "outline-update", "outlineId": "ol-6", "title": "not applied"},
                {"op": "outline-move", "outlineId": "ol-2", "parentId": "ol-1", "index": 0},
            ),
        )
        seen["after refusal"] = await call("pdf_bookmark_list", {"documentId": "doc-1"})
        seen["status"] = await call("pdf_status", {"documentId": "doc-1"})
        seen["save"] = await call("pdf_save", {"documentId": "doc-1", "expectedRevision": 1})
        seen["saved"] = await call("pdf_bookmark_list", {"documentId": "doc-1"})

    run_agent(folder, work)
    assert listed(seen["file"]) == [
        ("ol-1", 1, "Named", 3),
        ("ol-2", 1, "GoTo", 2),
        ("ol-3", 2, "Child A", 2),
        ("ol-4", 2, "Child B", None),
        ("ol-5", 1, "Web", None),
        ("ol-6", 1, "Last", 4),
    ]
    assert seen["edit"] == {"documentId": "doc-1", "revision": 1, "total": 6, "added": ["ol-7"]}
    draft = [
        ("ol-5", 1, "Web site", None),
        ("ol-6", 1, "Last", 4),
        ("ol-2", 1, "GoTo", 2),
        ("ol-3", 2, "Child A", 2),
        ("ol-1", 2, "Named", 3),
        ("ol-7", 2, "Added", 1),
    ]
    assert listed(seen["draft"]) == draft
    assert seen["itself"] == "error: operation 2: cannot move ol-2 into itself"
    assert listed(seen["after refusal"]) == draft  # operation 1 was not applied either
    assert seen["status"]["revision"] == 1
    assert seen["status"]["capabilities"]["bookmarkEdit"] == {"supported": True, "available": True}
    assert seen["save"]["saved"] is True and seen["save"]["revision"] == 2
    # After the save the file's items are numbered afresh, in the saved outline's order.
    assert listed(seen["saved"]) == [
        (f"ol-{number}", level, title, page)
        for number, (_, level, title, page) in enumerate(draft, 1)
    ]
    after = items_of(pdf)
    old = dict(zip(["ol-1", "ol-2", "ol-3", "ol-4", "ol-5", "ol-6"], before, strict=True))
    new = dict(zip([one[0] for one in draft], after, strict=True))
    # untouched: all the same (ol-3's level follows its parent's, which did not move level)
    for outline_id in ("ol-3", "ol-6"):
        assert new[outline_id] == old[outline_id]
    # renamed: only the title; moved: only the level
    assert new["ol-5"] == Item(1, "Web site", -1, *_rest(old["ol-5"]))
    assert new["ol-2"] == old["ol-2"]  # still closed, red, bold italic, its GoTo kept
    assert new["ol-1"] == Item(2, "Named", 3, *_rest(old["ol-1"]))  # the named destination
    assert new["ol-7"].page == 1 and new["ol-7"].destination.startswith("[page1/XYZ")
    # pypdf reads the same outline
    old_pypdf = dict(
        zip(["ol-1", "ol-2", "ol-3", "ol-4", "ol-5", "ol-6"], before_pypdf, strict=True)
    )
    new_pypdf = dict(zip([one[0] for one in draft], pypdf_items(pdf), strict=True))
    for outline_id in ("ol-2", "ol-3", "ol-6"):
        assert new_pypdf[outline_id] == old_pypdf[outline_id]
    assert new_pypdf["ol-5"] == (1, "Web site", None, "URI https://example.org/")
    assert new_pypdf["ol-1"] == (2, *old_pypdf["ol-1"][1:])
    if shutil.which("pdftohtml"):  # poppler reads the outline as edited
        assert poppler_items(pdf) == [(level, title, page) for _, level, title, page in draft]


def _rest(item: Item) -> tuple[str, str, bool]:
    return item.destination, item.style, item.closed


def test_each_refusal_names_its_operation_and_applies_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    outlined_pdf(folder / "outlined.pdf")
    good = {"op": "outline-update", "outlineId": "ol-1", "title": "kept out"}
    refused: dict[str, dict[str, Any]] = {
        "operation 2: unknown outlineId \"ol-9\"": {"op": "outline-delete", "outlineId": "ol-9"},
        'operation 2: unknown outlineId "ol-8"': {
            "op": "outline-add", "title": "x", "page": 1, "parentId": "ol-8"
        },
        "operation 2: page out of range (1-4)": {"op": "outline-add", "title": "x", "page": 5},
        "operation 2: index out of range (0-4)": {
            "op": "outline-add", "title": "x", "page": 1, "index": 5
        },
        "operation 2: index out of range (0-3)": {
            "op": "outline-move", "outlineId": "ol-1", "index": 4
        },
        "operation 2: index out of range (0-2)": {
            "op": "outline-move", "outlineId": "ol-1", "parentId": "ol-2", "index": -1
        },
        'operation 2: unknown op "outline-rename"': {"op": "outline-rename"},
        "operation 2: cannot move ol-2 into itself": {
            "op": "outline-move", "outlineId": "ol-2", "parentId": "ol-3", "index": 0
        },
        "operation 2: give title or page": {"op": "outline-update", "outlineId": "ol-1"},
        'missing argument "operations[2].outlineId"': {"op": "outline-delete"},
        'unknown argument "operations[2].title" (operations[2] takes op, outlineId)': {
            "op": "outline-delete", "outlineId": "ol-1", "title": "x"
        },
        'argument "operations[2].title" must be 1-500 UTF-16 units': {
            "op": "outline-add", "title": "", "page": 1
        },
    }  # fmt: skip
    answers: dict[str, Any] = {}

    async def work(call: Call) -> None:
        await call("pdf_open", {"path": "outlined.pdf"})
        answers["before"] = await call("pdf_bookmark_list", {"documentId": "doc-1"})
        for message, operation in refused.items():
            answers[message] = await call("pdf_bookmark_edit", edit_call(0, good, operation))
        answers["stale"] = await call("pdf_bookmark_edit", edit_call(3, good))
        answers["too many"] = await call("pdf_bookmark_edit", edit_call(0, *[good] * 101))
        answers["after"] = await call("pdf_bookmark_list", {"documentId": "doc-1"})
        answers["status"] = await call("pdf_status", {"documentId": "doc-1"})

    run_agent(folder, work)
    for message in refused:
        assert answers[message] == f"error: {message}"
    assert answers["stale"] == "error: revision is 0, not 3: list again to see what changed"
    assert answers["too many"] == 'error: argument "operations" must hold 1-100 items'
    assert answers["after"] == answers["before"]
    assert (answers["status"]["revision"], answers["status"]["unsaved"]) == (0, False)


def test_an_undone_addition_gives_its_id_to_no_later_one(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    outlined_pdf(folder / "outlined.pdf")
    answers: list[Any] = []
    add = {"op": "outline-add", "title": "New", "page": 2}

    async def work(call: Call) -> None:
        await call("pdf_open", {"path": "outlined.pdf"})
        answers.append(await call("pdf_bookmark_edit", edit_call(0, add, add)))
        [copy] = [edit.copies.get(path) for path in edit.copies.paths()]
        assert copy is not None
        copy.undo()  # the person's ctrl+z takes back the whole edit
        answers.append(await call("pdf_bookmark_list", {"documentId": "doc-1"}))
        answers.append(await call("pdf_bookmark_edit", edit_call(2, add)))

    edit = EditHost(drafts=DraftStore(tmp_path / "drafts"))
    with serving(folder, {"evidence", "edit"}, edit=edit) as served:

        async def agent() -> None:
            async with client(served) as session:

                async def call(tool: str, arguments: dict[str, Any]) -> Any:
                    [*_, line] = result_lines(await session.call_tool(tool, arguments))
                    return line if line.startswith("error: ") else json.loads(line)

                await work(call)

        anyio.run(agent)
    assert answers[0]["added"] == ["ol-7", "ol-8"]
    assert answers[1]["total"] == 6
    assert answers[2]["added"] == ["ol-9"]


@pytest.mark.skipif(not (CORPUS / "ksp-thesis.pdf").exists(), reason="no shared corpus")
def test_a_corpus_outline_keeps_every_untouched_item_through_the_save(tmp_path: Path) -> None:
    """ksp-thesis.pdf (LaTeX's hyperref): 14 items, each a GoTo action to a named
    destination, two of them closed."""
    folder = tmp_path / "docs"
    folder.mkdir()
    pdf = folder / "ksp-thesis.pdf"
    shutil.copyfile(CORPUS / "ksp-thesis.pdf", pdf)  # saved over: a copy outside the repo
    before, before_pypdf = items_of(pdf), pypdf_items(pdf)
    seen: dict[str, Any] = {}

    async def work(call: Call) -> None:
        await call("pdf_open", {"path": "ksp-thesis.pdf"})
        seen["edit"] = await call(
            "pdf_bookmark_edit",
            edit_call(
                0,
                {"op": "outline-update", "outlineId": "ol-2", "title": "2 Installing"},
                {"op": "outline-move", "outlineId": "ol-8", "parentId": "ol-3", "index": 0},
                {"op": "outline-add", "title": "Appendix", "page": 8, "index": 5},
                {"op": "outline-delete", "outlineId": "ol-13"},
                {"op": "outline-update", "outlineId": "ol-12", "page": 7},
            ),
        )
        seen["draft"] = await call("pdf_bookmark_list", {"documentId": "doc-1"})
        seen["save"] = await call("pdf_save", {"documentId": "doc-1", "expectedRevision": 1})

    run_agent(folder, work)
    assert seen["edit"]["added"] == ["ol-15"] and seen["save"]["saved"] is True
    order = [item["outlineId"] for item in seen["draft"]["items"]]
    after, after_pypdf = items_of(pdf), pypdf_items(pdf)
    assert len(after) == len(order) == 14
    old = {f"ol-{number}": item for number, item in enumerate(before, 1)}
    old_pypdf = {f"ol-{number}": item for number, item in enumerate(before_pypdf, 1)}
    new = dict(zip(order, after, strict=True))
    new_pypdf = dict(zip(order, after_pypdf, strict=True))
    moved = {"ol-8", "ol-9", "ol-10", "ol-11"}  # one level deeper: ol-8 and its subtree
    untouched = set(old) - moved - {"ol-2", "ol-12", "ol-13"}
    assert len(untouched) == 7
    for outline_id in untouched:
        assert new[outline_id] == old[outline_id], outline_id
        assert new_pypdf[outline_id] == old_pypdf[outline_id], outline_id
    for outline_id in moved:
        assert new[outline_id] == Item(old[outline_id].level + 1, *_all(old[outline_id])[1:])
        assert new_pypdf[outline_id][1:] == old_pypdf[outline_id][1:]
    assert new["ol-2"] == Item(1, "2 Installing", *_all(old["ol-2"])[2:])
    assert new["ol-12"].title == old["ol-12"].title and new["ol-12"].page == 7
    assert new["ol-15"].title == "Appendix" and new["ol-15"].page == 8


def _all(item: Item) -> tuple[int, str, int, str, str, bool]:
    return item.level, item.title, item.page, item.destination, item.style, item.closed


def test_a_doc_json_lists_its_own_outline_and_has_no_draft_to_edit(tmp_path: Path) -> None:
    """A document opened from a Doc JSON (siftui extract) has no PDF: E11 lists its
    outline as the evidence family does, and the edit tools refuse it in one line
    (pdf_status says so of its edit capabilities)."""
    from siftui.core.docjson import doc_to_json
    from siftui.doc import Doc, OutlineItem
    from siftui.serve.access import Roots
    from siftui.serve.host import ToolHost
    from siftui.serve.tool_api import TextBlock

    outline = (OutlineItem(1, "One", 1), OutlineItem(2, "Two", 2))
    doc = Doc("Worked", 2, ("a\n", "b\n"), outline)
    (tmp_path / "w.json").write_text(doc_to_json(doc), encoding="utf-8")
    edit = EditHost(drafts=DraftStore(tmp_path / "drafts"))
    host = ToolHost(Roots([tmp_path]), families={"evidence", "edit"}, edit=edit)

    def answer(tool: str, arguments: dict[str, Any]) -> Any:
        got = host.call(arguments, tool, None)
        if got.is_error:
            return f"error: {got.message}"
        block = got.blocks[-1]
        assert isinstance(block, TextBlock)
        return json.loads(block.text)

    try:
        answer("pdf_open", {"path": "w.json"})
        assert listed(answer("pdf_bookmark_list", {"documentId": "doc-1"})) == [
            ("ol-1", 1, "One", 1),
            ("ol-2", 2, "Two", 2),
        ]
        refused = answer(
            "pdf_bookmark_edit", edit_call(0, {"op": "outline-delete", "outlineId": "ol-1"})
        )
        assert refused == (
            "error: doc-1 has no page images: it was opened from a Doc JSON (siftui extract), "
            "not a PDF"
        )
        status = answer("pdf_status", {"documentId": "doc-1"})
        assert status["capabilities"]["bookmarkEdit"]["available"] is False
    finally:
        host.shutdown()
