"""Each tool entry (siftui.core.tools) is served once, bound to a handler, and what its
entry says of it holds when it runs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.docx_build import p, t, write_docx
from support.pdfs import make_pdf

from siftui.core.tools import edit, evidence, read
from siftui.core.tools.entry import ToolEntry
from siftui.core.tools.table import ENTRIES
from siftui.serve.access import Roots
from siftui.serve.docstore import DocStore
from siftui.serve.edit.state import EditHost
from siftui.serve.host import ToolHost
from siftui.serve.limits import StoreLimits
from siftui.serve.tool_api import ServedOptions, Session
from siftui.serve.tools import TOOLS
from siftui.sources.edit.drafts import DraftStore


def test_every_entry_is_served_once_in_the_tables_order() -> None:
    assert [tool.entry for tool in TOOLS] == list(ENTRIES)


@pytest.fixture
def store() -> Iterator[DocStore]:
    made = DocStore(StoreLimits(workers=1))
    yield made
    made.shutdown()


def test_a_tool_runs_in_a_worker_when_its_entry_says_so(
    tmp_path: Path, store: DocStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the tools whose entry says ``worker`` hand the file to the store's workers."""
    make_pdf(tmp_path / "a.pdf", ["alpha beta", "gamma"])
    write_docx(tmp_path / "w.docx", p(t("a paragraph")))
    handed: list[str] = []
    for method in ("get", "run_task"):
        real = getattr(store, method)

        def spy(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            handed.append("store")
            return _real(*args, **kwargs)

        monkeypatch.setattr(store, method, spy)
    drafts = EditHost(drafts=DraftStore(tmp_path / "drafts"))
    families = {"read", "evidence", "edit"}
    host = ToolHost(
        Roots([tmp_path]),
        ServedOptions(out_cap=100_000),
        store=store,
        families=families,
        edit=drafts,
    )
    region = {"kind": "pdf-region", "page": 1, "rectPdf": [10, 10, 60, 60]}
    session = Session()
    calls: list[tuple[ToolEntry, dict[str, Any]]] = [
        (read.READ_PDF, {"path": "a.pdf"}),
        (read.READ_DOCX, {"path": "w.docx"}),
        (evidence.INFO, {"path": "a.pdf"}),
        (evidence.OPEN, {"path": "a.pdf"}),
        (evidence.CURRENT, {}),
        (evidence.STATUS, {"documentId": "doc-1"}),
        (evidence.PAGE_READ, {"documentId": "doc-1", "page": 1}),
        (evidence.KEYWORD_SEARCH, {"documentId": "doc-1", "query": "beta"}),
        (evidence.EVIDENCE_READ, {"documentId": "doc-1", "refId": "ref-1"}),
        (evidence.BOOKMARK_LIST, {"documentId": "doc-1"}),
        (evidence.PAGE_RENDER, {"documentId": "doc-1", "page": 1, "dpi": 36}),
        (evidence.OCR, {"imageHandle": "img-1"}),
        (edit.ANNOTATION_LIST, {"documentId": "doc-1"}),
        (
            edit.ANNOTATION_CREATE,
            {"documentId": "doc-1", "expectedRevision": 0, "subtype": "Text", "target": region},
        ),
        (
            edit.ANNOTATION_UPDATE,
            {
                "documentId": "doc-1",
                "expectedRevision": 1,
                "annotationId": "siftui-1-1",
                "comment": "x",
            },
        ),
        (
            edit.ANNOTATION_DELETE,
            {"documentId": "doc-1", "expectedRevision": 2, "annotationId": "siftui-1-1"},
        ),
        (
            edit.BOOKMARK_EDIT,
            {
                "documentId": "doc-1",
                "expectedRevision": 3,
                "operations": [{"op": "outline-add", "title": "One", "page": 1}],
            },
        ),
        (edit.FORM_INSPECT, {"documentId": "doc-1", "page": 1}),
        (
            edit.FORM_FILL,
            {
                "inspectionId": "insp-1",
                "expectedRevision": 4,
                "fields": [{"label": "F1", "value": ""}],
            },
        ),
        (edit.SAVE, {"documentId": "doc-1", "expectedRevision": 3}),
        (edit.PAGE_JUMP, {"documentId": "doc-1", "page": 1}),
        (evidence.CLOSE, {"documentId": "doc-1"}),
    ]
    # OCR needs Tesseract; a save and a jump need a reader; a page without fields has no
    # label to fill: their refusals are their lines.
    refused = {evidence.OCR, edit.FORM_FILL, edit.SAVE, edit.PAGE_JUMP}
    assert {entry for entry, _ in calls} == set(ENTRIES)
    for entry, arguments in calls:
        handed.clear()
        answer = host.call(arguments, entry.name, session)
        if entry not in refused:
            assert not answer.is_error, (entry.name, answer.message)
        assert bool(handed) is entry.worker, entry.name
