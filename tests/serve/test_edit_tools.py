"""E12-E15 and E19 served by a host on its shared working copies, with a reader faked
by a small ReaderLink that decides each save as the test tells it.

An agent highlights the text a search found and the person approves the save:
the file then holds the annotation (read back with PyMuPDF), the session's
identities stay valid, and the call log keeps the revision each call made.
A decline, no decision in time, a stale revision and a file changed while the
save waited write nothing and keep the draft; two sessions share one draft.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pymupdf
import pytest
from support.edit_host import call
from support.http_host import client, result_lines, serving
from support.pdfs import make_pdf

from siftui.serve.access import Roots
from siftui.serve.edit.state import EditHost
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import Session
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.log.calllog import CallLog
from siftui.sources.log.evidence_report import evidence_lines, evidence_report
from siftui.sources.log.reading import read_log

HIGHLIGHT = {"subtype": "Highlight", "target": {"kind": "reference", "refId": "ref-1"}}


@dataclass
class Person:
    """The reader's side of a save: ``decide`` answers each request (None: never)."""

    decide: Callable[[str], bool | None]
    asked: list[tuple[str, int, float]] = field(default_factory=list)
    pending: list[Future[bool]] = field(default_factory=list)
    ended: list[tuple[str, str, bool]] = field(default_factory=list)

    def tabs(self) -> list[Any]:
        return []

    def jump(self, tab_id: str, page: int, marks: tuple[Any, ...] = ()) -> int:
        raise LookupError(tab_id)

    def ask_save(self, path: str, revision: int, timeout: float) -> Future[bool]:
        self.asked.append((path, revision, timeout))
        decision: Future[bool] = Future()
        decided = self.decide(path)
        if decided is not None:
            decision.set_result(decided)
        self.pending.append(decision)
        return decision

    def save_ended(self, path: str, outcome: str, saved: bool) -> None:
        self.ended.append((path, outcome, saved))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    make_pdf(tmp_path / "a.pdf", ["The first page of text", "The second page of text"])
    return tmp_path


@pytest.fixture
def host(folder: Path) -> Iterator[ToolHost]:
    log = CallLog(folder / "calls.jsonl")
    edit = EditHost(drafts=DraftStore(folder / "drafts"))
    served = ToolHost(Roots([folder]), families={"evidence", "edit"}, edit=edit, log=log)
    yield served
    served.shutdown()
    log.close()


def highlighted(host: ToolHost, session: Session | None = None) -> Any:
    call(host, "pdf_open", {"path": "a.pdf"}, session)
    found = call(
        host, "pdf_keyword_search", {"documentId": "doc-1", "query": "second page"}, session
    )
    assert found["hits"][0]["refId"] == "ref-1"
    return call(
        host,
        "pdf_annotation_create",
        {"documentId": "doc-1", "expectedRevision": 0, **HIGHLIGHT},
        session,
    )


def test_the_person_approves_and_the_file_holds_the_highlight(host: ToolHost, folder: Path) -> None:
    person = Person(lambda path: True)
    host.settings.edit.attach(person)
    made = highlighted(host)
    assert made["revision"] == 1 and made["annotations"][0]["page"] == 2
    saved = call(host, "pdf_save", {"documentId": "doc-1", "expectedRevision": 1})
    data = (folder / "a.pdf").read_bytes()
    assert saved == {
        "documentId": "doc-1",
        "revision": 2,
        "saved": True,
        "contentVersion": "v-" + hashlib.sha256(data).hexdigest()[:12],
        "bytes": len(data),
    }
    assert person.asked == [(str(folder / "a.pdf"), 1, 300.0)]
    # The person is told what became of the save they approved.
    assert person.ended == [(str(folder / "a.pdf"), f"{len(data):,} bytes, revision 2", True)]
    with pymupdf.open(folder / "a.pdf") as document:
        page = document[1]
        [annotation] = list(page.annots())
        assert annotation.type[1] == "Highlight"
        assert annotation.info["id"] == made["annotations"][0]["annotationId"]
        assert "second page" in page.get_textbox(annotation.rect)
    # The session's identities stay valid on the saved file.
    read = call(host, "pdf_page_read", {"documentId": "doc-1", "page": 2})
    assert read["contentVersion"] == saved["contentVersion"]
    listed = call(host, "pdf_annotation_list", {"documentId": "doc-1"})
    assert (listed["revision"], listed["total"]) == (2, 1)
    assert call(host, "pdf_save", {"documentId": "doc-1", "expectedRevision": 2}) == (
        "error: nothing to save: the draft has no changes"
    )
    saves = [entry for entry in read_log(folder / "calls.jsonl") if entry.tool == "pdf_save"]
    result = saves[0].result
    assert result is not None and json.loads(result.text)["revision"] == 2


