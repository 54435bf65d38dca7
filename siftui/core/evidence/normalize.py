"""E7's normalized text, with the map from each normalized position to the original.

The rules (EVIDENCE.md E7): U+00AD is removed; a ``-`` followed by optional
spaces, ``"\\n"`` and optional spaces is removed with them; every other code
point becomes ``NFKC(c).casefold()``; then each run of white space becomes one
``" "`` coming from every code point of the run.

Speed matters (search runs over whole theses): per page, one ``str.translate``
does every one-to-one replacement in C, and only the places where the length
changes (removals, expansions like a ligature, runs of white space) are kept as
events, so mapping a match back is a few bisections, never a per-character loop.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

__all__ = ["NormalizedText", "normalize", "normalized_char"]

SOFT_HYPHEN = "\u00ad"
_LINE_END_HYPHEN = re.compile("-\x20*\n\x20*")
_SPACE_RUN = re.compile("\x20{2,}")

# A code point's replacement, white space already turned into " " (a run of one
# is then done; longer runs are found afterwards). Shared by every document.
_ONE_TO_ONE: dict[int, str] = {}
_OTHER: dict[str, str] = {}  # replacements whose length is not 1
_KNOWN: set[str] = set()
_ASCII_TABLE = {
    code: (" " if chr(code).isspace() else chr(code).lower())
    for code in range(128)
    if chr(code).isspace() or chr(code).isupper()
}


def normalized_char(char: str) -> str:
    """What one code point becomes before white-space runs are joined."""
    if char == SOFT_HYPHEN:
        return ""
    folded = unicodedata.normalize("NFKC", char).casefold()
    return "".join(" " if c.isspace() else c for c in folded)


def _learn(chars: set[str]) -> None:
    for char in chars - _KNOWN:
        replacement = normalized_char(char)
        if len(replacement) != 1:
            _OTHER[char] = replacement
        elif replacement != char:
            _ONE_TO_ONE[ord(char)] = replacement
        _KNOWN.add(char)


class NormalizedText:
    """``text`` normalized, and each normalized position's original code points.

    The map is kept as events: ``_edits`` for the per-code-point stage (original
    index, original length, stage index, stage length), ``_runs`` for joined
    white space (normalized index, stage index, stage length).
    """

    __slots__ = ("_edit_ends", "_edits", "_run_ends", "_run_starts", "_runs", "text")

    def __init__(self, original: str) -> None:
        if original.isascii():
            staged = original.translate(_ASCII_TABLE)
            edits = [(m.start(), m.end() - m.start(), "") for m in _find_hyphens(original)]
        else:
            _learn(set(original))
            staged = original.translate(_ONE_TO_ONE)
            edits = self._other_edits(original)
        self._edits: list[tuple[int, int, int, int]] = []
        if edits:
            staged = self._apply(original, staged, edits)
        self._edit_ends = [stage_at + stage_len for _, _, stage_at, stage_len in self._edits]
        self._runs: list[tuple[int, int, int]] = []
        text = staged
        if "  " in staged:
            text = self._join_runs(staged)
        self._run_starts = [at for at, _, _ in self._runs]
        self._run_ends = [stage_at + length for _, stage_at, length in self._runs]
        self.text = text

    @staticmethod
    def _other_edits(original: str) -> list[tuple[int, int, str]]:
        edits = [(m.start(), m.end() - m.start(), "") for m in _find_hyphens(original)]
        others = set(original) & _OTHER.keys()
        if others:
            pattern = re.compile("|".join(re.escape(c) for c in sorted(others)))
            edits += [(m.start(), 1, _OTHER[m.group()]) for m in pattern.finditer(original)]
            edits.sort()
        return edits

    def _apply(self, original: str, staged: str, edits: list[tuple[int, int, str]]) -> str:
        # ``staged`` matches ``original`` position for position; splice each edit in.
        parts: list[str] = []
        done = 0
        stage_at = 0
        for at, length, replacement in edits:
            parts.append(staged[done:at])
            stage_at += at - done
            parts.append(replacement)
            self._edits.append((at, length, stage_at, len(replacement)))
            stage_at += len(replacement)
            done = at + length
        parts.append(staged[done:])
        return "".join(parts)

    def _join_runs(self, staged: str) -> str:
        parts: list[str] = []
        done = 0
        removed = 0
        for match in _SPACE_RUN.finditer(staged):
            start, end = match.span()
            parts.append(staged[done:start])
            parts.append(" ")
            self._runs.append((start - removed, start, end - start))
            removed += end - start - 1
            done = end
        parts.append(staged[done:])
        return "".join(parts)

    def _stage_range(self, index: int) -> tuple[int, int]:
        """The staged positions (first, last) that normalized ``index`` comes from."""
        run = bisect_right(self._run_starts, index) - 1
        if run < 0:
            return index, index
        at, stage_at, length = self._runs[run]
        if at == index:
            return stage_at, stage_at + length - 1
        shifted = index + self._run_ends[run] - (at + 1)
        return shifted, shifted

    def _original_of(self, stage_index: int) -> int:
        """The original code point that staged position ``stage_index`` comes from."""
        edit = bisect_right(self._edit_ends, stage_index)
        # Edits ending at or before the position lie before it; one after may
        # still cover it (an expansion) when it begins at or before it.
        if edit < len(self._edits):
            at, _, stage_at, stage_len = self._edits[edit]
            if stage_at <= stage_index < stage_at + stage_len:
                return at
        if edit == 0:
            return stage_index
        at, length, stage_at, stage_len = self._edits[edit - 1]
        return stage_index + (at + length) - (stage_at + stage_len)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Normalized ``[start, end)`` (non-empty) as original code points ``[a, b)``."""
        first = self._original_of(self._stage_range(start)[0])
        last = self._original_of(self._stage_range(end - 1)[1])
        return first, last + 1


def _find_hyphens(original: str) -> list[re.Match[str]]:
    if "\n" not in original or "-" not in original:
        return []
    return list(_LINE_END_HYPHEN.finditer(original))


def normalize(text: str) -> str:
    """``text`` normalized as E7 says (the query goes through the same rules)."""
    return NormalizedText(text).text
