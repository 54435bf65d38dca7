"""The public names (docs/SPEC.md) for the answer (they live in siftui.core.render)."""

from siftui.core.docindex import marker
from siftui.core.render import BadGrep, BadPages, Options, Rendered, full, render

__all__ = ["BadGrep", "BadPages", "Options", "Rendered", "full", "marker", "render"]
