"""What a served tool's entry holds, and the families tools are served in.

Every field is pure: strings, schemas, flags, rules on JSON values and the
session function of an evidence tool. siftui.serve binds the handler (the I/O)
to the entry; the rest of siftui reads the entry (siftui.core.tools.table) and
never spells a tool's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from siftui.core.tools.continuation import Continuation

__all__ = ["Family", "Logged", "ResultLayout", "ToolEntry"]


@dataclass(frozen=True)
class Family:
    """Tools served together (``--tools FAMILY,...``): ``instructions`` tells the agent
    how to use them; ``unknown_tool`` how the family words a call of a tool not served
    (``{name}``; empty: the protocol's own error)."""

    name: str
    instructions: str
    unknown_tool: str = ""


class ResultLayout(Enum):
    """How the evidence preview's reading layout draws a tool's result
    (siftui.tui.evidence.reading); any result not of the expected shape is JSON."""

    JSON = "json"  # the result's JSON, indented
    PIECES = "pieces"  # page pieces under page markers with their ranges and refIds
    HITS = "hits"  # search hits with their context, the hit marked
    OUTLINE = "outline"  # outline items as an indented tree
    IMAGE = "image"  # a page image's size, dpi and handle
    DERIVED = "derived"  # text that is not the PDF's own (OCR), marked as such


@dataclass(frozen=True)
class Logged:
    """What the call log and ``siftui log --report`` make of a tool's calls."""

    first: bool = False
    """The log's first tool: its lines leave ``tool`` out, and a line without one is its call."""
    document: bool = False
    """It reads a document within the OutCap: the report follows its calls per document
    (loops, errors, cut answers), and the replay can make a call of it again."""
    pages: bool = False
    """The report counts the pages its answers showed (and the pages never read)."""
    stories: bool = False
    """Its options are range, anchor, window and scope: the log keeps them under
    ``options``, and its cut answers' notes ask for ``range=`` or ``scope=``."""
    session: bool = False
    """A call of a session: the report follows it per session, and ``siftui log
    --rerun`` makes the logged session again."""
    refusals: bool = False
    """The report lists its refused calls and whether the next call of it worked."""
    hidden: bool = False
    """Its results carry ``--warn-hidden``'s warnings: a re-run of a session that got
    one turns ``--warn-hidden`` on."""


@dataclass(frozen=True, eq=False)
class ToolEntry:
    """One served tool, as everything but its handler sees it (one object per tool:
    compared and hashed by identity).

    ``description`` is a template: ``{out_cap:,}``, ``{unit}``, ``{roots}`` and
    ``{first_root}`` are filled in from the server's settings (doubled braces are
    literal). ``input_schema`` is the published ``inputSchema`` and what every call
    is checked against (``messages``: the argument checker's replacement messages);
    ``lenient``: before the check, an optional key given as null counts as absent
    and a whole float as an integer (the read tools always took them so; the
    evidence tools are strict). ``worker``: the tool's work on a file's bytes runs
    in a worker process of the document store (MuPDF never runs in the server).
    ``pure``: the function of siftui.core.evidence that answers it from the
    session's state (its keywords the wire's keys in snake_case, plus what the
    handler adds), None when the handler answers alone. ``stale_checked``: before
    it runs, the session's documents are checked for change on disk (so a stale
    one is refused). ``continuation``: how a result names the call that goes on
    from it. ``layout``: how the preview draws its result. ``logged``: what the
    call log and its report make of its calls.
    """

    name: str
    family: str
    title: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None = None
    messages: Mapping[str, str] = field(default_factory=dict)
    lenient: bool = False
    read_only: bool = True
    idempotent: bool = True
    worker: bool = False
    pure: Callable[..., dict[str, object]] | None = None
    stale_checked: bool = False
    continuation: Continuation | None = None
    layout: ResultLayout = ResultLayout.JSON
    logged: Logged = Logged()
