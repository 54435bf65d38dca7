"""Every tool siftui serves and every family, as the rest of siftui asks for them.

Adding a tool is adding its entry to its family's module (and its family's tuple)
and its handler to siftui.serve; nothing here or elsewhere names it.
"""

from __future__ import annotations

from siftui.core.tools import edit, evidence, read
from siftui.core.tools.continuation import Continuation
from siftui.core.tools.entry import Family, Logged, ToolEntry

__all__ = [
    "ENTRIES",
    "FAMILIES",
    "FIRST_LOGGED",
    "continuation_of",
    "entry_of",
    "family_tools",
    "logged_as",
]

FAMILIES: tuple[Family, ...] = (read.FAMILY, evidence.FAMILY, edit.FAMILY)
"""The families, in the order ``--tools`` lists them."""

ENTRIES: tuple[ToolEntry, ...] = (*read.READ_TOOLS, *evidence.EVIDENCE_TOOLS, *edit.EDIT_TOOLS)
"""Every tool, in the order tools/list gives them; a family's first is its main tool."""

_BY_NAME = {entry.name: entry for entry in ENTRIES}
_UNKNOWN = Logged()

FIRST_LOGGED: str = next(entry.name for entry in ENTRIES if entry.logged.first)
"""The tool of a log line without ``tool`` (the log's first tool; its lines leave it out)."""


def entry_of(name: object) -> ToolEntry | None:
    """The entry of the tool called ``name``, or None (not a tool siftui serves)."""
    return _BY_NAME.get(name) if isinstance(name, str) else None


def logged_as(name: object) -> Logged:
    """What the call log and its report make of a call of ``name``: its entry's
    :class:`~siftui.core.tools.entry.Logged`, or nothing for a tool siftui does not
    serve (a line the transport refused, an unreadable request)."""
    entry = entry_of(name)
    return entry.logged if entry is not None else _UNKNOWN


def continuation_of(name: object) -> Continuation | None:
    """How a result of ``name`` names the call that goes on from it, if it does."""
    entry = entry_of(name)
    return entry.continuation if entry is not None else None


def family_tools(family: str) -> tuple[ToolEntry, ...]:
    """The tools of ``family``, in the table's order."""
    return tuple(entry for entry in ENTRIES if entry.family == family)
