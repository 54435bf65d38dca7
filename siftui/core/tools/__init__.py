"""The tools siftui serves, each one entry: what is pure about it (no I/O, no MCP).

A served tool is one :class:`~siftui.core.tools.entry.ToolEntry` in its family's
module: ``read.py`` (read_pdf, read_docx), ``evidence.py`` (E1-E11 of
docs/EVIDENCE.md). The entry holds the tool's name, title, description,
schemas, whether its work on a file runs in a worker process, the session
function that answers it (the evidence tools), its continuation (what ``n`` in
the evidence preview and the log report follow), the reading layout the TUI
draws its result in, and what the call log and ``siftui log --report`` make of
its calls. ``table.py`` lists every entry and family; siftui.serve binds a
handler to each entry (siftui.serve.tools), and the session, the preview, the
log, its report and the replay ask the entry. No other module spells a tool's
name (tests/core/test_tool_names.py).
"""
