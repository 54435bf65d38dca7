"""The table of the tools siftui serves: each entry of siftui.core.tools with its handler.

Serving a new tool is adding its entry to its family's module in siftui.core.tools
and its :class:`siftui.serve.tool_api.ServedTool` (the entry and its handler) to
its family's tuple here (a new family: to :data:`siftui.core.tools.table.FAMILIES`
too). ``siftui mcp --tools FAMILY,...`` picks the families served.
"""

from __future__ import annotations

from collections.abc import Iterable

from siftui.core.tools import edit, read
from siftui.core.tools.entry import Family
from siftui.core.tools.table import FAMILIES
from siftui.serve.docx_tool import READ_DOCX
from siftui.serve.edit.tools import EDIT_TOOLS, EXTENDED_TOOLS
from siftui.serve.evidence.tools import EVIDENCE_TOOLS
from siftui.serve.pdf_tool import READ_PDF
from siftui.serve.tool_api import ServedTool
from siftui.serve.wire import clip

__all__ = [
    "DEFAULT_FAMILIES",
    "FAMILIES",
    "FAMILY_NAMES",
    "HOST_FAMILIES",
    "TOOLS",
    "Family",
    "UnknownFamily",
    "selected",
]

TOOLS: tuple[ServedTool, ...] = (READ_PDF, READ_DOCX, *EVIDENCE_TOOLS, *EDIT_TOOLS)
"""Every tool, in the order tools/list gives them (siftui.core.tools.table.ENTRIES')."""

DEFAULT_FAMILIES = frozenset({read.FAMILY.name})
EXTENDED: dict[str, tuple[ServedTool, ...]] = {edit.FAMILY.name: EXTENDED_TOOLS}
"""A family's versions of another family's tools, served in their place when both are."""
HOST_FAMILIES = frozenset({edit.FAMILY.name})
"""Served only by a host (siftui reader; siftui session previews them): they need its
shared working copies and its reader."""
FAMILY_NAMES: tuple[str, ...] = tuple(family.name for family in FAMILIES)


class UnknownFamily(ValueError):
    pass


def selected(families: Iterable[str]) -> tuple[tuple[Family, ...], tuple[ServedTool, ...]]:
    """The families named (in the table's order) and their tools, or :class:`UnknownFamily`."""
    wanted = set(families)
    unknown = sorted(wanted - set(FAMILY_NAMES))
    if unknown:
        raise UnknownFamily(
            f'unknown tool family "{clip(unknown[0])}" (families: {", ".join(FAMILY_NAMES)})'
        )
    if not wanted:
        raise UnknownFamily(f"no tool family (families: {', '.join(FAMILY_NAMES)})")
    chosen = tuple(family for family in FAMILIES if family.name in wanted)
    instead = {tool.name: tool for family in chosen for tool in EXTENDED.get(family.name, ())}
    return chosen, tuple(instead.get(tool.name, tool) for tool in TOOLS if tool.family in wanted)
