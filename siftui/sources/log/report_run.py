"""`siftui log FILE --report`: load what the calls read, then print the report.

The I/O half of siftui.sources.log.report: each document the log names is loaded (through
the extraction cache) only when the file is still there with the sha256 the log
recorded, so the figures are about the very text the agent was given.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from siftui.core.doc import Doc
from siftui.core.tools.table import FIRST_LOGGED, logged_as
from siftui.sources.filehash import file_sha256
from siftui.sources.load import LoadError, load_doc_report
from siftui.sources.log.calllog import LogEntry
from siftui.sources.log.evidence_report import evidence_json, evidence_lines, evidence_report
from siftui.sources.log.report import report, report_json
from siftui.sources.log.report_text import report_text
from siftui.sources.output import encode_utf8


def documents_of(entries: Sequence[LogEntry]) -> dict[str, Doc]:
    """sha256 -> Doc for every logged file still on disk with the same bytes."""
    docs: dict[str, Doc] = {}
    tried: set[tuple[str, str]] = set()
    for entry in entries:
        if entry.sha256 is None or entry.sha256 in docs or (entry.path, entry.sha256) in tried:
            continue
        if not logged_as(getattr(entry, "tool", FIRST_LOGGED)).pages:
            continue  # pages read are counted for PDFs only
        tried.add((entry.path, entry.sha256))
        try:
            if file_sha256(entry.path) != entry.sha256:
                continue  # changed since: its text is not what the agent read
            docs[entry.sha256] = load_doc_report(entry.path).doc
        except (OSError, LoadError):
            continue  # gone or unreadable: the report says what it cannot count
    return docs


def print_report(
    entries: Sequence[LogEntry], *, as_json: bool, write: Callable[[bytes], None]
) -> int:
    found = report(entries, documents_of(entries))
    sessions = evidence_report(entries)
    if as_json:
        data = report_json(found)
        if sessions:
            data["evidence_sessions"] = evidence_json(sessions)
        text = json.dumps(data, ensure_ascii=False)
    else:
        text = report_text(found) + "".join(line + "\n" for line in evidence_lines(sessions))
    write(encode_utf8(text))
    return 0
