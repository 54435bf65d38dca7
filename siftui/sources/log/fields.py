"""The call log's fields beyond a read_pdf answer: read_docx's options, the pages that
could not be read, and the hidden-text findings of the document served.

Pure values and their JSON form (written by siftui.sources.log.calllog, read back by
its ``read_log``, which names the first wrong key with ValueError).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from siftui.core.findings import KINDS, Inspection, pages_with, summary
from siftui.core.messages import encode_utf8
from siftui.core.unreadable import UnreadablePage, to_records
from siftui.core.word.render import DEFAULT_WINDOW, DocxOptions


@dataclass(frozen=True)
class DocxArgs:
    """What a read_docx call asked besides its path and grep."""

    range: str = ""
    anchor: str = ""
    window: int | None = None  # None: not given (the default window)
    scope: str = ""


@dataclass(frozen=True)
class HiddenSummary:
    """The hidden-text findings of a document served: how many of each kind, the pages
    holding any finding and those holding an alarm (every kind but ocr_layer); or,
    when the inspection failed, ``error``; or, when the call was answered while the
    inspection still ran, ``pending`` (the findings come in a later line of the log)."""

    kinds: tuple[tuple[str, int], ...] = ()
    pages: tuple[int, ...] = ()
    alarm_pages: tuple[int, ...] = ()
    error: str = ""
    pending: bool = False

    @classmethod
    def of(cls, inspection: Inspection | None, error: str = "") -> HiddenSummary:
        if inspection is None:
            return cls(error=error or "not inspected")
        findings = inspection.findings
        return cls(
            kinds=tuple(summary(findings).items()),
            pages=tuple(pages_with(findings, alarms_only=False)),
            alarm_pages=tuple(pages_with(findings)),
        )


def docx_options_dict(args: DocxArgs, grep: str) -> dict[str, Any]:
    return {
        "range": args.range,
        "anchor": args.anchor,
        "window": args.window,
        "grep": grep,
        "scope": args.scope,
    }


def docx_args_of(options: dict[str, Any]) -> DocxArgs:
    """read_docx's options read back (each optional); ValueError names a wrong key."""
    texts = {}
    for key in ("range", "anchor", "scope"):
        value = options.get(key, "")
        if not isinstance(value, str):
            raise ValueError(f'key "{key}": expected a string')
        texts[key] = value
    window = options.get("window")
    if window is not None and (isinstance(window, bool) or not isinstance(window, int)):
        raise ValueError('key "window": expected a whole number or null')
    return DocxArgs(texts["range"], texts["anchor"], window, texts["scope"])


def unreadable_of(records: Any) -> tuple[UnreadablePage, ...]:
    """The "unreadable" key read back: [{"page": 2, "reason": "..."}, ...]."""
    if not isinstance(records, list):
        raise ValueError('key "unreadable": expected a list')
    found = []
    for record in records:
        page = record.get("page") if isinstance(record, dict) else None
        reason = record.get("reason") if isinstance(record, dict) else None
        if isinstance(page, bool) or not isinstance(page, int) or not isinstance(reason, str):
            raise ValueError('key "unreadable": expected [{"page": N, "reason": "..."}]')
        found.append(UnreadablePage(page, reason))
    return tuple(found)


def unreadable_list(unreadable: tuple[UnreadablePage, ...]) -> list[dict[str, Any]]:
    return to_records(unreadable)


def hidden_dict(hidden: HiddenSummary) -> dict[str, Any]:
    if hidden.pending:
        return {"pending": True}
    if hidden.error:
        return {"error": hidden.error}
    return {
        "findings": sum(count for _, count in hidden.kinds),
        "kinds": dict(hidden.kinds),
        "pages": list(hidden.pages),
        "alarm_pages": list(hidden.alarm_pages),
    }


