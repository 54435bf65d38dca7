"""The edit family in the tool table: each entry of siftui.core.tools.edit served.

Each handler runs on the session's evidence connection (its documents,
references, cursors and identities: siftui.serve.evidence.tools.connection_of),
the working copies the session holds (siftui.serve.edit.held) and the host's
:class:`siftui.serve.edit.state.EditHost` (the reader attached, if any). The
pure tools of siftui.core.edit do the work; the result is sent as the evidence
tools' are, so `siftui session --tools evidence,edit` prints what is served.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, TypeVar

from siftui.core.edit import tools_annotations, tools_forms, tools_list, tools_outline
from siftui.core.edit.copy import EditableCopy
from siftui.core.edit.placement import PageGlyphs
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.session import python_name
from siftui.core.evidence.state import SessionState
from siftui.core.tools import edit, evidence
from siftui.core.tools.entry import ToolEntry
from siftui.serve.edit.approval import await_decision
from siftui.serve.edit.extend import with_status, with_tabs
from siftui.serve.edit.held import HeldCopies, NotAPdf
from siftui.serve.edit.jump import page_jump
from siftui.serve.edit.reader_link import ReaderAway, ReaderLink
from siftui.serve.edit.state import EditHost
from siftui.serve.evidence.connection import Called, EvidenceConnection
from siftui.serve.evidence.tools import connection_of
from siftui.serve.tool_api import ImageBlock, ServedTool, ToolAnswer, ToolCall
from siftui.serve.worker import Progress

NO_READER_TO_APPROVE = (
    "saving needs a person's approval in siftui reader; none is attached (the draft is kept)"
)


@dataclass(frozen=True)
class EditCall:
    """What an edit tool works with: the session's state and copies, the host's."""

    tool: str
    state: SessionState
    held: HeldCopies
    host: EditHost
    progress: Progress | None


EditWork = Callable[[EditCall, Mapping[str, Any]], dict[str, object]]
Asked = TypeVar("Asked")
Extension = Callable[[EvidenceConnection, EditCall, Mapping[str, Any], Called], dict[str, object]]


def held_copies(call: ToolCall, connection: EvidenceConnection) -> HeldCopies:
    """The session's working copies, started at its first edit call."""
    found = call.session.state.get(edit.FAMILY.name)
    if not isinstance(found, HeldCopies) or found.connection is not connection:
        found = HeldCopies(call.settings.edit, call.settings.roots, connection)
        call.session.state[edit.FAMILY.name] = found
    return found


def _bound(entry: ToolEntry, extension: Extension, *, waits_for_person: bool = False) -> ServedTool:
    """``entry`` served on the session's connection and copies by ``extension``."""

    def handle(call: ToolCall) -> ToolAnswer:
        arguments = {key: value for key, value in call.arguments.items() if key in call.given}
        with call.session.lock:
            connection = connection_of(call.session, call.settings)
            held = held_copies(call, connection)
            doing = EditCall(
                entry.name, connection.session, held, call.settings.edit, call.progress
            )

            def run(
                done_by: EvidenceConnection, given: Mapping[str, Any], called: Called
            ) -> Mapping[str, Any]:
                return extension(done_by, doing, given, called)

            return connection.run(entry, arguments, call.facts, run)

    return ServedTool(entry, handle, refusals=(EvidenceError,), waits_for_person=waits_for_person)


def _served(entry: ToolEntry, work: EditWork, *, waits_for_person: bool = False) -> ServedTool:
    def extension(
        _: EvidenceConnection, doing: EditCall, given: Mapping[str, Any], called: Called
    ) -> dict[str, object]:
        return work(doing, given)

    return _bound(entry, extension, waits_for_person=waits_for_person)


def _keywords(arguments: Mapping[str, Any]) -> dict[str, Any]:
    return {python_name(key): value for key, value in arguments.items() if key != "documentId"}


def _list(call: EditCall, arguments: Mapping[str, Any]) -> dict[str, object]:
    document_id = arguments["documentId"]
    copy = call.held.copy(document_id)
    return tools_list.annotation_list(call.state, copy, document_id, **_keywords(arguments))


def _writing(write: Callable[..., dict[str, object]]) -> EditWork:
    def work(call: EditCall, arguments: Mapping[str, Any]) -> dict[str, object]:
        document_id = arguments["documentId"]
        copy = call.held.copy(document_id)
        return write(call.state, copy, document_id, **_keywords(arguments), tool=call.tool)

    return work


def _asking(
    asked: Callable[[Mapping[str, Any], str], Asked],
    write: Callable[[SessionState, EditableCopy, str, Asked], dict[str, object]],
) -> EditWork:
    """A write whose checked arguments (documentId aside) travel as one value."""

    def work(call: EditCall, arguments: Mapping[str, Any]) -> dict[str, object]:
        document_id = arguments["documentId"]
        copy = call.held.copy(document_id)
        return write(call.state, copy, document_id, asked(arguments, call.tool))

    return work


def _forms(call: EditCall, document_id: str) -> tools_forms.FormCopy:
    from siftui.sources.edit.forms_copy import FormsOf  # MuPDF: loaded once a session edits

    return FormsOf(call.held.copy(document_id))


