"""One document's audit record: every figure comes from the library's own code.

The loader is :func:`siftui.sources.kinds.load_any`, the first call, the walk
and the unreachable tail (a PDF's pages, a Word document's paragraphs) are the
kind table's (:mod:`siftui.core.kinds`), as `siftui walk`'s are, the hidden text is
:func:`siftui.sources.hidden.cache.cached_inspect`, image-only pages are
:func:`siftui.sources.pageimages.pages_with_images`' and the agents check is
:func:`siftui.core.agents.fit` on the first answer. A document that cannot be
read is a record with its one-line ``error``, never an exception. The audit's
password is tried only on a PDF that cannot be opened without one.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from siftui.core.agents import Agent, fit
from siftui.core.budget import BYTES, check_unit, utf8_size
from siftui.core.doc import Doc
from siftui.core.findings import pages_with, summary
from siftui.core.kinds import AnyDoc, DocumentKind, kind_of, paged
from siftui.core.messages import one_line, quoted
from siftui.core.render import Options, estimated_tokens
from siftui.sources.filehash import file_sha256
from siftui.sources.load_options import LoadOptions

if TYPE_CHECKING:
    from siftui.core.unreachable import Unreachable

ENCODING = "o200k_base"


@dataclass(frozen=True)
class AuditOptions:
    """What every document of one audit is asked with."""

    out_cap: int
    hidden: bool = False
    agents: tuple[Agent, ...] | None = None  # None: no agents check
    use_cache: bool = True
    password: str | None = None  # tried on the PDFs that cannot be opened without one
    unit: str = "chars"  # what the OutCap counts: code points, or UTF-8 bytes ("bytes")


def sha256_or_none(path: str) -> str | None:
    """The file's :func:`~siftui.sources.filehash.file_sha256`, or None when it has none
    (it cannot be read, or is no regular file: a FIFO is never waited for)."""
    try:
        return file_sha256(path)
    except OSError:
        return None


def reason_of(path: str, error: BaseException) -> str:
    """The error's one line without the path it names (the record names it)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = one_line(error)
    for prefix in (f"{quoted(path)}: ", f"{path}: "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


def refusal(path: str, reason: str, kind: str, **known: Any) -> dict[str, Any]:
    """The record of a document that could not be audited."""
    record: dict[str, Any] = {"path": path, **known}
    record.update(error=reason, error_kind=kind)
    return record


def whole_text(doc: AnyDoc) -> str:
    """The text an agent would read with no OutCap: a PDF's R1 text (page markers
    included), a Word document's stories' projections."""
    return kind_of(doc).full_text(doc)


def audit_document(path: str, options: AuditOptions) -> dict[str, Any]:
    """The audit record of the document at ``path``."""
    started = time.monotonic()
    try:
        info = os.stat(path)
    except OSError as error:
        reason = reason_of(path, error)
        return refusal(path, reason, "OSError", size=None, sha256=None, seconds=_since(started))
    size = info.st_size
    if not stat.S_ISREG(info.st_mode):  # a FIFO would wait for a writer, a device forever
        return refusal(
            path, "not a regular file", "NotAFile", size=None, sha256=None, seconds=_since(started)
        )
    sha256 = sha256_or_none(path)
    known: dict[str, Any] = {"size": size, "sha256": sha256}
    try:
        record = {"path": path, **known, **_audit(path, options)}
    except Exception as error:  # the reason, in one line, is the record
        kind = getattr(error, "reason", None) or type(error)
        known["needs_password"] = kind.__name__ in ("NeedsPassword", "WrongPassword")
        if known["needs_password"] and options.password is not None:
            known["password_worked"] = False
        return refusal(
            path, reason_of(path, error), kind.__name__, **known, seconds=_since(started)
        )
    if sha256_or_none(path) != sha256:
        return refusal(path, "changed while it was read", "Changed", **known)
    record["seconds"] = _since(started)
    return record


def _since(started: float) -> float:
    return round(time.monotonic() - started, 3)


def _audit(path: str, options: AuditOptions) -> dict[str, Any]:
    from siftui.sources.kinds import load_any
    from siftui.sources.load import LoadError
    from siftui.sources.pdf_open import NeedsPassword
    from siftui.sources.tokens import count_tokens

    load = LoadOptions(use_cache=options.use_cache)
    try:
        loaded = load_any(path, load)
    except LoadError as error:
        if error.reason is not NeedsPassword or options.password is None:
            raise
        # Only now: a PDF opened with a password is never cached, the others are.
        load = replace(load, password=options.password)
        loaded = load_any(path, load)
    doc = loaded.doc
    kind: DocumentKind[Any, Any] = kind_of(doc)
    text = whole_text(doc)
    record: dict[str, Any] = {"kind": kind.name}
    record.update(kind.sizes(doc))
    pdf = paged(doc)
    first = kind.first_call(Options(out_cap=options.out_cap, unit=options.unit))
    answer = kind.render(doc, first)
    calls = kind.walk(doc, first)
    record.update(
        runes=kind.runes(doc),
        text_runes=len(text),
        tokens_estimate=estimated_tokens(len(text)),
        tokens_o200k=count_tokens(text, ENCODING),
        out_cap=options.out_cap,
        first_call="map" if answer.map else "whole",
        first_call_runes=len(answer.content),
        calls=len(calls),
        calls_runes=sum(len(call.answer.content) for call in calls),
    )
    if options.unit == BYTES.name:  # a record in code points keeps its keys as they were
        record.update(
            unit=BYTES.name,
            first_call_bytes=utf8_size(answer.content),
            calls_bytes=sum(utf8_size(call.answer.content) for call in calls),
        )
    left_out = kind.unreachable(doc, options.out_cap, unit=check_unit(options.unit))
    if left_out is not None:  # a kind whose calls leave nothing out has none
        record.update(unreachable_facts(left_out))
    if pdf is not None:
        record.update(_pdf_facts(path, pdf, loaded.unreadable, options, load))
    if options.agents is not None:
        record["agents"] = _agents(answer.content, options.agents)
    return record


def unreachable_facts(left_out: Unreachable) -> dict[str, Any]:
    """What no call shows at the OutCap, as `siftui walk --json` counts it: the runes,
    the pages (a Word document's paragraphs, of its body) that hold them, and what
    grep still reaches of them."""
    return {
        "unreachable_runes": left_out.runes,
        f"unreachable_{left_out.unit}s": [page.page for page in left_out.pages],
        "grep_reachable_runes": left_out.grep_reachable_runes,
    }


def _pdf_facts(
    path: str, doc: Doc, unreadable: Any, options: AuditOptions, load: LoadOptions
) -> dict[str, Any]:
    password = load.password
    damaged = sorted(item.page for item in unreadable)
    facts: dict[str, Any] = {
        "unreadable_pages": damaged,
        "needs_password": password is not None,
        "image_only_pages": _image_only(path, doc, set(damaged), password),
    }
    if password is not None:
        facts["password_worked"] = True
    if options.hidden:
        facts["hidden"] = _hidden(path, frozenset(damaged), load)
    return facts


def _image_only(path: str, doc: Doc, damaged: set[int], password: str | None) -> list[int]:
    from siftui.sources.kinds import is_json_form
    from siftui.sources.pageimages import pages_with_images

    empty = [n for n, text in enumerate(doc.pages, 1) if not text.strip() and n not in damaged]
    if not empty or is_json_form(path):
        return []
    found = pages_with_images(path, empty, password)
    return [page for page in empty if found.get(page, False)]


def _hidden(path: str, skip: frozenset[int], load: LoadOptions) -> dict[str, Any]:
    from siftui.sources.hidden.cache import cached_inspect
    from siftui.sources.kinds import is_json_form

    if is_json_form(path):
        return {"alarms": {}, "pages": [], "others": {}, "not_extracted": {}, "inspected": 0}
    inspection = cached_inspect(path, load, skip=skip)
    alarms = inspection.alarms
    others = [finding for finding in inspection.findings if not finding.alarm]
    return {
        "alarms": summary(alarms),
        "pages": pages_with(alarms),
        "others": summary(others),
        "not_extracted": summary(inspection.unextracted),
        "inspected": inspection.pages_inspected,
    }


def _agents(content: str, agents: tuple[Agent, ...]) -> list[dict[str, Any]]:
    from siftui.sources.agents_load import count_tokens

    return [
        {
            "agent": each.agent.name,
            "verdict": each.verdict,
            "size": each.size,
            "unit": each.agent.unit,
        }
        for each in fit(content, agents, count_tokens)
    ]
