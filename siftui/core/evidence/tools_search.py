"""E7 pdf_keyword_search: a first call finds every match, continuations page through them."""

from __future__ import annotations

from siftui.core.arguments import echoed
from siftui.core.evidence.errors import EvidenceError
from siftui.core.evidence.page_read import Piece
from siftui.core.evidence.pages import parse_pages
from siftui.core.evidence.records import Document, Search
from siftui.core.evidence.search import MATCH_KINDS, normalized_query
from siftui.core.evidence.state import SessionState
from siftui.core.evidence.wire import fit_largest

__all__ = ["DEFAULT_MAX_RESULTS", "keyword_search"]

DEFAULT_MAX_RESULTS = 20


def keyword_search(
    state: SessionState,
    *,
    document_id: str | None = None,
    query: str | None = None,
    pages: str | None = None,
    match: str | None = None,
    max_results: int | None = None,
    search_id: str | None = None,
) -> dict[str, object]:
    """E7: ``search_id`` alone continues; otherwise a first call (documentId, query, ...)."""
    if search_id is not None:
        if any(value is not None for value in (document_id, query, pages, match, max_results)):
            raise EvidenceError("a continuation takes {searchId} alone")
        search = state.searches.get(search_id)
        if search is None:
            raise EvidenceError(
                f'unknown searchId "{echoed(search_id)}": search again with pdf_keyword_search'
            )
        document = state.document(search.document_id)
        if search.position >= search.total:
            raise EvidenceError(f"{search_id} has no more results")
        return _answer(state, document, search_id, search)
    if document_id is None:
        raise EvidenceError('missing argument "documentId"')
    if query is None:
        raise EvidenceError('missing argument "query"')
    document = state.document(document_id)
    kind = "exact" if match is None else match
    if kind not in MATCH_KINDS:
        raise EvidenceError('argument "match" must be "exact" or "normalized"')
    folded = normalized_query(query) if kind == "normalized" else query
    numbers = parse_pages(pages, len(document.texts))
    search = Search(
        document_id,
        query,
        kind,
        folded,
        numbers,
        document.searcher.count(kind, numbers, folded),
        DEFAULT_MAX_RESULTS if max_results is None else max_results,
        resume=(numbers.start, 0),
    )
    result = _answer(state, document, state.counters.peek("search"), search)
    state.searches.put(state.counters.issue("search"), search)
    return result


def _answer(
    state: SessionState, document: Document, search_id: str, search: Search
) -> dict[str, object]:
    """The next hits that fit; only then are their refIds issued and the position moved."""
    left = search.total - search.position
    searcher = document.searcher
    units_of = searcher.exact_units if search.match == "exact" else searcher.normalized_units
    most = min(search.max_results, left)
    matches = searcher.find_from(search.match, search.pages, search.searched, search.resume, most)

    def build(count: int) -> dict[str, object]:
        hits = []
        for index, found in enumerate(matches[:count]):
            hit = searcher.hit(units_of(found))
            hits.append(
                {
                    "page": hit.page,
                    "start": hit.start,
                    "end": hit.end,
                    "text": hit.text,
                    "before": hit.before,
                    "after": hit.after,
                    "refId": state.counters.peek("ref", index),
                }
            )
        return {
            "searchId": search_id,
            "query": search.query,
            "match": search.match,
            "total": search.total,
            "hits": hits,
            "hasMore": search.position + count < search.total,
        }

    result = fit_largest(build, most, state.budget, least=min(1, most))
    hits = result["hits"]
    assert isinstance(hits, list)
    for hit in hits:
        piece = Piece(hit["page"], hit["start"], hit["end"], hit["text"])
        state.issue_ref(document.document_id, (piece,))
    search.position += len(hits)
    if hits:
        page, _, end = matches[len(hits) - 1]
        search.resume = (page, end)
    return result
