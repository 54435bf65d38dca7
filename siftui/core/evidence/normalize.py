"""E7's normalized text, with the map from each normalized position to the original.

The rules (EVIDENCE.md E7): U+00AD is removed; a ``-`` followed by optional
spaces, ``"\\n"`` and optional spaces is removed with them; every other code
point becomes ``NFKC(c).casefold()``; then each run of white space becomes one
``" "`` coming from every code point of the run.

Speed matters (search runs over whole theses): per page, ``str.lower`` (or one
``translate`` of an ASCII page) does in C what most characters become, and only
the places it gets wrong or where the length changes (removals, expansions
like a ligature, runs of white space) are kept as edits, so mapping a match
back is a few bisections, never a per-character loop.
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
_REPLACEMENTS: dict[str, str] = {}
# Non-ASCII characters whose replacement is not what ``str.lower`` gives: the
# places a lowered page must be edited. Capital sigma is one: ``lower`` makes
# it final or not by context, casefold never does.
_FIXES: dict[str, str | None] = {}
_ASCII_TABLE = {
    code: (" " if chr(code).isspace() else chr(code).lower())
    for code in range(128)
    if chr(code).isspace() or chr(code).isupper()
}
_ASCII_SPACES = "".join(chr(code) for code in range(128) if chr(code).isspace() and code != 32)
_ASCII_RUNS = re.compile("[\x00-\x7f]+")
_LOWER_CHANGES_LENGTH = "\u0130"  # the one character whose lower() is two


def normalized_char(char: str) -> str:
    """What one code point becomes before white-space runs are joined."""
    found = _REPLACEMENTS.get(char)
    if found is None:
        if char == SOFT_HYPHEN:
            found = ""
        else:
            folded = unicodedata.normalize("NFKC", char).casefold()
            found = "".join(" " if c.isspace() else c for c in folded)
        _REPLACEMENTS[char] = found
    return found


def _fix_of(char: str) -> str | None:
    if char not in _FIXES:
        replacement = normalized_char(char)
        same = replacement == char.lower() and char != "\u03a3"
        _FIXES[char] = None if same else replacement
    return _FIXES[char]


def _lowered(original: str) -> str:
    """``original`` lowered with ASCII white space as " ": each character's
    replacement wherever it is ASCII or ``_FIXES`` says None (all in C)."""
    staged = original.lower()
    for space in _ASCII_SPACES:
        if space in staged:
            staged = staged.replace(space, " ")
    return staged


def _staged_edits(original: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The per-code-point stage, as a string still aligned with ``original`` and the
    edits (index, length, replacement) that remain to be spliced in."""
    edits = [(m.start(), m.end() - m.start(), "") for m in _find_hyphens(original)]
    if original.isascii():
        return original.translate(_ASCII_TABLE), edits
    if _LOWER_CHANGES_LENGTH in original:  # rare: edit every character that changes
        hyphens = {i for at, length, _ in edits for i in range(at, at + length)}
        for index, char in enumerate(original):
            replacement = normalized_char(char)
            if replacement != char and index not in hyphens:
                edits.append((index, 1, replacement))
        edits.sort()
        return original, edits
    fixes = {char for char in set(_ASCII_RUNS.sub("", original)) if _fix_of(char) is not None}
    if fixes:
        pattern = re.compile("|".join(re.escape(char) for char in sorted(fixes)))
        edits += [(m.start(), 1, _FIXES[m.group()] or "") for m in pattern.finditer(original)]
        edits.sort()
    return _lowered(original), edits


class NormalizedText:
    """``text`` normalized, and each normalized position's original code points.

    The map is kept as events: ``_edits`` for the per-code-point stage (original
    index, original length, stage index, stage length), ``_runs`` for joined
    white space (normalized index, stage index, stage length).
    """

    __slots__ = ("_edit_ends", "_edits", "_run_ends", "_run_starts", "_runs", "text")

    def __init__(self, original: str) -> None:
        staged, edits = _staged_edits(original)
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
