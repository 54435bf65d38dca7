"""Real token counts, offline: o200k_base and cl100k_base through tiktoken.

The contract estimates tokens as ``len(text) // 4`` (runes / 4). That is close
for English and far off for CJK text, so siftui also shows what two real
tokenizers make of the same string.

tiktoken downloads its vocabulary files at first use, which fails offline.
siftui ships them instead, xz-compressed, in ``siftui/data/`` and builds the
``tiktoken.Encoding`` itself with exactly the ``pat_str`` and special tokens of
``tiktoken_ext/openai_public.py``. The decompressed bytes must hash to the
``expected_hash`` that tiktoken itself checks. Nothing here calls tiktoken's
registry or its download cache (``tiktoken.get_encoding``,
``tiktoken.load.read_file_cached``), so no network is ever needed.

Special-token text ("<|endoftext|>") in a page is counted as ordinary text: it
is what an agent's tool would pass on as plain characters, and it never raises.

This module is not part of the pure core: siftui.core.render, siftui.core.doc and
siftui.core.grep do not import it.
"""

from __future__ import annotations

import binascii
import hashlib
import lzma
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Final

from siftui.core.doc import Doc
from siftui.core.render import estimated_tokens

if TYPE_CHECKING:
    import tiktoken

__all__ = [
    "ENCODINGS",
    "TokenCounts",
    "VocabularyError",
    "clear_caches",
    "count_pages",
    "count_tokens",
    "encoding_from_bytes",
    "load_encoding",
    "parse_ranks",
    "token_counts",
]

ENCODINGS: Final = ("o200k_base", "cl100k_base")

_ENDOFTEXT = "<|endoftext|>"
_FIM_PREFIX = "<|fim_prefix|>"
_FIM_MIDDLE = "<|fim_middle|>"
_FIM_SUFFIX = "<|fim_suffix|>"
_ENDOFPROMPT = "<|endofprompt|>"

# Verbatim from tiktoken_ext/openai_public.py (tiktoken 0.14.0).
_O200K_PAT_STR: Final = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PAT_STR: Final = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
    r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)


@dataclass(frozen=True)
class _Spec:
    """What tiktoken_ext/openai_public.py says about one encoding."""

    sha256: str  # tiktoken's expected_hash of the uncompressed .tiktoken file
    pat_str: str
    special_tokens: dict[str, int]


