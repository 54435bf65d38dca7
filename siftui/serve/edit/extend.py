"""pdf_status and pdf_current as a host serves them with the edit family (EDITING.md).

pdf_status gains ``revision``, ``unsaved`` and ``reader`` after ``pages``, and the
capabilities ``annotate``, ``bookmarkEdit``, ``formFill``, ``save`` and ``pageJump``;
pdf_current gains ``tabs`` after ``documents``: the reader's tabs in order, each
with the session's documentId for its file (null when the session has not opened
it). Without a reader: ``"reader": false``, ``"tabs": []``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from siftui.core.evidence.state import SessionState
from siftui.core.evidence.tools_documents import Capability
from siftui.core.evidence.wire import fit_whole
from siftui.serve.edit.held import HeldCopies, NotAPdf
from siftui.serve.edit.jump import NO_READER
from siftui.serve.edit.state import EditHost
from siftui.serve.evidence.connection import NO_PAGE_IMAGES

NOT_YET = Capability(False, False, "not served by this host yet")


def _draft(state: SessionState, held: HeldCopies, document_id: str) -> tuple[int, bool]:
    """The revision of the document's working copy and whether its draft holds changes."""
    document = state.known_document(document_id)
    if document.stale:  # its copy is of other bytes: as the host holds it, if it does
        copy = held.edit.copies.get(document.real_path)
        return (copy.revision, copy.unsaved) if copy is not None else (0, False)
    copy = held.copy(document_id)
    return copy.revision, copy.unsaved


def with_status(
    state: SessionState, held: HeldCopies, host: EditHost, result: Mapping[str, Any]
) -> dict[str, object]:
    """E5's ``result`` with what the edit family adds."""
    document_id = str(result["documentId"])
    reader = host.reader is not None
    capabilities = dict(result["capabilities"])
    from_json = capabilities.get("pageRender", {}).get("reason") == NO_PAGE_IMAGES
    why_not = NO_PAGE_IMAGES if from_json else None
    revision, unsaved = 0, False
    if why_not is None:
        try:
            revision, unsaved = _draft(state, held, document_id)
        except NotAPdf as error:
            why_not = error.message
    editing = Capability(True, True) if why_not is None else Capability(True, False, why_not)
    without = Capability(True, False, NO_READER)
    added = {
        "annotate": editing,
        "bookmarkEdit": editing,
        "formFill": editing,
        "save": editing if why_not is not None else Capability(True, True) if reader else without,
        "pageJump": Capability(True, True) if reader else without,
    }
    capabilities.update({name: found.as_wire() for name, found in added.items()})
    extended: dict[str, object] = {}
    for key, value in result.items():
        extended[key] = capabilities if key == "capabilities" else value
        if key == "pages":
            extended.update({"revision": revision, "unsaved": unsaved, "reader": reader})
    return fit_whole(extended, state.budget)


def with_tabs(state: SessionState, host: EditHost, result: Mapping[str, Any]) -> dict[str, object]:
    """E4's ``result`` with the reader's tabs after ``documents``."""
    reader = host.reader
    tabs = []
    for tab in reader.tabs() if reader is not None else ():
        document_id = next(
            (
                document.document_id
                for document in state.documents.values()
                if document.real_path == tab.path and not document.stale
            ),
            None,
        )
        tabs.append(
            {"tabId": tab.tab_id, "path": tab.path, "documentId": document_id, "page": tab.page}
        )
    extended: dict[str, object] = {}
    for key, value in result.items():
        extended[key] = value
        if key == "documents":
            extended["tabs"] = tabs
    return fit_whole(extended, state.budget)
