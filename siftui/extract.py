"""The public name (docs/SPEC.md) for extraction (it lives in siftui.sources.extract)."""

from siftui.sources.extract import extract

__all__ = ["extract"]
