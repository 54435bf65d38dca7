"""The public names (docs/SPEC.md) for the extracted document (it lives in siftui.core.doc)."""

from siftui.core.doc import Doc, OutlineItem

__all__ = ["Doc", "OutlineItem"]
