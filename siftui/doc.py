"""CONTRACT.md's public names for the extracted document (it lives in siftui.core.doc)."""

from siftui.core.doc import Doc, OutlineItem

__all__ = ["Doc", "OutlineItem"]
