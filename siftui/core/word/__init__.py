"""Word documents as the agent's tool sees them (docs/WORD.md): the model, its
rendering, layout and walk. Pure: no OOXML (siftui.sources.word reads the files).

Only the refusal lives here, so a table that catches every kind's refusals does not
load the Word modules for a PDF.
"""


class BadOption(ValueError):
    """A range, anchor, window or scope WORD.md rejects; the message is shown as is."""