_SPECS: Final[dict[str, _Spec]] = {
    "o200k_base": _Spec(
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        pat_str=_O200K_PAT_STR,
        special_tokens={_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
    ),
    "cl100k_base": _Spec(
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pat_str=_CL100K_PAT_STR,
        special_tokens={
            _ENDOFTEXT: 100257,
            _FIM_PREFIX: 100258,
            _FIM_MIDDLE: 100259,
            _FIM_SUFFIX: 100260,
            _ENDOFPROMPT: 100276,
        },
    ),
}


class VocabularyError(Exception):
    """A shipped vocabulary could not be loaded (missing, corrupt, wrong hash).

    The message is one line, fit to show users; callers fall back to runes / 4.
    """


def _spec(name: str) -> _Spec:
    try:
        return _SPECS[name]
    except KeyError:
        raise ValueError(f"unknown encoding {name!r}: use one of {', '.join(ENCODINGS)}") from None


def _resource(name: str) -> Traversable:
    """The shipped, xz-compressed vocabulary file of ``name``."""
    return files("siftui") / "data" / f"{name}.tiktoken.xz"


def _read_shipped(name: str) -> bytes:
    """The uncompressed bytes of the shipped vocabulary (hash not yet checked)."""
    resource = _resource(name)
    try:
        compressed = resource.read_bytes()
    except OSError as error:
        raise VocabularyError(
            f"{name}: vocabulary could not be loaded: {resource.name}: "
            f"{error.strerror or type(error).__name__}"
        ) from error
    try:
        return lzma.decompress(compressed)
    except lzma.LZMAError as error:
        raise VocabularyError(
            f"{name}: vocabulary could not be loaded: {resource.name}: not a valid xz file"
        ) from error


def parse_ranks(data: bytes) -> dict[bytes, int]:
    """The mergeable ranks of a .tiktoken file: one "base64token rank" per line.

    binascii's strict decoder checks what base64.b64decode's ``validate`` does,
    without its regular expression per call: ~20% less time on o200k_base.
    """
    decode = binascii.a2b_base64
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        if not line:
            continue
        try:
            token, rank = line.split()
            ranks[decode(token, strict_mode=True)] = int(rank)
        except (ValueError, binascii.Error) as error:
            raise VocabularyError(f"line {number}: not 'base64token rank'") from error
    return ranks


def encoding_from_bytes(
    name: str, data: bytes, pause: Callable[[], None] | None = None
) -> tiktoken.Encoding:
    """Build encoding ``name`` from the uncompressed bytes of its .tiktoken file.

    Raises VocabularyError unless ``data`` hashes to the sha256 tiktoken expects.
    ``pause``: called before parsing the ranks and before building the encoding, the
    two steps that hold the interpreter (~0.5 s each for o200k_base, the second
    without a break), so that work which can wait gives way there.
    """
    spec = _spec(name)
    actual = hashlib.sha256(data).hexdigest()
    if actual != spec.sha256:
        raise VocabularyError(
            f"{name}: vocabulary could not be loaded: sha256 {actual} "
            f"is not the expected {spec.sha256}"
        )
    if pause is not None:
        pause()
    try:
        ranks = parse_ranks(data)
    except VocabularyError as error:
        raise VocabularyError(f"{name}: vocabulary could not be loaded: {error}") from error
    import tiktoken  # here, not at the top: the TUI imports this module before its first paint

    if pause is not None:
        pause()

    return tiktoken.Encoding(
        name=name,
        pat_str=spec.pat_str,
        mergeable_ranks=ranks,
        special_tokens=dict(spec.special_tokens),
    )


_LOCK = threading.Lock()
_ENCODINGS: dict[str, tiktoken.Encoding] = {}


def load_encoding(name: str, pause: Callable[[], None] | None = None) -> tiktoken.Encoding:
    """Encoding ``name`` built from the file shipped in siftui/data (cached, thread-safe).

    Raises ValueError for a name not in ENCODINGS and VocabularyError when the
    shipped file is missing, corrupt or does not hash to tiktoken's value. A
    failure is not cached: the next call tries again. ``pause``: see
    :func:`encoding_from_bytes` (called only while the encoding is being built).
    """
    _spec(name)
    found = _ENCODINGS.get(name)  # built once: later calls never wait for the lock
    if found is not None:
        return found
    with _LOCK:
        found = _ENCODINGS.get(name)
        if found is None:
            found = encoding_from_bytes(name, _read_shipped(name), pause)
            _ENCODINGS[name] = found
        return found


def count_tokens(text: str, encoding: str, pause: Callable[[], None] | None = None) -> int:
    """How many tokens ``text`` is in ``encoding``; special-token text counts as text
    (``pause``: as :func:`load_encoding` takes it).

    ``encode_ordinary`` is tiktoken's ``encode(text, disallowed_special=())``:
    "<|endoftext|>" in a page is counted like any other characters, never raises.
    """
    return len(load_encoding(encoding, pause).encode_ordinary(text))


@dataclass(frozen=True)
class TokenCounts:
    """Sizes of one text: runes, the contract's runes // 4 and each encoding's tokens.

    ``tokens`` holds the encodings that could be counted, ``errors`` the
    VocabularyError message of those that could not.
    """

    runes: int
    tokens: tuple[tuple[str, int], ...] = ()
    errors: tuple[tuple[str, str], ...] = ()

    @property
    def estimate(self) -> int:
        """runes // 4, as the contract's map line shows it."""
        return estimated_tokens(self.runes)


def token_counts(
    text: str, encodings: tuple[str, ...] = ENCODINGS, pause: Callable[[], None] | None = None
) -> TokenCounts:
    """Count ``text`` in each encoding; a vocabulary that fails to load is reported, not
    raised (``pause``: as :func:`load_encoding` takes it)."""
    tokens: list[tuple[str, int]] = []
    errors: list[tuple[str, str]] = []
    for name in encodings:
        try:
            tokens.append((name, count_tokens(text, name, pause)))
        except VocabularyError as error:
            errors.append((name, str(error)))
    return TokenCounts(runes=len(text), tokens=tuple(tokens), errors=tuple(errors))


# Page counts, keyed by (encoding, page text): the TUI counts the pages of one
# Doc again and again (and the same page texts across Docs of the same file).
_PAGE_CACHE_SIZE: Final = 20_000
_PAGE_CACHE: OrderedDict[tuple[str, str], int] = OrderedDict()
_PAGE_LOCK = threading.Lock()


def _encode_many(
    texts: list[str], encoding: str, pause: Callable[[], None] | None = None
) -> list[int]:
    """Token counts of ``texts``, one after the other (``pause`` called before each, and
    while the encoding is built: :func:`load_encoding`).

    tiktoken's thread-pool ``encode_ordinary_batch`` was slower on this 2-CPU
    machine (pgfmanual.pdf's 1,321 pages: 1.3-1.8 s against 0.8-0.9 s).
    """
    encode = load_encoding(encoding, pause).encode_ordinary
    counts = []
    for text in texts:
        if pause is not None:
            pause()
        counts.append(len(encode(text)))
    return counts


def count_pages(
    doc: Doc, encoding: str, pause: Callable[[], None] | None = None
) -> tuple[int, ...]:
    """Token count of each extracted page's text (pages 1..E), cached by page text.

    Counts only the page text, not its "--- page N ---" marker. ``pause``: called
    before each page counted and while the encoding is built (work that can wait gives
    way there).
    """
    _spec(encoding)
    keys = [(encoding, text) for text in doc.pages]
    with _PAGE_LOCK:
        known = {key: _PAGE_CACHE[key] for key in keys if key in _PAGE_CACHE}
        for key in known:
            _PAGE_CACHE.move_to_end(key)
    missing = list(dict.fromkeys(key[1] for key in keys if key not in known))
    if missing:
        counted = _encode_many(missing, encoding, pause)
        with _PAGE_LOCK:
            for text, count in zip(missing, counted, strict=True):
                key = (encoding, text)
                known[key] = count
                _PAGE_CACHE[key] = count
                _PAGE_CACHE.move_to_end(key)
            while len(_PAGE_CACHE) > _PAGE_CACHE_SIZE:
                _PAGE_CACHE.popitem(last=False)
    return tuple(known[key] for key in keys)


def page_cache_size() -> int:
    """How many (encoding, page text) counts are cached."""
    with _PAGE_LOCK:
        return len(_PAGE_CACHE)


def clear_caches() -> None:
    """Forget loaded encodings and page counts (tests; or to free memory)."""
    with _LOCK:
        _ENCODINGS.clear()
    with _PAGE_LOCK:
        _PAGE_CACHE.clear()
