"""EVIDENCE.md's worked example, byte for byte."""

from __future__ import annotations

import json

from support.evidence_session import WORKED_VERSION, open_session, wire

from siftui.core.evidence.wire import dumps


def test_page_read_of_the_worked_example_is_exact() -> None:
    session = open_session()
    result = session.call(
        "pdf_page_read", {"documentId": "doc-1", "page": 1, "lastPage": 3, "maxChars": 18}
    )
    assert dumps(result) == (
        '{"documentId":"doc-1","contentVersion":"' + WORKED_VERSION + '","pages":'
        '[{"page":1,"start":0,"end":11,"text":"Alpha beta\\n","refId":"ref-1"},'
        '{"page":2,"start":0,"end":6,"text":"gamma ","refId":"ref-2"}],'
        '"next":{"page":2,"offset":6},"units":17}'
    )


def test_searches_and_range_of_the_worked_example() -> None:
    session = open_session()
    exact = wire(session.call("pdf_keyword_search", {"documentId": "doc-1", "query": "beta"}))
    assert exact["total"] == 2
    assert [(h["page"], h["start"], h["end"], h["before"], h["after"]) for h in exact["hits"]] == [
        (1, 6, 10, "Alpha ", "\n"),
        (3, 0, 4, "", "-\nend\n"),
    ]
    normalized = wire(
        session.call(
            "pdf_keyword_search",
            {"documentId": "doc-1", "query": "BETAEND", "match": "normalized"},
        )
    )
    assert normalized["total"] == 1
    hit = normalized["hits"][0]
    assert (hit["page"], hit["start"], hit["end"], hit["text"]) == (3, 0, 9, "beta-\nend")
    ranged = session.call(
        "pdf_evidence_read",
        {
            "documentId": "doc-1",
            "range": {"start": {"page": 1, "quote": "beta"}, "end": {"page": 2, "quote": "gamma"}},
        },
    )
    assert ranged["pages"] == [
        {"page": 1, "start": 6, "end": 11, "text": "beta\n"},
        {"page": 2, "start": 0, "end": 5, "text": "gamma"},
    ]
    assert ranged["units"] == 10
    assert list(json.loads(dumps(ranged))) == [
        "refId",
        "documentId",
        "contentVersion",
        "source",
        "pages",
        "units",
    ]