def _inspect(
    _: EvidenceConnection, doing: EditCall, given: Mapping[str, Any], called: Called
) -> dict[str, object]:
    document_id = given["documentId"]
    doing.state.document(document_id)
    png, result = tools_forms.form_inspect(
        doing.state,
        _forms(doing, document_id),
        doing.held.inspections,
        document_id,
        **_keywords(given),
    )
    called.blocks.append(ImageBlock(png))
    return result


def _fill(call: EditCall, arguments: Mapping[str, Any]) -> dict[str, object]:
    inspection = call.held.inspections.get(arguments["inspectionId"])
    return tools_forms.form_fill(
        call.state,
        _forms(call, inspection.document_id),
        call.held.inspections,
        arguments["inspectionId"],
        tools_forms.Fill.asked(arguments, call.tool),
    )


def _save(call: EditCall, arguments: Mapping[str, Any]) -> dict[str, object]:
    document_id, expected = arguments["documentId"], arguments["expectedRevision"]
    document = call.state.document(document_id)
    copy = call.held.copy(document_id)
    reader = call.host.reader
    if reader is None:
        raise EvidenceError(NO_READER_TO_APPROVE)
    copy.check(expected)
    if not copy.unsaved:
        raise EvidenceError("nothing to save: the draft has no changes")
    timeout = call.host.approval_timeout
    try:
        decision = reader.ask_save(document.real_path, expected, timeout)
    except ReaderAway:
        raise EvidenceError(NO_READER_TO_APPROVE) from None
    refused = await_decision(decision, timeout, call.progress)
    if refused is not None:
        raise EvidenceError(refused)
    try:
        saved = copy.save(expected, shown_path=document.path)
    except EvidenceError as error:
        _tell(reader, document.real_path, error.message, saved=False)
        raise
    except Exception:
        _tell(reader, document.real_path, "the save failed (the draft is kept)", saved=False)
        raise
    _tell(reader, document.real_path, f"{saved.bytes:,} bytes, revision {saved.revision}", True)
    return {
        "documentId": document_id,
        "revision": saved.revision,
        "saved": True,
        "contentVersion": saved.content_version,
        "bytes": saved.bytes,
    }


def _tell(reader: ReaderLink, path: str, outcome: str, saved: bool) -> None:
    """The approved save's outcome, told to the person (who may have closed the reader)."""
    with suppress(ReaderAway):
        reader.save_ended(path, outcome, saved)


def _jump(call: EditCall, arguments: Mapping[str, Any]) -> dict[str, object]:
    def glyphs(page: int) -> PageGlyphs:
        return call.held.copy(arguments["documentId"]).glyphs(page)

    return page_jump(call.state, call.host.reader, arguments, glyphs)


EDIT_TOOLS: tuple[ServedTool, ...] = (
    _served(edit.ANNOTATION_LIST, _list),
    _served(
        edit.ANNOTATION_CREATE,
        _asking(tools_annotations.Create.asked, tools_annotations.annotation_create),
    ),
    _served(
        edit.ANNOTATION_UPDATE,
        _asking(tools_annotations.Update.asked, tools_annotations.annotation_update),
    ),
    _served(edit.ANNOTATION_DELETE, _writing(tools_annotations.annotation_delete)),
    _served(edit.BOOKMARK_EDIT, _writing(tools_outline.bookmark_edit)),
    _bound(edit.FORM_INSPECT, _inspect),
    _served(edit.FORM_FILL, _fill),
    _served(edit.SAVE, _save, waits_for_person=True),
    _served(edit.PAGE_JUMP, _jump),
)
"""E12-E20, in their entries' order (siftui.core.tools.edit.EDIT_TOOLS)."""


def _status(
    connection: EvidenceConnection, doing: EditCall, given: Mapping[str, Any], called: Called
) -> dict[str, object]:
    result = connection.status(given, called)
    return with_status(doing.state, doing.held, doing.host, result)


def _current(
    connection: EvidenceConnection, doing: EditCall, given: Mapping[str, Any], called: Called
) -> dict[str, object]:
    return with_tabs(doing.state, doing.host, connection.session.call(called.tool, given))


def _close(
    connection: EvidenceConnection, doing: EditCall, given: Mapping[str, Any], called: Called
) -> dict[str, object]:
    result = connection.session.call(called.tool, given)
    doing.held.release_closed()
    return result


def _bookmarks(
    connection: EvidenceConnection, doing: EditCall, given: Mapping[str, Any], called: Called
) -> dict[str, object]:
    """E11 lists the draft's outline; a document read from a Doc JSON, or one MuPDF read
    that is not a PDF, has no draft: its own outline, as the evidence family lists it."""
    document_id = given["documentId"]
    if connection.is_pdf(document_id):
        try:
            copy = doing.held.copy(document_id)
        except NotAPdf:
            pass
        else:
            return tools_outline.bookmark_list(doing.state, copy, document_id, **_keywords(given))
    return dict(connection.session.call(called.tool, given))


EXTENDED_TOOLS: tuple[ServedTool, ...] = (
    _bound(evidence.STATUS, _status),
    _bound(evidence.CURRENT, _current),
    _bound(evidence.CLOSE, _close),
    _bound(evidence.BOOKMARK_LIST, _bookmarks),
)
"""The evidence family's tools as a host with the edit family serves them (E4's tabs,
E5's revision, draft, reader and edit capabilities; E3's close lets go of the closed
document's working copy; E11 lists the draft's outline): they take the place of the
evidence family's own when both families are served."""
