"""How an agent used the evidence tools, per session, from a call log.

What a host needs to tune its agent: searches whose ``hasMore`` was never
followed (hits never seen: a tool whose continuation is
:class:`~siftui.core.tools.continuation.WhileMore`), page reads whose ``next``
was never followed (text never read: :class:`~siftui.core.tools.continuation.ReadOn`),
evidence reads refused and whether the next one worked (a tool whose entry
lists its refusals),
identities used that were unknown or stale, the same call made again, and the
writes refused for a stale revision (EDITING.md) with whether the agent listed
before it wrote again. Calls are numbered as the log's lines are (every tool counts).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from siftui.core.json_text import json_or_none
from siftui.core.tools.continuation import ReadOn, WhileMore
from siftui.core.tools.table import continuation_of, entry_of, logged_as
from siftui.sources.log.calllog import LogEntry

_STALE_REVISION = re.compile(r"^revision is \d+, not \d+: list again")
_IDENTITY = re.compile(
    r'^unknown (?:documentId|refId|searchId|cursor|imageHandle|resultId) "|^\S+ is stale: '
)


def is_evidence(entry: LogEntry) -> bool:
    """Whether ``entry`` is a call of a session's tool (the report follows it per session)."""
    return logged_as(entry.tool).session


@dataclass
class SessionUse:
    """One session's evidence calls and what they left undone."""

    session: int | None
    calls: list[int] = field(default_factory=list)
    process: int | None = None  # named when the log holds sessions of several servers
    searches_left: list[tuple[int, str, int]] = field(default_factory=list)  # call, id, unseen
    reads_left: list[tuple[int, str, int, int]] = field(default_factory=list)  # call, doc, p, off
    refused_reads: list[tuple[int, str, int | None]] = field(default_factory=list)  # fixed by
    identities: list[tuple[int, str]] = field(default_factory=list)
    repeated: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    stale_writes: list[tuple[int, str, StaleRetry]] = field(default_factory=list)


@dataclass(frozen=True)
class StaleRetry:
    """What the session did after a write refused for a stale revision: its next write
    (``None``: none came) and whether a read-only call came between them."""

    next_write: int | None
    listed_first: bool

    def words(self) -> str:
        if self.next_write is None:
            return "no later write"
        how = "listed first" if self.listed_first else "did not list first"
        return f"next write call {self.next_write}, {how}"


def _is_write(entry: LogEntry) -> bool:
    return "expectedRevision" in _arguments(entry)


def _retry(later: Sequence[tuple[int, LogEntry]]) -> StaleRetry:
    listed = False
    for number, entry in later:
        if _is_write(entry):
            return StaleRetry(number, listed)
        tool = entry_of(entry.tool)
        listed = listed or (tool is not None and tool.read_only)
    return StaleRetry(None, listed)


def _result(entry: LogEntry) -> dict[str, Any] | None:
    if entry.result is None:
        return None
    value = json_or_none(entry.result.text)  # a log's text may be no JSON Python reads
    return value if isinstance(value, dict) else None


def _arguments(entry: LogEntry) -> dict[str, Any]:
    return entry.arguments if isinstance(entry.arguments, dict) else {}


def evidence_report(entries: Sequence[LogEntry]) -> tuple[SessionUse, ...]:
    """One use per session, told by its server process and number: servers that share a
    log number their sessions alike."""
    Key = tuple[int | None, int | None]
    sessions: dict[Key, SessionUse] = {}
    numbered: dict[Key, list[tuple[int, LogEntry]]] = {}
    for number, entry in enumerate(entries, start=1):
        if is_evidence(entry):
            key = (entry.process, entry.session)
            use = sessions.setdefault(key, SessionUse(entry.session))
            use.calls.append(number)
            numbered.setdefault(key, []).append((number, entry))
    several = len({process for process, _ in sessions}) > 1
    for key, calls in numbered.items():
        sessions[key].process = key[0] if several else None
        _fill(sessions[key], calls)
    return tuple(sessions.values())


