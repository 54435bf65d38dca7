"""How the content is shown on a terminal: safe characters and line roles.

Display only: the copied string is never touched. Nothing here decides what
the agent receives; it only says how each line of the answer looks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from rich.cells import cell_len

# C0 controls show as their Unicode "control picture" (U+2400 + code).
_C0_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_C0_PICTURES[0x7F] = "\u2421"  # ␡
# Characters that reorder or hide text on a terminal (bidi overrides and isolates).
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}


def _escape_char(char: str) -> str:
    code = ord(char)
    if code in _C0_PICTURES:
        return _C0_PICTURES[code]
    if 0x80 <= code <= 0x9F or code in _BIDI:
        return f"<U+{code:04X}>"
    if 0xD800 <= code <= 0xDFFF:
        return "\N{REPLACEMENT CHARACTER}"
    return char


_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def escape_controls(line: str) -> str:
    """``line`` with every control, bidi or surrogate character made visible."""
    if _UNSAFE.search(line) is None:
        return line
    return _UNSAFE.sub(lambda found: _escape_char(found.group()), line)


def has_unsafe(text: str) -> bool:
    return _UNSAFE.search(text) is not None


class Role(Enum):
    TEXT = "text"
    MARKER = "marker"
    TITLE = "title"
    STATS = "stats"
    HEADING = "heading"
    OUTLINE = "outline"
    INSTRUCTION = "instruction"
    GREP_HEADER = "grep-header"
    MATCH = "match"
    CONTEXT = "context"
    SEPARATOR = "separator"


_MARKER = re.compile(r"--- page [0-9]+ ---")
_GREP_LINE = re.compile(r"p\. [0-9]+([:-]) ")
INSTRUCTION_PREFIX = "This document is longer than one answer:"


def line_roles(lines: list[str], *, is_map: bool, is_grep: bool) -> list[Role]:
    """The role of each line of an answer, for styling."""
    roles: list[Role] = []
    in_head = is_map  # a map starts with its title, stats, outline and instruction
    for number, line in enumerate(lines):
        if is_grep:
            roles.append(_grep_role(number, line))
            continue
        if _MARKER.fullmatch(line):
            in_head = False
            roles.append(Role.MARKER)
        elif in_head:
            roles.append(_map_role(number, line))
            if line.startswith(INSTRUCTION_PREFIX):
                in_head = False
        else:
            roles.append(Role.TEXT)
    return roles


def _map_role(number: int, line: str) -> Role:
    if number == 0 and line.startswith("# "):
        return Role.TITLE
    if line == "## Outline":
        return Role.HEADING
    if line.startswith(INSTRUCTION_PREFIX):
        return Role.INSTRUCTION
    if line.lstrip(" ").startswith("- "):
        return Role.OUTLINE
    if number == 2:
        return Role.STATS
    return Role.TEXT


def _grep_role(number: int, line: str) -> Role:
    if number == 0:
        return Role.GREP_HEADER
    if line == "--":
        return Role.SEPARATOR
    found = _GREP_LINE.match(line)
    if found is not None:
        return Role.MATCH if found.group(1) == ":" else Role.CONTEXT
    return Role.TEXT


def grep_prefix_length(line: str) -> int:
    """Length of the ``p. N: `` prefix of a grep line (0 when it has none)."""
    found = _GREP_LINE.match(line)
    return found.end() if found else 0


@dataclass(frozen=True)
class Prepared:
    """An answer split into lines, with roles and width, ready to draw."""

    lines: list[str]
    roles: list[Role]
    width: int


def prepare(content: str, *, is_map: bool, is_grep: bool) -> Prepared:
    """Split and classify an answer; done off the UI thread for large answers."""
    lines = content.split("\n") if content else []
    roles = line_roles(lines, is_map=is_map, is_grep=is_grep)
    width = max((cell_len(escape_controls(line)) for line in lines), default=0)
    return Prepared(lines, roles, width)
