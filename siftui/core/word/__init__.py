"""Word documents as the agent's tool sees them (docs/WORD.md): the model, its
rendering, layout and walk. Pure: no OOXML (siftui.sources.word reads the files).

Only the refusal and the window's bounds live here, so a table that catches every
kind's refusals, and the read_docx entry's schema, do not load the Word modules for
a PDF.
"""

DEFAULT_WINDOW = 6
"""Paragraphs each side of an anchor, when no window is given."""
MAX_WINDOW = 50

DOCX_SUFFIXES = (".docx", ".docm", ".dotx", ".dotm")
"""The names a Word package has (its own, .docx, first)."""


class BadOption(ValueError):
    """A range, anchor, window or scope WORD.md rejects; the message is shown as is."""