def test_a_declined_or_undecided_save_writes_nothing_and_keeps_the_draft(
    host: ToolHost, folder: Path
) -> None:
    before = (folder / "a.pdf").read_bytes()
    assert call(host, "pdf_save", {"documentId": "doc-1", "expectedRevision": 0}) == (
        'error: unknown documentId "doc-1"'
    )
    highlighted(host)
    save = {"documentId": "doc-1", "expectedRevision": 1}
    assert call(host, "pdf_save", save) == (
        "error: saving needs a person's approval in siftui reader; none is attached "
        "(the draft is kept)"
    )
    declining = Person(lambda path: False)
    host.settings.edit.attach(declining)
    assert call(host, "pdf_save", save) == (
        "error: the save was declined in the reader (the draft is kept)"
    )
    undecided = Person(lambda path: None)
    host.settings.edit.attach(undecided)
    host.settings.edit.approval_timeout = 0
    assert call(host, "pdf_save", save) == (
        "error: no decision in the reader within 0 s (the draft is kept)"
    )
    assert undecided.pending[0].cancelled()  # the dialog closes
    assert declining.ended == undecided.ended == []  # nothing was approved: nothing to tell
    assert call(host, "pdf_save", {"documentId": "doc-1", "expectedRevision": 0}) == (
        "error: revision is 1, not 0: list again to see what changed"
    )
    assert (folder / "a.pdf").read_bytes() == before
    listed = call(host, "pdf_annotation_list", {"documentId": "doc-1"})
    assert (listed["revision"], listed["total"]) == (1, 1)


def test_a_file_changed_while_the_save_waited_is_not_written(host: ToolHost, folder: Path) -> None:
    highlighted(host)

    def rewrite(path: str) -> bool:
        make_pdf(Path(path), ["Somebody else's file"])
        return True

    person = Person(rewrite)
    host.settings.edit.attach(person)
    refusal = "a.pdf changed on disk since it was opened: nothing saved (the draft is kept)"
    assert call(host, "pdf_save", {"documentId": "doc-1", "expectedRevision": 1}) == (
        f"error: {refusal}"
    )
    # The person approved; the reader then says that nothing was saved, and why.
    assert person.ended == [(str(folder / "a.pdf"), refusal, False)]
    with pymupdf.open(folder / "a.pdf") as document:
        assert not list(document[0].annots())


