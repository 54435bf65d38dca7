"""The public names (docs/SPEC.md) for the answer (they live in siftui.core.render)."""

from siftui.core.docindex import marker
from siftui.core.render import (
    DEFAULT_OUT_CAP,
    BadGrep,
    BadPages,
    MalformedPages,
    Options,
    Rendered,
    check_options,
    full,
    render,
)

__all__ = [
    "DEFAULT_OUT_CAP",
    "BadGrep",
    "BadPages",
    "MalformedPages",
    "Options",
    "Rendered",
    "check_options",
    "full",
    "marker",
    "render",
]
