"""A preview session's calls, as plain values: what was sent, what came back, what is next.

Every call made is kept, refused ones too (an agent's script holds them, and
``siftui session`` prints their ``error:`` line); the result shown is the last
answered one, and ``b``/``f`` walk the answered ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from siftui.core.arguments import utf16_length
from siftui.core.evidence.script import call_line
from siftui.core.halfblocks import Pixels
from siftui.core.json_text import NotJson, json_value
from siftui.core.tools.table import entry_of
from siftui.tui.evidence.model import Result


@dataclass(frozen=True)
class Made:
    """One call of the session and its result."""

    tool: str
    arguments: Any
    result: Result
    pixels: Pixels | None = None  # a page image's, decoded for the terminal


def call_text(tool: str, arguments: Any) -> str:
    """A call as the call line shows it: the tool's name, a space, its JSON arguments."""
    return f"{tool} {json.dumps(arguments, ensure_ascii=False)}"


def parse_call_text(text: str) -> tuple[str, Any] | str:
    """``(tool, arguments)`` from a typed call line, or the one line saying why not."""
    tool, _, rest = text.strip().partition(" ")
    if not tool:
        return "type a call: a tool name, a space, its JSON arguments"
    if not rest.strip():
        return tool, {}
    try:
        return tool, json_value(rest)
    except NotJson as error:
        return f"the arguments are {error}"


def next_call(made: Made) -> tuple[str, dict[str, Any]] | None:
    """The call the result names as its continuation, as an agent makes it (its tool's
    entry's rule, siftui.core.tools.continuation)."""
    value = made.result.value()
    if not isinstance(value, dict):
        return None
    entry = entry_of(made.tool)
    if entry is None or entry.continuation is None:
        return None
    sent = made.arguments if isinstance(made.arguments, dict) else {}
    arguments = entry.continuation.next_arguments(sent, value)
    return (made.tool, arguments) if arguments is not None else None


@dataclass
class SessionLog:
    """The calls of one preview session, and which answered one is shown."""

    made: list[Made] = field(default_factory=list)
    shown: int | None = None  # index into made

    def add(self, made: Made) -> None:
        self.made.append(made)
        if not made.result.is_error:
            self.shown = len(self.made) - 1

    @property
    def current(self) -> Made | None:
        return self.made[self.shown] if self.shown is not None else None

    def document_of(self, made: Made) -> str | None:
        """The document ``made`` was about: its documentId, or its search's (a search's
        result and its continuation name only the searchId), else None."""
        arguments = made.arguments if isinstance(made.arguments, dict) else {}
        if isinstance(document := arguments.get("documentId"), str):
            return document
        search = arguments.get("searchId")
        if not isinstance(search, str):
            return None
        for earlier in self.made:
            value = earlier.result.value()
            if earlier is not made and isinstance(value, dict) and value.get("searchId") == search:
                return self.document_of(earlier)  # the first with it: the search itself
        return None

    def walk(self, *, back: bool) -> bool:
        """Show the answered call before (or after) the one shown; False at an end."""
        if self.shown is None:
            return False
        step = -1 if back else 1
        index = self.shown + step
        while 0 <= index < len(self.made):
            if not self.made[index].result.is_error:
                self.shown = index
                return True
            index += step
        return False

    def totals(self) -> tuple[int, int, int]:
        """(calls, UTF-16 units, runes) of every text the session's calls returned."""
        texts = [text for made in self.made for text in made.result.texts]
        return len(self.made), sum(utf16_length(t) for t in texts), sum(len(t) for t in texts)

    def calls_line(self) -> str:
        calls, units, runes = self.totals()
        where = ""
        if self.shown is not None:
            where = f" · showing call {self.shown + 1}"
        return (
            f"Session: {calls:,} call{'s' if calls != 1 else ''}, "
            f"{units:,} UTF-16 units, {runes:,} runes returned{where}"
        )

    def script(self) -> str:
        """The session as a ``siftui session`` script: one line per call, in order."""
        return "".join(call_line(made.tool, made.arguments) + "\n" for made in self.made)
