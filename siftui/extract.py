"""CONTRACT.md's public name for extraction (it lives in siftui.sources.extract)."""

from siftui.sources.extract import extract

__all__ = ["extract"]
