"""The evidence tools' pure core (EVIDENCE.md E1-E11): no I/O, standard library only.

Drive it with one ``session.EvidenceSession`` per MCP connection (or per
``siftui session`` run): each tool's entry (siftui.core.tools.evidence) names
the function here that answers it; ``session.<tool>(...)`` runs it, keyword
arguments in snake_case
(``None`` = the key was absent; types and ranges already checked against
``schemas.SCHEMAS``), returning the result dict in wire key order or raising
``errors.EvidenceError`` (its ``message`` is the tool error's one line).
``EvidenceSession.call(tool, arguments)`` takes the wire's camelCase keys.
Serialize with ``wire.dumps``. A failing call issues no identity.

The sources layer does the I/O and hands in plain values: page texts as
``tuple[str, ...]``, outline items as ``(level, title, page)``, the
contentVersion and title for ``pdf_open``; ``mark_stale`` when the bytes at a
document's path changed; observed ``Capability`` values for ``pdf_status``;
rendered images for ``pdf_page_render`` (``fit_dpi`` picks the dpi); an OCR
callable for ``ocr_recognize`` (called once per image, its text then kept).

Modules, each with one job:

- ``session``: ``EvidenceSession``, which runs a tool's entry function on its state.
- ``state``: counters, bounded tables, look-ups (unknown / stale / belongs).
- ``store``: ``Counters``, ``Table`` (oldest forgotten past its bound), ``Limits``.
- ``records``: what a session holds (documents, refs, searches, ...).
- ``tools_documents``: E2-E5, E8's handle, ``Capability``, ``fit_dpi``.
- ``tools_read``: E6 pdf_page_read, E10 pdf_evidence_read.
- ``tools_search``: E7 pdf_keyword_search (first call and continuations).
- ``tools_ocr``: E9's text part (kept OCR text, pieces, continuations).
- ``tools_bookmarks``: E11 with cursors.
- ``page_read``: E6's reading and warnings over page texts.
- ``search``: exact and normalized matching (``DocumentSearcher``, cached per document).
- ``normalize``: E7's normalization with the map back to original code points.
- ``joined``: a document's pages as one string, for one C-level find loop.
- ``quotes``: E10's narrowing by quote and quoted ranges.
- ``bookmarks``: E11's items from outline tuples.
- ``pages``: CONTRACT.md R3's ``pages`` syntax.
- ``utf16``: UTF-16 unit offsets and the surrogate rule.
- ``wire``: compact JSON and the OutCap rule (``fit_whole``, ``fit_largest``).
- ``schemas``: each tool's JSON input schema, by name (its entry's).
- ``errors``: ``EvidenceError``.
"""
