"""What the MCP server's worker process does with the bytes it read: one document.

The document is loaded by siftui.sources.kinds.load_any as the kind the tool names:
a PDF (or EPUB, XPS, ...) extracted with its unreadable pages through the disk
cache, then inspected for hidden text (siftui.sources.hidden.cache, cached too); a
Doc JSON parsed; a Word document read from the same bytes. Runs in the worker only:
errors are LoadError with one line, and what the worker sends back is a
:class:`Read`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from siftui.core.findings import Inspection
from siftui.core.kinds import KINDS as ALL_KINDS
from siftui.core.kinds import AnyDoc, kind_named, runes_of
from siftui.core.messages import one_line, quoted
from siftui.core.render import Options
from siftui.core.unreadable import UnreadablePage
from siftui.sources.damage import ATTACHMENTS_ONLY
from siftui.sources.load import LoadError
from siftui.sources.load_options import LoadOptions

__all__ = [
    "KINDS",
    "Read",
    "inspect",
    "known_findings",
    "read_document",
    "read_range_first",
    "runes_of",
]

KINDS = tuple(kind.name for kind in ALL_KINDS)
INSPECT_SHARE = 0.9
"""The share of the time left after extraction the hidden-text inspection may take:
the rest is kept for sending the answer back before the call's deadline."""


@dataclass(frozen=True)
class Read:
    """One document as the worker read it, with what the call log records of it.

    ``inspection`` is None when there was nothing to inspect (a Word document, a
    Doc JSON) or the inspection failed; ``inspect_error`` then says why (one line).
    ``inspectable``: a PDF (or EPUB, ...) read from its bytes, which :func:`inspect`
    is to inspect next (the worker sends the answer first, the findings after).
    """

    doc: AnyDoc
    unreadable: tuple[UnreadablePage, ...] = ()
    inspection: Inspection | None = None
    inspect_error: str = ""
    inspectable: bool = False


def read_document(
    name: str,
    kind: str,
    data: bytes,
    deadline: float,
    progress: Callable[[int, int], None] | None = None,
    password: str | None = None,
) -> Read:
    """The document in ``data`` (``name`` only names it), read as ``kind``; not yet
    inspected for hidden text (see :func:`inspect`). ``progress(done, total)`` is told
    the pages extracted, for a PDF not in the disk cache. ``password``: the one the
    person gave in the reader for these bytes (what it opens never goes to the disk
    cache)."""
    from siftui.sources.kinds import is_json_form_bytes, load_any
    from siftui.sources.pdf_open import NeedsPassword

    entry = kind_named(kind)
    if entry is None:
        raise LoadError(f"{quoted(name)}: unknown kind of document {kind!r}")
    try:
        loaded = load_any(
            data, LoadOptions(password=password), name=name, kind=entry, progress=progress
        )
    except LoadError as error:
        if error.reason is None or not issubclass(error.reason, NeedsPassword):
            raise
        # What an agent can do about it; and whether only the attachments are encrypted.
        only = f"{ATTACHMENTS_ONLY}; " if ATTACHMENTS_ONLY in str(error) else ""
        raise LoadError(
            f"{quoted(name)}: {only}the file is encrypted and needs a password, which an "
            "agent cannot give; the server's operator can supply it (siftui extract FILE "
            "--password ... -o FILE.json under a root gives a Doc JSON this tool reads)"
        ) from None
    # A document with pages read from its bytes is inspected next (a Doc JSON is text).
    inspectable = entry.has_pages and not is_json_form_bytes(name, data)
    return Read(loaded.doc, loaded.unreadable, inspectable=inspectable)


def known_findings(sha256: str, skip: frozenset[int]) -> Inspection | None:
    """The findings of these bytes already in the disk cache (None: not there, or the
    cache could not be read): then the answer carries them and nothing is left to wait for."""
    from siftui.sources.hidden.cache import cached_findings

    try:
        return cached_findings(sha256, skip=skip)
    except Exception:  # a cache that cannot be read: inspect as if it were not there
        return None


def inspect(
    name: str,
    data: bytes,
    sha256: str,
    seconds: float,
    skip: frozenset[int],
    password: str | None = None,
) -> tuple[Inspection | None, str]:
    """The hidden-text findings, within ``seconds`` (the inspection's own, which start
    when the text has been sent), of every page but the unreadable ones (``skip``), the
    document opened with ``password`` (then never cached); a failure costs the findings
    (the log says why), never the answer."""
    from siftui.sources.hidden.cache import cached_inspect_bytes
    from siftui.sources.pdf_open import ExtractError, TimedOut

    left = seconds * INSPECT_SHARE  # the rest is for sending the findings back
    if left <= 0:
        return None, "no time left to inspect it for hidden text"
    try:
        found = cached_inspect_bytes(
            name, data, sha256=sha256, timeout=left, skip=skip, password=password
        )
        return found, ""
    except TimedOut:  # said in the server's own limit, not the share the inspection had
        return None, f"{quoted(name)}: inspection took longer than {seconds:g} s; stopped"
    except ExtractError as error:
        return None, one_line(error)
    except MemoryError:
        return None, "inspecting it for hidden text needed more memory than allowed"
    except Exception as error:  # a MuPDF surprise: the answer is still served
        return None, f"hidden-text inspection failed: {one_line(error)}"


def read_range_first(
    name: str,
    kind: str,
    data: bytes,
    sha256: str,
    options: Options,
    deadline: float,
    password: str | None = None,
) -> Read | None:
    """The pages of ``data`` that the answer to ``options`` reads (a partial Doc for that
    request only, siftui.sources.lazy), when it is a page range of a PDF (not a Doc
    JSON) that the disk cache does not hold; else None. A document the reader refuses
    is None too: the whole extraction that follows says why, in its own words."""
    from siftui.sources.cache import DocCache, cache_key
    from siftui.sources.kinds import is_json_form_bytes
    from siftui.sources.lazy import is_range, read_range
    from siftui.sources.pdf_open import ExtractError

    entry = kind_named(kind)
    if entry is None or not entry.reads_ranges_first or not is_range(options):
        return None
    if is_json_form_bytes(name, data):
        return None
    if DocCache.default().entry(cache_key(sha256, None, None, name=name)).is_file():
        return None  # the whole Doc is at hand already
    left = deadline - time.monotonic()
    if left <= 0:
        return None
    try:
        cold = read_range(name, options, LoadOptions(password, timeout=left), data=data)
    except ExtractError:
        return None
    return Read(cold.found.doc, cold.found.unreadable)
