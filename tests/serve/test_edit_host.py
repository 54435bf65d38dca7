# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""The edit family's host side: the reader seam (tabs, jumps, a save's approval) and the
family served only by a host.

A reader is faked here by a small ReaderLink (the real one is siftui reader's);
with none attached the tools say EDITING.md's no-reader lines.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from support.pdfs import make_pdf

from siftui.core.edit.operations import Quad
from siftui.serve.access import Roots
from siftui.serve.edit.approval import DECLINED, await_decision, waited_out
from siftui.serve.edit.reader_link import ReaderAway
from siftui.serve.edit.state import EditHost
from siftui.serve.host import ToolHost
from siftui.sources.edit.drafts import DraftStore


@dataclass(frozen=True)
class FakeTab:
    tab_id: str
    path: str
    page: int = 1


@dataclass
class FakeReader:
    shown: list[FakeTab]
    jumps: list[tuple[str, int]] = field(default_factory=list)
    marks: list[tuple[Quad, ...]] = field(default_factory=list)
    away: bool = False

    def tabs(self) -> list[FakeTab]:
        return list(self.shown)

    def jump(self, tab_id: str, page: int, marks: tuple[Quad, ...] = ()) -> int:
        if self.away:
            raise ReaderAway
        if tab_id not in {tab.tab_id for tab in self.shown}:
            raise LookupError(tab_id)
        self.jumps.append((tab_id, page))
        self.marks.append(marks)
        return sum(1 for done, _ in self.jumps if done == tab_id)

    def ask_save(self, path: str, revision: int, timeout: float) -> Future[bool]:
        raise AssertionError("no save here")

    def save_ended(self, path: str, outcome: str, saved: bool) -> None:
        raise AssertionError("no save here")


@pytest.fixture
def host(tmp_path: Path) -> Any:
    make_pdf(tmp_path / "a.pdf", ["The first page of text", "The second page of text"])
    make_pdf(tmp_path / "b.pdf", ["Another file"])
    edit = EditHost(drafts=DraftStore(tmp_path / "drafts"))
    served = ToolHost(Roots([tmp_path]), families={"evidence", "edit"}, edit=edit)
    yield served
    served.shutdown()


def answer(host: ToolHost, tool: str, arguments: dict[str, Any]) -> str:
    got = host.call(arguments, tool)
    return f"error: {got.message}" if got.is_error else got.blocks[-1].text  # type: ignore[union-attr]


def test_a_jump_needs_a_reader_and_a_tab_showing_the_document(
    host: ToolHost, tmp_path: Path
) -> None:
    answer(host, "pdf_open", {"path": "a.pdf"})
    jump = {"documentId": "doc-1", "page": 2}
    assert answer(host, "pdf_page_jump", jump) == "error: no reader is attached"
    reader = FakeReader([FakeTab("tab-1", str(tmp_path / "b.pdf"))])
    host.settings.edit.attach(reader)
    assert answer(host, "pdf_page_jump", jump) == (
        "error: doc-1 is not open in the reader (the person opens it)"
    )
    reader.shown += [
        FakeTab("tab-2", str(tmp_path / "a.pdf")),
        FakeTab("tab-3", str(tmp_path / "a.pdf")),
    ]
    assert answer(host, "pdf_page_jump", jump) == (
        "error: doc-1 is open in 2 tabs: give tabId (pdf_current lists them)"
    )
    assert answer(host, "pdf_page_jump", {**jump, "tabId": "tab-1"}) == (
        "error: tab-1 shows another file"
    )
    done = json.loads(answer(host, "pdf_page_jump", {**jump, "tabId": "tab-3"}))
    assert done == {"documentId": "doc-1", "tabId": "tab-3", "page": 2, "back": 1}
    assert reader.jumps == [("tab-3", 2)]
    reader.away = True
    assert answer(host, "pdf_page_jump", {**jump, "tabId": "tab-3"}) == (
        "error: no reader is attached"
    )
    host.settings.edit.detach()
    assert answer(host, "pdf_page_jump", jump) == "error: no reader is attached"


def test_a_jump_to_a_reference_shows_its_first_page(host: ToolHost, tmp_path: Path) -> None:
    answer(host, "pdf_open", {"path": "a.pdf"})
    answer(host, "pdf_open", {"path": "b.pdf"})
    read = json.loads(answer(host, "pdf_page_read", {"documentId": "doc-1", "page": 2}))
    ref = read["pages"][0]["refId"]
    reader = FakeReader([FakeTab("tab-1", str(tmp_path / "a.pdf"))])
    host.settings.edit.attach(reader)
    done = json.loads(answer(host, "pdf_page_jump", {"documentId": "doc-1", "refId": ref}))
    assert (done["page"], done["tabId"]) == (2, "tab-1")
    # the reader is given the ref's text to mark, in PDF user space (y up from the
    # MediaBox's bottom): where MuPDF finds that text on the page
    with pymupdf.open(tmp_path / "a.pdf") as document:
        page = document[1]
        [found] = page.search_for("The second page of text")
        height = page.mediabox.height
    [[quad]] = reader.marks
    xs, ys = quad[0::2], quad[1::2]
    where = (min(xs), height - max(ys), max(xs), height - min(ys))
    assert where == pytest.approx((found.x0, found.y0, found.x1, found.y1), abs=1.5)
    answer(host, "pdf_page_jump", {"documentId": "doc-1", "page": 1})
    assert reader.marks[-1] == ()  # a page jump marks nothing
    assert answer(host, "pdf_page_jump", {"documentId": "doc-2", "refId": ref}) == (
        f"error: {ref} belongs to doc-1, not doc-2"
    )
    for wrong, said in (
        ({"documentId": "doc-1"}, "give page or refId"),
        ({"documentId": "doc-1", "page": 1, "refId": ref}, "give page or refId"),
        ({"documentId": "doc-1", "page": 3}, "page out of range (1-2)"),
        ({"documentId": "doc-9", "page": 1}, 'unknown documentId "doc-9"'),
        (
            {"documentId": "doc-1", "page": 1, "tabId": "tab-7"},
            'unknown tabId "tab-7" (pdf_current lists them)',
        ),
    ):
        assert answer(host, "pdf_page_jump", wrong) == f"error: {said}", wrong


def test_the_wait_for_approval_says_what_the_person_decided() -> None:
    approved: Future[bool] = Future()
    approved.set_result(True)
    assert await_decision(approved, 300, None) is None
    declined: Future[bool] = Future()
    declined.set_result(False)
    assert await_decision(declined, 300, None) == DECLINED
    assert DECLINED == "the save was declined in the reader (the draft is kept)"
    never: Future[bool] = Future()
    assert await_decision(never, 0, None) == waited_out(0)
    assert never.cancelled()  # the dialog closes
    assert waited_out(300) == "no decision in the reader within 300 s (the draft is kept)"


def test_the_wait_tells_its_progress_until_the_person_decides() -> None:
    decision: Future[bool] = Future()
    told: list[tuple[int, int, str]] = []

    def progress(done: int, total: int, message: str = "") -> None:
        told.append((done, total, message))
        if len(told) == 2:
            decision.set_result(True)

    assert await_decision(decision, 1000, progress, every=0.001) is None
    assert len(told) == 2
    assert all(total == 1000 and "waiting for the person's decision" in m for _, total, m in told)


def test_the_edit_family_is_served_by_a_host_only(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["Text"])

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        command = [sys.executable, "-m", "siftui", *args, "--root", str(tmp_path)]
        return subprocess.run(command, input=b"", capture_output=True, timeout=60, check=False)

    refused = run("mcp", "--tools", "evidence,edit")
    assert refused.returncode == 2
    assert b"the edit tools are served by siftui reader only" in refused.stderr
    alone = run("session", "--tools", "edit")
    assert alone.returncode == 2 and b"add evidence (--tools evidence,edit)" in alone.stderr


def test_a_host_with_the_edit_family_lists_tabs_and_the_draft_in_its_status(
    host: ToolHost, tmp_path: Path
) -> None:
    answer(host, "pdf_open", {"path": "a.pdf"})
    status = json.loads(answer(host, "pdf_status", {"documentId": "doc-1"}))
    assert list(status)[:8] == [
        "documentId",
        "contentVersion",
        "sourceChanged",
        "stale",
        "pages",
        "revision",
        "unsaved",
        "reader",
    ]
    assert (status["revision"], status["unsaved"], status["reader"]) == (0, False, False)
    assert status["capabilities"]["save"] == {
        "supported": True,
        "available": False,
        "reason": "no reader is attached",
    }
    assert status["capabilities"]["annotate"] == {"supported": True, "available": True}
    assert json.loads(answer(host, "pdf_current", {}))["tabs"] == []
    reader = FakeReader(
        [FakeTab("tab-1", str(tmp_path / "b.pdf"), 3), FakeTab("tab-2", str(tmp_path / "a.pdf"))]
    )
    host.settings.edit.attach(reader)
    current = json.loads(answer(host, "pdf_current", {}))
    assert list(current) == ["documents", "tabs"]
    assert current["tabs"] == [
        {"tabId": "tab-1", "path": str(tmp_path / "b.pdf"), "documentId": None, "page": 3},
        {"tabId": "tab-2", "path": str(tmp_path / "a.pdf"), "documentId": "doc-1", "page": 1},
    ]
    region = {"kind": "pdf-region", "page": 1, "rectPdf": [20, 20, 80, 80]}
    note = {"documentId": "doc-1", "expectedRevision": 0, "subtype": "Text", "target": region}
    assert json.loads(answer(host, "pdf_annotation_create", note))["revision"] == 1
    status = json.loads(answer(host, "pdf_status", {"documentId": "doc-1"}))
    assert (status["revision"], status["unsaved"], status["reader"]) == (1, True, True)
    assert status["capabilities"]["pageJump"] == {"supported": True, "available": True}


def test_without_the_edit_family_the_status_is_the_evidence_one(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["Text"])
    plain = ToolHost(Roots([tmp_path]), families={"evidence"})
    try:
        answer(plain, "pdf_open", {"path": "a.pdf"})
        status = json.loads(answer(plain, "pdf_status", {"documentId": "doc-1"}))
        assert "revision" not in status and "annotate" not in status["capabilities"]
        assert "tabs" not in json.loads(answer(plain, "pdf_current", {}))
    finally:
        plain.shutdown()


@pytest.mark.parametrize("name", ["notes.txt", "scan.png"])
def test_a_document_that_is_not_a_pdf_is_refused_by_the_edit_tools_in_one_line(
    host: ToolHost, tmp_path: Path, name: str
) -> None:
    """MuPDF reads a text file or an image as a document (pdf_open takes it), but there is
    no PDF to annotate, fill, edit or save: one line, and pdf_status says why."""
    if name.endswith(".txt"):
        (tmp_path / name).write_text("hello world\nsecond line\n", encoding="utf-8")
    else:
        pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), False)
        pixmap.set_rect(pixmap.irect, (200, 30, 30))
        pixmap.save(tmp_path / name)
    opened = json.loads(answer(host, "pdf_open", {"path": name}))
    said = f"{opened['documentId']} is not a PDF ({name}): the edit tools change PDFs only"
    status = json.loads(answer(host, "pdf_status", {"documentId": opened["documentId"]}))
    assert (status["revision"], status["unsaved"]) == (0, False)
    for capability in ("annotate", "bookmarkEdit", "formFill", "save"):
        assert status["capabilities"][capability] == {
            "supported": True,
            "available": False,
            "reason": said,
        }
    document = {"documentId": opened["documentId"]}
    assert answer(host, "pdf_annotation_list", document) == f"error: {said}"
    assert answer(host, "pdf_form_inspect", {**document, "page": 1}) == f"error: {said}"
    region = {"kind": "pdf-region", "page": 1, "rectPdf": [1, 1, 20, 20]}
    note = {**document, "expectedRevision": 0, "subtype": "Text", "target": region}
    assert answer(host, "pdf_annotation_create", note) == f"error: {said}"
    listed = json.loads(answer(host, "pdf_bookmark_list", document))  # its own, no draft
    assert (listed["total"], listed["items"]) == (0, [])
