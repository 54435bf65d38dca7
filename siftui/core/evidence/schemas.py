"""Each evidence tool's JSON input schema, by name: its entry's (siftui.core.tools.evidence)."""

from __future__ import annotations

from siftui.core.tools.evidence import EVIDENCE_TOOLS
from siftui.core.tools.schema import Schema

__all__ = ["SCHEMAS", "TOOL_NAMES", "schema_of"]


SCHEMAS: dict[str, Schema] = {entry.name: dict(entry.input_schema) for entry in EVIDENCE_TOOLS}
"""The evidence tools' input schemas, in their entries' order."""

TOOL_NAMES = tuple(SCHEMAS)


def schema_of(tool: str) -> Schema:
    """The input schema of ``tool``; KeyError for a tool that is not one of E1-E11."""
    return SCHEMAS[tool]
