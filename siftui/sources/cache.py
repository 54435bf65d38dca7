"""Extracted Docs cached on disk, so a document is extracted once per version.

Where: ``$XDG_CACHE_HOME/siftui`` (``~/.cache/siftui`` when the variable is
unset or not an absolute path), one file per entry, readable by the user only.

Key: the sha256 of the file's bytes, the extraction options (``max_pages``),
the cache format, siftui's version and PyMuPDF's. A file whose bytes change
gets a new key, so it never gets the Doc of its former self; an upgrade of
either program starts afresh (old entries age out).

Never cached: documents opened with a password. The cache would hold their
decrypted text in a file any program of the user can read, long after the
password was typed; they are extracted every time.

Format: a magic line, then zlib (level 1) of a one-line ASCII JSON header
(key, title, page count, outline, the size of each page's UTF-8 text in bytes, and
the pages that could not be read with MuPDF's reason, [[page, reason], ...];
an entry without that key has none) and the pages' UTF-8 text, concatenated.
Loading pgfmanual's 3.4M characters takes ~30-60 ms against ~3 s to extract
them (bench/cache.py). Each page is decoded on its own: decoding the whole text,
then cutting it into pages, took twice as long (the TUI's first frame waits for
it, sharing one interpreter).

Safety: an entry is written to a temporary file in the same directory and
renamed over the entry's name (atomic), so a reader sees a whole entry or
none, whatever runs at the same time or crashes. A corrupt, truncated or
unreadable entry is a miss: it is extracted again and rewritten. Leftover
temporary files are removed after an hour. Errors of the cache itself (a
read-only or full disk) never stop a read: the Doc is extracted as if there
were no cache.

Size: at most ``SIFTUI_CACHE_MAX_BYTES`` (default 512 MiB; 0 turns writing
off; any other value than a whole number of bytes stops the command line at start, in
one line); after each write the entries used least recently (a hit touches the
entry's modification time) are removed until the total fits.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from siftui import __version__
from siftui.core.doc import Doc, OutlineItem
from siftui.core.docjson import is_whole_number
from siftui.core.json_text import json_value
from siftui.core.unreadable import Extraction, UnreadablePage
from siftui.sources.extract import extract_report
from siftui.sources.filehash import file_sha256
from siftui.sources.load_options import DEFAULT_LOAD, LoadOptions
from siftui.sources.pdf_open import PageProgress, check_file, check_max_pages, pymupdf_version

if TYPE_CHECKING:
    from siftui.sources.cache_slot import CacheSlot

FORMAT = 2  # 2: the size of each page in bytes (1: in code points)
MAGIC = b"siftui doc cache 1\n"
SUFFIX = ".doc"
OTHER_SUFFIXES = (
    ".hidden",
)  # siftui.sources.hidden.cache's entries share the directory and its size
TEMP_PREFIX = ".tmp-"
TEMP_MAX_AGE = 3600.0
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
MAX_BYTES_ENV = "SIFTUI_CACHE_MAX_BYTES"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "siftui"


def max_bytes_from_env() -> int:
    """The cache's size from SIFTUI_CACHE_MAX_BYTES; the default when it is unset or not
    a number (the library never stops on it: the command line refuses such a value at
    start, :func:`max_bytes_problem`), none written when it is 0 or below."""
    text = os.environ.get(MAX_BYTES_ENV, "").strip()
    try:
        value = int(text)
    except ValueError:
        return DEFAULT_MAX_BYTES
    return max(0, value)


def max_bytes_problem() -> str | None:
    """Why SIFTUI_CACHE_MAX_BYTES is no size, in one line; None when it is unset, empty or
    a whole number of bytes in ASCII digits (18 at most). Taken silently, ``1G`` or ``-1``
    left the user not knowing why the cache was not the size they set."""
    text = os.environ.get(MAX_BYTES_ENV, "").strip()
    if not text or (text.isascii() and text.isdigit() and len(text) <= 18):
        return None
    shown = text if len(text) <= 40 else f"{text[:40]}..."
    return f"{MAX_BYTES_ENV} must be a whole number of bytes (0 writes no cache), not {shown!r}"


def cache_key(
    sha256: str, max_pages: int | None, ocr: str | None = None, *, name: str | os.PathLike[str]
) -> str:
    """The entry's name: everything that decides what extract() returns.

    ``ocr`` is the OCR language when empty pages were read by Tesseract; ``name`` names
    the file, whose suffix tells MuPDF what the bytes are (the same bytes are a text
    document as ``a.txt`` and no document at all as ``a.pdf``).
    """
    parts: dict[str, object] = {
        "format": FORMAT,
        "sha256": sha256,
        "max_pages": max_pages,
        "siftui": __version__,
        "pymupdf": pymupdf_version(),
    }
    if ocr is not None:  # keys without OCR stay as they were
        parts["ocr"] = ocr
    # Every key names it: an entry of a key without it may hold a .txt's text under
    # the key of the same bytes named .pdf, so none of those is read again.
    parts["suffix"] = Path(name).suffix.lower()
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def encode(doc: Doc, key: str, unreadable: Sequence[UnreadablePage] = ()) -> bytes:
    pages = [page.encode("utf-8", "surrogatepass") for page in doc.pages]
    header = {
        "key": key,
        "title": doc.title,
        "page_count": doc.page_count,
        "outline": [[item.level, item.title, item.page] for item in doc.outline],
        "sizes": [len(page) for page in pages],
        "unreadable": [[item.page, item.reason] for item in unreadable],
    }
    head = json.dumps(header, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    body = b"".join(pages)
    return MAGIC + zlib.compress(head + b"\n" + body, 1)


class BadEntry(ValueError):
    pass


def decode(data: bytes, key: str) -> Doc:
    """The Doc of an entry, or BadEntry for anything but a whole entry of ``key``."""
    return decode_report(data, key).doc


def decode_report(data: bytes, key: str) -> Extraction:
    """The Doc and unreadable pages of an entry, or BadEntry (as :func:`decode`)."""
    if not data.startswith(MAGIC):
        raise BadEntry("not a siftui cache entry")
    try:
        raw = zlib.decompress(memoryview(data)[len(MAGIC) :])
        newline = raw.index(b"\n")
        header = json_value(raw[:newline])
    except (zlib.error, ValueError) as error:
        raise BadEntry(str(error)) from None
    if not isinstance(header, dict) or header.get("key") != key:
        raise BadEntry("another key")
    title, page_count = header.get("title"), header.get("page_count")
    sizes, outline = header.get("sizes"), header.get("outline")
    if not isinstance(title, str) or not isinstance(page_count, int):
        raise BadEntry("bad title or page count")
    if not (isinstance(sizes, list) and all(type(n) is int and n >= 0 for n in sizes)):
        raise BadEntry("bad sizes")
    if sum(sizes) != len(raw) - newline - 1 or len(sizes) > page_count:
        raise BadEntry("sizes do not match the text")
    items = []
    if not isinstance(outline, list):
        raise BadEntry("bad outline")
    for entry in outline:  # JSON's types exactly (no bool for a number), without calls
        if not (
            type(entry) is list
            and len(entry) == 3
            and type(entry[0]) is int
            and type(entry[1]) is str
            and type(entry[2]) is int
        ):
            raise BadEntry("bad outline item")
        items.append(OutlineItem(*entry))
    body = memoryview(raw)
    pages = []
    offset = newline + 1
    try:
        for size in sizes:
            pages.append(str(body[offset : offset + size], "utf-8", "surrogatepass"))
            offset += size
    except UnicodeDecodeError as error:
        raise BadEntry(str(error)) from None
    doc = Doc(title=title, page_count=page_count, pages=tuple(pages), outline=tuple(items))
    return Extraction(doc, _unreadable(header.get("unreadable", []), len(pages)))


def _unreadable(entries: Any, extracted: int) -> tuple[UnreadablePage, ...]:
    if not isinstance(entries, list):
        raise BadEntry("bad unreadable pages")
    found: list[UnreadablePage] = []
    for entry in entries:
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and is_whole_number(entry[0])
            and 1 <= entry[0] <= extracted
            and isinstance(entry[1], str)
            and (not found or entry[0] > found[-1].page)
        ):
            raise BadEntry("bad unreadable page")
        found.append(UnreadablePage(entry[0], entry[1]))
    return tuple(found)


@dataclass
class DocCache:
    """A directory of entries; every method swallows the cache's own OSErrors."""

    directory: Path
    max_bytes: int = DEFAULT_MAX_BYTES

    @classmethod
    def default(cls) -> DocCache:
        return cls(cache_dir(), max_bytes_from_env())

    def entry(self, key: str) -> Path:
        return self.directory / f"{key}{SUFFIX}"

    def get(self, key: str) -> Doc | None:
        found = self.get_report(key)
        return None if found is None else found.doc

    def get_report(self, key: str) -> Extraction | None:
        where = self.entry(key)
        try:
            data = where.read_bytes()
        except OSError:
            return None
        try:
            found = decode_report(data, key)
        except BadEntry:
            return None
        with contextlib.suppress(OSError):
            os.utime(where)  # "used recently", for eviction; atime is often not kept
        return found

    def put(self, key: str, doc: Doc, unreadable: Sequence[UnreadablePage] = ()) -> None:
        if self.max_bytes <= 0:
            return
        data = encode(doc, key, unreadable)
        if len(data) > self.max_bytes:
            return
        import tempfile

        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            handle, temporary = tempfile.mkstemp(
                prefix=TEMP_PREFIX, suffix=SUFFIX, dir=self.directory
            )
        except OSError:
            return
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())  # whole on disk before it has its name
            os.replace(temporary, self.entry(key))
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            return
        self.evict()

    def evict(self) -> None:
        """Drop the least recently used entries until the rest fit; old temporaries too."""
        now = time.time()
        entries: list[tuple[float, int, str]] = []
        try:
            with os.scandir(self.directory) as found:
                for item in found:
                    try:
                        info = item.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if item.name.startswith(TEMP_PREFIX):
                        if now - info.st_mtime > TEMP_MAX_AGE:
                            _unlink(item.path)
                    elif item.name.endswith((SUFFIX, *OTHER_SUFFIXES)) and item.is_file(
                        follow_symlinks=False
                    ):
                        entries.append((info.st_mtime, info.st_size, item.path))
        except OSError:
            return
        total = sum(size for _, size, _ in entries)
        for _, size, where in sorted(entries):
            if total <= self.max_bytes:
                break
            _unlink(where)
            total -= size


