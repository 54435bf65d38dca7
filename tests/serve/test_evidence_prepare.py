"""Normalized texts built in the background after pdf_open: ready before the first
search, the same bytes when a search comes first, cancelled on close and forget."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.evidence_host import connect, said, text_of

from siftui.core.doc import Doc
from siftui.core.docjson import doc_to_json
from siftui.core.evidence.store import Limits
from siftui.serve.docstore import DocStore
from siftui.serve.evidence.connection import EvidenceConnection
from siftui.serve.limits import StoreLimits

NORMALIZED = {"documentId": "doc-1", "query": "SOFTHYPHEN FINE ÉTÉ", "match": "normalized"}


@pytest.fixture
def store() -> Iterator[DocStore]:
    made = DocStore(StoreLimits(workers=1))
    yield made
    made.shutdown()


def long_doc(folder: Path, name: str, pages: int) -> Path:
    """Pages of mixed text: hyphenated line ends, soft hyphens, ligatures, white space."""
    texts = tuple(
        f"Page {n}: soft\u00adhy-\n  phen ﬁne   ÉTÉ text\n" * 40 + f"end {n}\n"
        for n in range(1, pages + 1)
    )
    path = folder / name
    path.write_text(doc_to_json(Doc("Long", pages, texts)), encoding="utf-8")
    return path


def until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the background work did not end"
        time.sleep(0.01)


def evidence_of(driver: object) -> EvidenceConnection:
    found = driver.session.state["evidence"]  # type: ignore[attr-defined]
    assert isinstance(found, EvidenceConnection)
    return found


def test_texts_are_built_after_open_before_any_search(tmp_path: Path, store: DocStore) -> None:
    long_doc(tmp_path, "long.json", 200)
    driver = connect(tmp_path, store)
    text_of(driver, "pdf_open", {"path": "long.json"})
    connection = evidence_of(driver)
    document = connection.session.documents.get("doc-1")
    assert document is not None
    until(lambda: connection.preparations.idle())
    assert document.searcher.prepared
    assert connection.preparations.pending() == ()


def test_a_search_that_comes_first_gives_the_same_bytes(tmp_path: Path, store: DocStore) -> None:
    long_doc(tmp_path, "long.json", 300)
    at_once, later = connect(tmp_path, store), connect(tmp_path, store)
    text_of(at_once, "pdf_open", {"path": "long.json"})
    first = text_of(at_once, "pdf_keyword_search", NORMALIZED)
    assert evidence_of(at_once).preparations.pending() == ()
    text_of(later, "pdf_open", {"path": "long.json"})
    until(lambda: evidence_of(later).preparations.idle())
    assert text_of(later, "pdf_keyword_search", NORMALIZED) == first
    assert '"total":12000' in first
    ranged = {**NORMALIZED, "pages": "2-3"}
    assert text_of(at_once, "pdf_keyword_search", ranged) == (
        text_of(later, "pdf_keyword_search", ranged)
    )


def test_closing_or_forgetting_a_document_cancels_its_work(tmp_path: Path, store: DocStore) -> None:
    long_doc(tmp_path, "a.json", 1500)
    long_doc(tmp_path, "b.json", 1500)
    long_doc(tmp_path, "c.json", 10)
    driver = connect(tmp_path, store, limits=Limits(documents=1))
    connection = evidence_of(driver)
    text_of(driver, "pdf_open", {"path": "a.json"})
    text_of(driver, "pdf_open", {"path": "b.json"})  # a.json is forgotten: the bound is 1
    assert connection.preparations.pending() == ("doc-2",)
    document = connection.session.documents.get("doc-2")
    assert document is not None
    text_of(driver, "pdf_close", {"documentId": "doc-2"})
    assert connection.preparations.pending() == ()
    until(lambda: connection.preparations.idle())
    assert not document.searcher.prepared  # stopped between two pages
    text_of(driver, "pdf_open", {"path": "c.json"})
    until(lambda: connection.preparations.idle())
    assert connection.preparations.pending() == ()
    assert said(driver.call("pdf_keyword_search", {**NORMALIZED, "documentId": "doc-1"})) == (
        'unknown documentId "doc-1"'
    )