def _pages(data: dict[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(
        isinstance(page, int) and not isinstance(page, bool) for page in value
    ):
        raise ValueError(f'key "hidden": "{key}" must be a list of page numbers')
    return tuple(value)


def hidden_of(data: Any) -> HiddenSummary:
    """The "hidden" key read back."""
    if not isinstance(data, dict):
        raise ValueError('key "hidden": expected an object')
    if data.get("pending") is True:
        return HiddenSummary(pending=True)
    if "error" in data:
        if not isinstance(data["error"], str):
            raise ValueError('key "hidden": "error" must be a string')
        return HiddenSummary(error=data["error"])
    kinds = data.get("kinds", {})
    if not isinstance(kinds, dict) or not all(
        isinstance(count, int) and not isinstance(count, bool) for count in kinds.values()
    ):
        raise ValueError('key "hidden": "kinds" must map kinds to counts')
    order = {kind: at for at, kind in enumerate(KINDS)}
    ordered = sorted(kinds.items(), key=lambda item: order.get(item[0], len(order)))
    return HiddenSummary(tuple(ordered), _pages(data, "pages"), _pages(data, "alarm_pages"))


def docx_options(args: DocxArgs, grep: str, out_cap: int, unit: str = "chars") -> DocxOptions:
    return DocxOptions(
        range=args.range,
        anchor=args.anchor,
        window=DEFAULT_WINDOW if args.window is None else args.window,
        grep=grep,
        scope=args.scope or "body",
        out_cap=out_cap,
        unit=unit,
    )


MAX_LOGGED_ARGUMENTS = 4096
"""Characters of a call's arguments (as JSON) the log keeps as sent; a longer one is
kept as the start of its JSON text, marked as cut."""


def logged_arguments(arguments: Any) -> Any:
    """A call's arguments as sent, bounded: the JSON value itself, or the start of its text."""
    try:
        text = json.dumps(arguments, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return repr(arguments)[:MAX_LOGGED_ARGUMENTS]
    if len(text) <= MAX_LOGGED_ARGUMENTS:
        return arguments
    return {"cut": text[:MAX_LOGGED_ARGUMENTS], "chars": len(text)}


@dataclass(frozen=True)
class ToolResult:
    """A result that is not a read tool's string (an evidence tool's JSON): its text as
    the agent received it, its size in code points and its sha256, and the line naming
    an image the result began with."""

    text: str
    chars: int
    sha256: str
    image: str = ""

    @classmethod
    def of(cls, text: str, image: str = "") -> ToolResult:
        digest = hashlib.sha256(encode_utf8(text)).hexdigest()
        return cls(text, len(text), digest, image)


def result_dict(result: ToolResult) -> dict[str, Any]:
    data: dict[str, Any] = {"chars": result.chars, "sha256": result.sha256, "text": result.text}
    if result.image:
        data["image"] = result.image
    return data


def result_of(data: Any) -> ToolResult:
    if not isinstance(data, dict):
        raise ValueError('key "result": expected an object')
    text, chars, sha = data.get("text"), data.get("chars"), data.get("sha256")
    image = data.get("image", "")
    if not isinstance(text, str) or not isinstance(sha, str) or not isinstance(image, str):
        raise ValueError('key "result": expected text, sha256 and image as strings')
    if not isinstance(chars, int) or isinstance(chars, bool):
        raise ValueError('key "result.chars": expected a whole number')
    return ToolResult(text, chars, sha, image)


@dataclass(frozen=True)
class LaterFindings:
    """A later line of the log: the hidden-text findings of the call logged at ``of`` (its
    "time") on ``path``, which was answered while the inspection still ran::

        {"time": "...", "findings_of": "<the call's time>", "path": "/data/a.pdf",
         "sha256": "9a1f...", "hidden": {"findings": 3, "kinds": {...}, ...}}

    Readers put ``hidden`` in the call's entry (siftui.sources.log.calllog)."""

    time: str
    of: str
    path: str
    sha256: str | None
    hidden: HiddenSummary


def later_dict(later: LaterFindings) -> dict[str, Any]:
    return {
        "time": later.time,
        "findings_of": later.of,
        "path": later.path,
        "sha256": later.sha256,
        "hidden": hidden_dict(later.hidden),
    }


def later_of(data: Any) -> LaterFindings | None:
    """The line read back as a later findings line (None: it is a call's line)."""
    if not isinstance(data, dict) or "findings_of" not in data:
        return None
    texts = [data.get(key) for key in ("time", "findings_of", "path")]
    if not all(isinstance(text, str) for text in texts):
        raise ValueError('a findings line needs "time", "findings_of" and "path" as strings')
    sha256 = data.get("sha256")
    if sha256 is not None and not isinstance(sha256, str):
        raise ValueError('key "sha256": expected a string or null')
    time, of, path = (str(text) for text in texts)
    return LaterFindings(time, of, path, sha256, hidden_of(data.get("hidden")))
