"""The tool entries (siftui.core.tools): whole, each family's, and their rules."""

from __future__ import annotations

from typing import Any

import pytest

from siftui.core.arguments import check_schema
from siftui.core.evidence.session import EvidenceSession
from siftui.core.tools import edit, evidence, read
from siftui.core.tools.continuation import NextCursor, Offset, ReadOn, WhileMore
from siftui.core.tools.entry import ResultLayout
from siftui.core.tools.table import (
    ENTRIES,
    FAMILIES,
    FIRST_LOGGED,
    continuation_of,
    entry_of,
    family_tools,
    logged_as,
)


def test_every_entry_is_whole_and_found_by_its_name() -> None:
    names = [entry.name for entry in ENTRIES]
    assert len(set(names)) == len(names)
    assert {entry.family for entry in ENTRIES} == {family.name for family in FAMILIES}
    for entry in ENTRIES:
        check_schema(entry.input_schema, entry.messages)
        assert entry.input_schema["additionalProperties"] is False
        assert entry.title and entry.description
        assert entry_of(entry.name) is entry
    assert entry_of("no_such_tool") is None and entry_of(None) is None
    assert (*read.READ_TOOLS, *evidence.EVIDENCE_TOOLS, *edit.EDIT_TOOLS) == ENTRIES
    assert family_tools(evidence.FAMILY.name) == evidence.EVIDENCE_TOOLS
    assert [entry.name for entry in ENTRIES if entry.logged.first] == [FIRST_LOGGED]


def test_what_the_log_makes_of_a_tool_it_does_not_know_is_nothing() -> None:
    unknown = logged_as("")
    assert not any(vars(unknown).values())
    assert continuation_of("no_such_tool") is None


def test_the_session_runs_each_entry_function_by_its_name() -> None:
    session = EvidenceSession(out_cap=10_000)
    answered = [entry for entry in evidence.EVIDENCE_TOOLS if entry.pure is not None]
    assert answered and all(entry.family == evidence.FAMILY.name for entry in answered)
    assert session.call(evidence.CURRENT.name, {}) == {"documents": []}
    assert getattr(session, evidence.CURRENT.name)() == {"documents": []}
    with pytest.raises(AttributeError):
        _ = session.no_such_tool
    with pytest.raises(KeyError):
        session.call(evidence.INFO.name, {"path": "a.pdf"})  # its handler answers alone


def test_a_page_read_goes_on_from_next_with_the_keys_it_was_sent() -> None:
    rule = ReadOn(kept=("lastPage", "maxChars"))
    sent: dict[str, Any] = {"documentId": "doc-1", "page": 1, "maxChars": 5, "quote": "x"}
    result = {"documentId": "doc-1", "next": {"page": 2, "offset": 6}}
    assert rule.next_arguments(sent, result) == {
        "documentId": "doc-1",
        "page": 2,
        "offset": 6,
        "maxChars": 5,
    }
    assert rule.next_arguments({}, result) == {"documentId": "doc-1", "page": 2, "offset": 6}
    assert rule.next_arguments(sent, {"next": None}) is None


def test_the_other_continuations() -> None:
    more = WhileMore("searchId")
    assert more.next_arguments({}, {"hasMore": True, "searchId": "search-1"}) == {
        "searchId": "search-1"
    }
    assert more.next_arguments({}, {"hasMore": 1, "searchId": "search-1"}) is None
    cursor = NextCursor()
    assert cursor.next_arguments({}, {"documentId": "doc-1", "nextCursor": "c-2"}) == {
        "documentId": "doc-1",
        "cursor": "c-2",
    }
    assert cursor.next_arguments({}, {"nextCursor": None}) is None
    offset = Offset("resultId")
    assert offset.next_arguments({}, {"resultId": "ocr-1", "nextOffset": 40}) == {
        "resultId": "ocr-1",
        "offset": 40,
    }
    assert offset.next_arguments({}, {"nextOffset": "40"}) is None


def test_the_evidence_entries_say_what_docs_evidence_md_says() -> None:
    # Staleness: every tool naming an open document's identities but pdf_status and
    # pdf_close is refused for a stale document; the others never check.
    unchecked = {evidence.INFO, evidence.OPEN, evidence.CLOSE, evidence.CURRENT, evidence.STATUS}
    for entry in evidence.EVIDENCE_TOOLS:
        assert entry.stale_checked is (entry not in unchecked), entry.name
        assert entry.logged.session and not entry.logged.document
    # MuPDF on a file's bytes: a worker process.
    assert {entry for entry in ENTRIES if entry.worker} == {
        read.READ_PDF,
        read.READ_DOCX,
        evidence.INFO,
        evidence.OPEN,
        evidence.PAGE_RENDER,
    }
    assert evidence.PAGE_READ.layout is ResultLayout.PIECES is evidence.EVIDENCE_READ.layout
    assert [e for e in ENTRIES if e.continuation is not None] == [
        evidence.PAGE_READ,
        evidence.KEYWORD_SEARCH,
        evidence.OCR,
        evidence.BOOKMARK_LIST,
        edit.ANNOTATION_LIST,
    ]