def _unlink(where: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(where)


def file_identity(path: Path) -> tuple[int, int, int, int]:
    info = path.stat()
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


def cached_extract_report(
    path: str | os.PathLike[str],
    options: LoadOptions = DEFAULT_LOAD,
    *,
    progress: PageProgress | None = None,
    cache: DocCache | None = None,
) -> Extraction:
    """``extract_report()`` through the disk cache: the same Doc and unreadable pages,
    the same errors.

    A hit calls ``progress(E, E)`` once. Unless ``options.cached`` (a password, or
    ``use_cache`` false), the cache is neither read nor written.
    """
    slot: CacheSlot | None = None
    if options.cached:
        max_pages = options.max_pages
        check_max_pages(max_pages)
        where = check_file(path)
        store = DocCache.default() if cache is None else cache
        try:
            before = file_identity(where)
            digest = file_sha256(where)
        except OSError:
            pass  # read as if there were no cache
        else:
            language = options.ocr_language if options.ocr else None
            key = cache_key(digest, max_pages, language, name=where)
            found = _lookup(store, digest, max_pages, language, where)
            if found is not None:
                pages = found.doc.pages
                if progress is not None and pages:
                    progress(len(pages), len(pages))
                return found
            from siftui.sources.cache_slot import CacheSlot  # a miss's only

            slot = CacheSlot(store, key, where, before)
    found = extract_report(path, options, progress=progress)
    if slot is not None and slot.unchanged():
        slot.store.put(slot.key, found.doc, found.unreadable)
    return found


def unchanged_since(where: Path, before: tuple[int, int, int, int]) -> bool:
    """The file is as it was when its reading began (``before``, its
    :func:`file_identity` then): a file written to while it was read may not hold what
    its hash names, so nothing read from it is cached."""
    try:
        return file_identity(where) == before
    except OSError:
        return False


def _lookup(
    store: DocCache,
    digest: str,
    max_pages: int | None,
    language: str | None,
    name: str | os.PathLike[str],
) -> Extraction | None:
    """The entry for the file's ``digest``, name and options, or the first pages of its
    whole extraction's entry, or None."""
    found = store.get_report(cache_key(digest, max_pages, language, name=name))
    if found is None and max_pages is not None:
        whole = store.get_report(cache_key(digest, None, language, name=name))
        if whole is not None:  # the first pages of a whole extraction are the same
            found = whole.first_pages(max_pages)
            if found.doc.pages and len(found.unreadable) == len(found.doc.pages):
                found = None  # none of them can be read: extract_report says so
    return found


def cached_report(
    path: str | os.PathLike[str],
    *,
    max_pages: int | None = None,
    ocr: bool = False,
    cache: DocCache | None = None,
) -> Extraction | None:
    """What :func:`cached_extract_report` finds in the cache without extracting: the
    entry of the file as it is now, or None (no entry, or the file cannot be hashed)."""
    store = DocCache.default() if cache is None else cache
    try:
        where = check_file(path)
        digest = file_sha256(where)
    except OSError:
        return None
    return _lookup(store, digest, max_pages, "eng" if ocr else None, where)
