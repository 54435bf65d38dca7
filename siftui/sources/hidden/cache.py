"""Hidden-text inspections cached on disk beside the extracted Docs (siftui.sources.cache).

Same directory, same rules as the Doc cache: one entry per file version
(the sha256 of its bytes) and options, keyed also by this format, siftui's
and PyMuPDF's versions; written atomically; a bad entry is a miss; never for
a document opened with a password; counted in the same size limit (entries
end in ``.hidden``). An entry is zlib of one JSON object: the key, the page
counts and the findings.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import zlib
from typing import Any

from siftui import __version__
from siftui.core.findings import Inspection, finding_from_json, finding_json
from siftui.core.json_text import json_value
from siftui.sources.cache import TEMP_PREFIX, DocCache, file_identity
from siftui.sources.cache_slot import CacheSlot
from siftui.sources.filehash import file_sha256
from siftui.sources.hidden.document import inspect_document
from siftui.sources.load_options import DEFAULT_LOAD, LoadOptions
from siftui.sources.pdf_open import PageProgress, check_file, pymupdf_version

FORMAT = 4  # 4: remapped, squeezed, glyphs drawing nothing, OCR layers of opacity 0
# 3: findings are the extraction's text; what it does not hold is apart
MAGIC = b"siftui hidden cache 4\n"
SUFFIX = ".hidden"


def hidden_key(sha256: str, max_pages: int | None) -> str:
    parts = {
        "what": "hidden",
        "format": FORMAT,
        "sha256": sha256,
        "max_pages": max_pages,
        "siftui": __version__,
        "pymupdf": pymupdf_version(),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def encode(inspection: Inspection, key: str) -> bytes:
    body = {
        "key": key,
        "page_count": inspection.page_count,
        "pages_inspected": inspection.pages_inspected,
        "findings": [finding_json(finding) for finding in inspection.findings],
        "unextracted": [finding_json(finding) for finding in inspection.unextracted],
    }
    text = json.dumps(body, ensure_ascii=True, separators=(",", ":"))
    return MAGIC + zlib.compress(text.encode("ascii"), 1)


def decode(data: bytes, key: str) -> Inspection:
    """The inspection of an entry; ValueError for anything but a whole entry of ``key``."""
    if not data.startswith(MAGIC):
        raise ValueError("not a siftui hidden-text entry")
    try:
        body: Any = json_value(zlib.decompress(data[len(MAGIC) :]))
    except zlib.error as error:
        raise ValueError(str(error)) from None
    if not isinstance(body, dict) or body.get("key") != key:
        raise ValueError("another key")
    page_count, inspected, findings, unextracted = (
        body.get(name) for name in ("page_count", "pages_inspected", "findings", "unextracted")
    )
    if not (isinstance(page_count, int) and isinstance(inspected, int)):
        raise ValueError("bad page counts")
    if not (isinstance(findings, list) and isinstance(unextracted, list)):
        raise ValueError("bad findings")
    return Inspection(
        page_count,
        inspected,
        tuple(finding_from_json(f) for f in findings),
        tuple(finding_from_json(f) for f in unextracted),
    )


def _entry(cache: DocCache, key: str) -> Any:
    return cache.directory / f"{key}{SUFFIX}"


def _get(cache: DocCache, key: str) -> Inspection | None:
    where = _entry(cache, key)
    try:
        data = where.read_bytes()
        inspection = decode(data, key)
    except (OSError, ValueError):
        return None
    with contextlib.suppress(OSError):
        os.utime(where)
    return inspection


def _put(cache: DocCache, key: str, inspection: Inspection) -> None:
    if cache.max_bytes <= 0:
        return
    data = encode(inspection, key)
    if len(data) > cache.max_bytes:
        return
    import tempfile

    try:
        cache.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=SUFFIX, dir=cache.directory)
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, _entry(cache, key))
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    cache.evict()


def _skipping(key: str, skip: frozenset[int]) -> str:
    """The entry of the findings without the pages in ``skip`` (not the whole document's)."""
    if not skip:
        return key
    pages = ",".join(str(page) for page in sorted(skip))
    return hashlib.sha256(f"{key} skip {pages}".encode()).hexdigest()


def cached_inspect(
    path: str | os.PathLike[str],
    options: LoadOptions = DEFAULT_LOAD,
    *,
    progress: PageProgress | None = None,
    cache: DocCache | None = None,
    skip: frozenset[int] = frozenset(),
) -> Inspection:
    """``inspect_document()`` through the disk cache (unless ``options.cached`` is
    false): the same result, the same errors.

    ``skip``: the pages extraction could not read, left out (see inspect_document)."""
    slot: CacheSlot | None = None
    if options.cached:
        where = check_file(path)
        store = DocCache.default() if cache is None else cache
        try:
            before = file_identity(where)
            key = _skipping(hidden_key(file_sha256(where), options.max_pages), skip)
        except OSError:
            pass  # inspected as if there were no cache
        else:
            found = _get(store, key)
            if found is not None:
                if progress is not None and found.pages_inspected:
                    progress(found.pages_inspected, found.pages_inspected)
                return found
            slot = CacheSlot(store, key, where, before)
    inspection = inspect_document(path, options, progress=progress, skip=skip)
    if slot is not None and slot.unchanged():
        _put(slot.store, slot.key, inspection)
    return inspection


def cached_inspect_bytes(
    name: str | os.PathLike[str],
    data: bytes,
    *,
    sha256: str | None = None,
    timeout: float | None = None,
    cache: DocCache | None = None,
    skip: frozenset[int] = frozenset(),
    password: str | None = None,
) -> Inspection:
    """:func:`cached_inspect` for a file already read into ``data`` (``name`` only
    names it): what the MCP server's worker inspects, from the very bytes it served.
    ``skip``: the pages extraction could not read (a fact of these bytes), left out.
    ``password``: the document's (its findings then never go to the disk cache)."""
    options = LoadOptions(password=password, timeout=timeout, workers=1)
    store = (DocCache.default() if cache is None else cache) if options.cached else None
    key = _skipping(hidden_key(sha256 or hashlib.sha256(data).hexdigest(), None), skip)
    found = _get(store, key) if store is not None else None
    if found is not None:
        return found
    inspection = inspect_document(name, options, data=data, skip=skip)
    if store is not None:
        _put(store, key, inspection)
    return inspection


def cached_findings(
    sha256: str, *, skip: frozenset[int] = frozenset(), cache: DocCache | None = None
) -> Inspection | None:
    """The inspection :func:`cached_inspect_bytes` would return from the disk cache for
    these bytes, without inspecting (None when it is not there)."""
    store = DocCache.default() if cache is None else cache
    return _get(store, _skipping(hidden_key(sha256, None), skip))
