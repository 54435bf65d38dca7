"""A real evidence session logged by the server's own host, for the replay's re-run tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from siftui.serve.access import Roots
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import ServedOptions
from siftui.sources.log.calllog import CallLog

CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("pdf_open", {"path": "PDF"}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 1, "lastPage": 2, "maxChars": 400}),
    ("pdf_keyword_search", {"documentId": "doc-1", "query": "the", "maxResults": 2}),
    ("pdf_keyword_search", {"searchId": "search-1"}),
    ("pdf_page_read", {"documentId": "doc-1", "page": 999}),  # refused
    ("pdf_page_render", {"documentId": "doc-1", "page": 1, "dpi": 36}),
    ("pdf_bookmark_list", {"documentId": "doc-1", "limit": 2}),
)
"""The session's calls (``PDF``: the file's name); call 5 is refused."""


def log_session(
    pdf: Path, log: Path, options: ServedOptions | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """``CALLS`` on ``pdf`` (rooted at its folder) through a ToolHost logging to ``log``,
    as ``siftui mcp --tools evidence --log`` would (``options``: the host's OutCap, unit,
    ...); the calls made."""
    calls = [
        (tool, {**arguments, "path": pdf.name} if "path" in arguments else arguments)
        for tool, arguments in CALLS
    ]
    call_log = CallLog(log)
    host = ToolHost(
        Roots([pdf.parent]), options or ServedOptions(), log=call_log, families={"evidence"}
    )
    try:
        for tool, arguments in calls:
            host.call(arguments, tool)
    finally:
        host.shutdown()
        call_log.close()
    return calls


def tamper(log: Path, number: int) -> None:
    """Change one character of call ``number``'s logged result text (its sha256 kept)."""
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    entry = json.loads(lines[number - 1])
    text = entry["result"]["text"]
    entry["result"]["text"] = text.replace("e", "E", 1)
    assert entry["result"]["text"] != text
    lines[number - 1] = json.dumps(entry, ensure_ascii=False) + "\n"
    log.write_text("".join(lines), encoding="utf-8")