def _fill(use: SessionUse, calls: list[tuple[int, LogEntry]]) -> None:
    open_searches: dict[str, tuple[int, int, int]] = {}  # id -> (first call, seen, total)
    open_reads: dict[tuple[str, int, int], int] = {}  # (doc, page, offset) -> call
    seen: dict[str, list[int]] = {}
    for index, (number, entry) in enumerate(calls):
        arguments = _arguments(entry)
        key = f"{entry.tool} {json.dumps(arguments, sort_keys=True, ensure_ascii=False)}"
        seen.setdefault(key, []).append(number)
        if entry.error and _IDENTITY.search(entry.message):
            use.identities.append((number, entry.message))
        if entry.error and _STALE_REVISION.search(entry.message):
            use.stale_writes.append((number, entry.message, _retry(calls[index + 1 :])))
        elif logged_as(entry.tool).refusals and entry.error:
            later = next(((n, e) for n, e in calls[index + 1 :] if e.tool == entry.tool), None)
            fixed = later[0] if later is not None and not later[1].error else None
            use.refused_reads.append((number, entry.message, fixed))
        result = _result(entry)
        if result is None:
            continue
        rule = continuation_of(entry.tool)
        if isinstance(rule, WhileMore):
            search = str(result.get(rule.key, ""))
            first, shown, _ = open_searches.pop(search, (number, 0, 0))
            shown += len(result.get("hits") or [])
            if result.get("hasMore"):
                open_searches[search] = (first, shown, int(result.get("total", 0)))
        elif isinstance(rule, ReadOn):
            asked = (
                str(arguments.get("documentId", "")),
                int(arguments.get("page", 0)),
                int(arguments.get("offset", 0)),
            )
            open_reads.pop(asked, None)
            following = result.get("next")
            if isinstance(following, dict):
                where = (asked[0], int(following.get("page", 0)), int(following.get("offset", 0)))
                open_reads[where] = number
    use.searches_left = [
        (call, search, max(total - shown, 0))
        for search, (call, shown, total) in open_searches.items()
    ]
    use.reads_left = sorted(
        (call, doc, page, offset) for (doc, page, offset), call in open_reads.items()
    )
    use.repeated = [(key, tuple(numbers)) for key, numbers in seen.items() if len(numbers) > 1]


def _none(found: Sequence[object]) -> str:
    return "" if found else " none"


def _calls(numbers: Sequence[int]) -> str:
    return ", ".join(str(number) for number in numbers)


def evidence_lines(uses: Sequence[SessionUse]) -> list[str]:
    """The report's evidence sections, one per session (none without evidence calls)."""
    lines: list[str] = []
    for use in uses:
        name = f"session {use.session}" if use.session is not None else "session (unnamed)"
        if use.process is not None:
            name += f" (process {use.process})"
        calls = f"{len(use.calls)} call{'' if len(use.calls) == 1 else 's'}"
        lines += ["", f"evidence tools, {name}: {calls}"]
        lines.append("  searches with more hits never asked for:" + _none(use.searches_left))
        lines += [
            f"    call {call}: {search}, about {left} hits unseen"
            for call, search, left in use.searches_left
        ]
        lines.append("  page reads whose next was never followed:" + _none(use.reads_left))
        lines += [
            f"    call {call}: {doc} page {page} from offset {offset} never read"
            for call, doc, page, offset in use.reads_left
        ]
        lines.append("  evidence reads refused:" + _none(use.refused_reads))
        lines += [
            f"    call {call}: {message} -- "
            + (f"fixed by call {fixed}" if fixed else "not fixed by the next evidence read")
            for call, message, fixed in use.refused_reads
        ]
        lines.append("  unknown or stale identities used:" + _none(use.identities))
        lines += [f"    call {call}: {message}" for call, message in use.identities]
        lines.append("  the same call repeated:" + _none(use.repeated))
        lines += [f"    calls {_calls(numbers)}: {key}" for key, numbers in use.repeated]
        if use.stale_writes:  # only sessions that wrote can have them
            lines.append("  writes refused for a stale revision:")
            lines += [
                f"    call {call}: {message} -- {retry.words()}"
                for call, message, retry in use.stale_writes
            ]
    return lines


def evidence_json(uses: Sequence[SessionUse]) -> list[dict[str, Any]]:
    return [
        {
            "session": use.session,
            **({"process": use.process} if use.process is not None else {}),
            "calls": use.calls,
            "searches_left": [
                {"call": call, "searchId": search, "unseen": left}
                for call, search, left in use.searches_left
            ],
            "reads_left": [
                {"call": call, "documentId": doc, "page": page, "offset": offset}
                for call, doc, page, offset in use.reads_left
            ],
            "refused_reads": [
                {"call": call, "message": message, "fixed_by": fixed}
                for call, message, fixed in use.refused_reads
            ],
            "identities": [{"call": call, "message": message} for call, message in use.identities],
            "repeated": [{"call": key, "calls": list(numbers)} for key, numbers in use.repeated],
            "stale_writes": [
                {
                    "call": call,
                    "message": message,
                    "next_write": retry.next_write,
                    "listed_first": retry.listed_first,
                }
                for call, message, retry in use.stale_writes
            ],
        }
        for use in uses
    ]