def test_an_edit_call_warms_the_pages_the_session_issued_refs_on(
    host: ToolHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    from siftui.sources.edit.working_copy import WorkingCopy

    warmed: list[set[int]] = []
    real = WorkingCopy.warm

    def recorded(copy: WorkingCopy, pages: Iterable[int]) -> None:
        warmed.append(set(pages))
        real(copy, pages)

    monkeypatch.setattr(WorkingCopy, "warm", recorded)
    call(host, "pdf_open", {"path": "a.pdf"})
    call(host, "pdf_annotation_list", {"documentId": "doc-1"})
    assert warmed == [set()]  # no ref issued yet
    found = call(host, "pdf_keyword_search", {"documentId": "doc-1", "query": "second page"})
    assert [hit["page"] for hit in found["hits"]] == [2]
    call(host, "pdf_annotation_list", {"documentId": "doc-1"})
    assert warmed[-1] == {2}


def test_pdf_close_lets_go_of_the_working_copy_and_its_draft_stays(
    host: ToolHost, folder: Path
) -> None:
    copies = host.settings.edit.copies
    highlighted(host)
    [path] = copies.paths()
    assert call(host, "pdf_close", {"documentId": "doc-1"}) == {
        "documentId": "doc-1",
        "closed": True,
    }
    assert copies.get(path) is None  # the session held it alone
    call(host, "pdf_open", {"path": "a.pdf"})
    listed = call(host, "pdf_annotation_list", {"documentId": "doc-2"})
    assert (listed["revision"], listed["total"]) == (1, 1)  # the draft kept on disk, back


def test_two_sessions_share_one_draft_with_their_own_identities(
    host: ToolHost, folder: Path
) -> None:
    one, two = Session(1), Session(2)
    highlighted(host, one)
    opened = call(host, "pdf_open", {"path": "a.pdf"}, two)
    assert opened["documentId"] == "doc-1"
    listed = call(host, "pdf_annotation_list", {"documentId": "doc-1"}, two)
    assert (listed["revision"], listed["total"]) == (1, 1)
    region = {"kind": "pdf-region", "page": 1, "rectPdf": [10, 10, 60, 60]}
    note = {"documentId": "doc-1", "subtype": "Text", "target": region, "comment": "see p. 2"}
    assert call(host, "pdf_annotation_create", {**note, "expectedRevision": 0}, two) == (
        "error: revision is 1, not 0: list again to see what changed"
    )
    made = call(host, "pdf_annotation_create", {**note, "expectedRevision": 1}, two)
    assert made["revision"] == 2
    assert call(host, "pdf_annotation_list", {"documentId": "doc-1"}, one)["total"] == 2
    assert call(
        host, "pdf_annotation_create", {**note, "expectedRevision": 2, "target": "x"}, one
    ) == ('error: argument "target" must be an object')


def test_the_report_says_which_writes_were_stale_and_whether_the_agent_listed(
    host: ToolHost, folder: Path
) -> None:
    highlighted(host)  # calls 1-3: open, search, highlight (revision 1)
    region = {"kind": "pdf-region", "page": 1, "rectPdf": [10, 10, 60, 60]}
    note = {"documentId": "doc-1", "subtype": "Text", "target": region}
    stale = "revision is 1, not 0: list again to see what changed"
    assert call(host, "pdf_annotation_create", {**note, "expectedRevision": 0}) == f"error: {stale}"
    assert call(host, "pdf_annotation_create", {**note, "expectedRevision": 0}) == f"error: {stale}"
    call(host, "pdf_annotation_list", {"documentId": "doc-1"})  # call 6
    assert call(host, "pdf_annotation_create", {**note, "expectedRevision": 1})["revision"] == 2
    assert call(
        host,
        "pdf_annotation_delete",
        {"documentId": "doc-1", "expectedRevision": 0, "annotationId": "x"},
    ) == ("error: revision is 2, not 0: list again to see what changed")
    host.shutdown()
    [use] = evidence_report(read_log(folder / "calls.jsonl"))
    assert [(call, retry.words()) for call, _, retry in use.stale_writes] == [
        (4, "next write call 5, did not list first"),
        (5, "next write call 7, listed first"),
        (8, "no later write"),
    ]
    assert use.refused_reads == []  # a stale write is not an evidence read refused
    lines = evidence_lines([use])
    assert "  writes refused for a stale revision:" in lines
    assert f"    call 5: {stale} -- next write call 7, listed first" in lines


@pytest.mark.slow
def test_a_waiting_save_sends_progress_over_http(folder: Path) -> None:
    """The person decides only after the first progress notification (5 s in)."""
    told: list[tuple[float, float | None, str | None]] = []
    approved = threading.Event()
    person = Person(lambda path: None)
    answers: list[list[str]] = []

    async def progress(progress: float, total: float | None, message: str | None) -> None:
        told.append((progress, total, message))
        if not approved.is_set():
            approved.set()
            person.pending[0].set_result(True)

    async def agent() -> None:
        async with client(served) as session:
            await session.call_tool("pdf_open", {"path": "a.pdf"})
            await session.call_tool(
                "pdf_keyword_search", {"documentId": "doc-1", "query": "second"}
            )
            create: dict[str, Any] = {"documentId": "doc-1", "expectedRevision": 0, **HIGHLIGHT}
            answers.append(result_lines(await session.call_tool("pdf_annotation_create", create)))
            save: dict[str, Any] = {"documentId": "doc-1", "expectedRevision": 1}
            got = await session.call_tool("pdf_save", save, progress_callback=progress)
            answers.append(result_lines(got))

    with serving(
        folder, {"evidence", "edit"}, edit=EditHost(drafts=DraftStore(folder / "d"))
    ) as served:
        served.host.settings.edit.attach(person)
        anyio.run(agent)
    assert told and told[0][1] == 300 and "waiting for the person's decision" in str(told[0][2])
    assert json.loads(answers[-1][0])["saved"] is True
