"""The table of the tools siftui serves, by family.

Serving a new tool is adding its :class:`siftui.serve.tool_api.ServedTool` to
:data:`TOOLS` (and, for a new family, a :class:`Family` to :data:`FAMILIES`):
``siftui mcp --tools FAMILY,...`` picks the families served.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from siftui.serve.docx_tool import READ_DOCX
from siftui.serve.evidence import tools as evidence
from siftui.serve.evidence.tools import EVIDENCE_TOOLS
from siftui.serve.pdf_tool import READ_PDF
from siftui.serve.tool_api import ServedTool
from siftui.serve.wire import clip


@dataclass(frozen=True)
class Family:
    """Tools served together: ``instructions`` tells the agent how to use them."""

    name: str
    instructions: str
    unknown_tool: str = ""  # how the family words a call of a tool not served ({name})


FAMILIES: tuple[Family, ...] = (
    Family(
        "read",
        "siftui serves two tools that read documents as text within a fixed budget: read_pdf "
        "(PDF, EPUB, XPS, ...) and read_docx (Word). Start without options to get the text or "
        "a map, then follow the page numbers or anchors, the outline and the notes with pages= "
        "(range= or anchor= for Word) or grep=.",
    ),
    Family(evidence.FAMILY, evidence.INSTRUCTIONS, unknown_tool=evidence.UNKNOWN_TOOL),
)

TOOLS: tuple[ServedTool, ...] = (READ_PDF, READ_DOCX, *EVIDENCE_TOOLS)
"""Every tool, in the order tools/list gives them; a family's first is its main tool."""

DEFAULT_FAMILIES = frozenset({"read"})
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
    return chosen, tuple(tool for tool in TOOLS if tool.family in wanted)
