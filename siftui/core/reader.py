"""What `siftui reader` shows, as plain values: a page's annotations, the outline and
fields beside it, a tab and its back history, a save request's changes, and the
lines that register the reader with an agent host (docs/READER.md, EDITING.md's
"The reader").
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field, replace

from siftui.core.edit.operations import Quad

AGENT_AUTHOR = "siftui agent"
"""The ``/T`` (author) of every annotation the edit tools make (E13)."""

EDITABLE = frozenset({"Highlight", "Underline", "StrikeOut", "Squiggly", "Text"})
"""The subtypes E14 and E15 take."""


@dataclass(frozen=True)
class AnnotationRow:
    """One annotation of the page shown, as E12 lists it."""

    annotation_id: str
    page: int
    subtype: str
    comment: str
    author: str

    @property
    def by_agent(self) -> bool:
        """Made by the edit tools (E13), not the file's own."""
        return self.author == AGENT_AUTHOR

    @property
    def editable(self) -> bool:
        return self.subtype in EDITABLE


@dataclass(frozen=True)
class OutlineRow:
    """One outline item: its depth (1 for the top level), title and page (None: no page);
    ``mark`` what the draft did to it ("added", "renamed", "moved", ...; "" for nothing)."""

    level: int
    title: str
    page: int | None
    mark: str = ""


@dataclass(frozen=True)
class FieldRow:
    """One writable form field's widget on the page shown, labelled as E17 labels it."""

    label: str  # "F1", "F2", … in the page's widget order
    name: str
    kind: str  # "text", "checkbox", "radio", "combobox" or "listbox"
    value: str  # the draft's, as shown
    changed: bool = False  # the draft's value is not the file's (an agent filled it)


@dataclass(frozen=True)
class ChangeLine:
    """One change of a draft against its file, as the save dialog lists it.

    ``page`` is None for a change that is no page's (a bookmark operation)."""

    page: int | None
    what: str


def changes_text(changes: tuple[ChangeLine, ...]) -> list[str]:
    """The changes grouped per page (in page order, then the rest), one line each."""
    if not changes:
        return ["(no changes)"]
    lines: list[str] = []
    pages = sorted({change.page for change in changes if change.page is not None})
    for page in pages:
        lines.append(f"page {page}:")
        lines.extend(f"  {change.what}" for change in changes if change.page == page)
    rest = [change.what for change in changes if change.page is None]
    if rest:
        lines.append("document:")
        lines.extend(f"  {what}" for what in rest)
    return lines


@dataclass(frozen=True)
class Tab:
    """One open document of the reader: its id (``tab-1``, ... per reader start), the page
    shown (1-based) and the pages it was on before each jump (the newest last)."""

    tab_id: str
    path: str
    page: int = 1
    back: tuple[int, ...] = field(default=())
    marks: tuple[Quad, ...] = ()
    """The text a jump by refId marks on ``page`` (PDF user space), until the page turns."""

    def turned(self, page: int) -> Tab:
        """The person turned the page: no history step."""
        return replace(self, page=page, marks=() if page != self.page else self.marks)

    def jumped(self, page: int, marks: tuple[Quad, ...] = ()) -> Tab:
        """A jump (E20, or an outline item chosen): one step of the back history."""
        return replace(self, page=page, back=(*self.back, self.page), marks=marks)

    def went_back(self) -> Tab | None:
        """``alt+left``: the page before the newest jump, or None when there was none."""
        if not self.back:
            return None
        return replace(self, page=self.back[-1], back=self.back[:-1], marks=())


def tab_id(number: int) -> str:
    return f"tab-{number}"


def clamp_page(page: int, pages: int) -> int:
    return max(1, min(page, max(pages, 1)))


_SHELL_SAFE = re.compile(r"[A-Za-z0-9_./:@%+=-]+")
"""Characters a shell line takes as they are, inside double quotes or none."""


@dataclass(frozen=True)
class Registration:
    """Where the reader's host listens and the token every request carries."""

    url: str
    token: str

    def claude_line(self) -> str:
        """The command that registers the reader with Claude Code."""
        url = self.url if _SHELL_SAFE.fullmatch(self.url) else shlex.quote(self.url)
        header = f"Authorization: Bearer {self.token}"
        header = f'"{header}"' if _SHELL_SAFE.fullmatch(self.token) else shlex.quote(header)
        return f"claude mcp add --transport http siftui {url} --header {header}"

    def json_snippet(self) -> str:
        """The entry for hosts configured by a JSON file (``mcpServers``)."""
        entry = {
            "mcpServers": {
                "siftui": {
                    "type": "http",
                    "url": self.url,
                    "headers": {"Authorization": f"Bearer {self.token}"},
                }
            }
        }
        return json.dumps(entry, indent=2)

    def bridge_line(self, pid: int) -> str:
        """The stdio bridge, for hosts that only start stdio servers."""
        return f"siftui mcp --reader {pid}"
