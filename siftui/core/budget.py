"""The unit an OutCap counts in: code points (the default) or UTF-8 bytes.

Pure: no I/O. Every budget rule of docs/SPEC.md (R2-R4) and docs/WORD.md
(D2-D5) measures with one :class:`Unit`, chosen once per render: what fits the
OutCap, the map's ``out_cap // 4`` share, where a block is cut, which grep
blocks are dropped. Display windows (R4's 400 characters) stay in characters.

A cut in bytes falls between characters, never inside one's bytes. A lone
surrogate (a Doc read from JSON may hold one) is measured as the three bytes of
the U+FFFD it is written as.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "BYTES",
    "CHARS",
    "UNITS",
    "Unit",
    "byte_bound",
    "check_unit",
    "utf8_cut",
    "utf8_size",
]


def utf8_size(text: str) -> int:
    """The length of ``text`` in UTF-8 (a lone surrogate as 3 bytes, like U+FFFD)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def utf8_cut(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 form has at most ``limit`` bytes."""
    if text.isascii():
        return text[:limit]
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    end = max(limit, 0)
    while end > 0 and data[end] & 0xC0 == 0x80:  # a continuation byte: inside a character
        end -= 1
    return data[:end].decode("utf-8", "surrogatepass")


def _chars_cut(text: str, limit: int) -> str:
    return text[:limit]


@dataclass(frozen=True)
class Unit:
    """How a budget measures: ``size(text)`` and ``cut(text, limit)`` (the longest
    prefix of at most ``limit``); ``word`` is what a note calls it."""

    name: str
    word: str
    size: Callable[[str], int]
    cut: Callable[[str, int], str]


CHARS = Unit("chars", "characters", len, _chars_cut)
BYTES = Unit("bytes", "bytes", utf8_size, utf8_cut)
UNITS = {unit.name: unit for unit in (CHARS, BYTES)}


def check_unit(name: object) -> Unit:
    """The unit called ``name`` ("chars" or "bytes"), else the ValueError every answer raises."""
    found = UNITS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f'unit must be "chars" or "bytes", not {name!r}')
    return found


def byte_bound(out_cap: int) -> str:
    """The one sentence the counter and ``--check-agents`` say for a budget in bytes."""
    return (
        f"OutCap {out_cap:,} bytes bounds the tokens of any byte-level tokenizer: "
        f"every token is at least one byte, so at most {out_cap:,} tokens"
    )
