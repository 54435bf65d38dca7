"""An unknown id is repeated in its error at most 200 characters, escaped: a
900,000-character documentId answered 900,025 characters under
--outcap 2000, and the log kept each such line whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.pdfs import make_pdf

from siftui.core.arguments import MAX_QUOTED
from siftui.serve.access import Roots
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import ServedOptions, Session
from siftui.sources.log.calllog import CallLog

HUGE = "x" * 900_000


@pytest.mark.parametrize(
    ("tool", "arguments", "name"),
    [
        ("pdf_page_read", {"documentId": HUGE, "page": 1}, "documentId"),
        ("pdf_evidence_read", {"documentId": "doc-1", "refId": HUGE}, "refId"),
        ("pdf_keyword_search", {"searchId": HUGE}, "searchId"),
        ("pdf_bookmark_list", {"documentId": "doc-1", "cursor": HUGE}, "cursor"),
        ("ocr_recognize", {"resultId": HUGE, "offset": 0}, "resultId"),
        ("ocr_recognize", {"imageHandle": HUGE}, "imageHandle"),
    ],
)
def test_an_unknown_id_is_echoed_bounded(
    tmp_path: Path, tool: str, arguments: dict[str, Any], name: str
) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["alpha beta"])
    log_path = tmp_path / "calls.jsonl"
    log = CallLog(log_path)
    host = ToolHost(Roots([tmp_path]), ServedOptions(out_cap=2000), log=log, families={"evidence"})
    session = Session()
    try:
        opened = host.call({"path": pdf.name}, "pdf_open", session)
        assert not opened.is_error
        answer = host.call(arguments, tool, session)
    finally:
        host.shutdown()
        log.close()
    assert answer.is_error
    message = answer.message
    assert message.startswith(f'unknown {name} "{"x" * MAX_QUOTED}… (900000 characters)"')
    assert len(message) < 2000
    assert max(len(line) for line in log_path.read_bytes().splitlines()) < 10_000
    assert json.loads(log_path.read_bytes().splitlines()[-1])["message"] == message
