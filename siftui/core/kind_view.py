"""What the TUI shows for one kind of document: its entry's view.

Pure. Each kind's entry (siftui.core.kinds) has one :class:`KindView`: the fields
of its request bar and their labels, the call a key, a click or a walk's row makes
(a page, a range of units, an anchor), its answers and its document in words, and
the units its page strip draws. The TUI asks the view of the kind shown, so it
never tests the kind itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from siftui.core.layout import AnswerKind
from siftui.core.render import Rendered


@dataclass(frozen=True)
class Field:
    """One field of the request bar: its name (the Input's id, and the name
    :meth:`KindView.with_field` is told), label and placeholder; ``restrict``: the
    characters it takes (a regular expression, None: any); ``completes``: Tab
    completes from :meth:`KindView.suggestions`."""

    name: str
    label: str
    placeholder: str
    restrict: str | None = None
    completes: bool = False


@dataclass(frozen=True)
class StripUnits:
    """What the page strip draws of a document: its units 1..N (pages, or a story's
    paragraph blocks), each one's size and emptiness, and headings (0: none)."""

    block_sizes: tuple[int, ...]
    empty: tuple[bool, ...]
    count: int
    unit: str
    headings: tuple[int, ...] = ()


GREP = Field("grep", "Grep", "RE2 pattern (smart case)")
"""Every kind's field."""


class KindView:
    """The TUI's view of one kind (the methods take the kind's own options and documents)."""

    style: str
    """The request bar shows this kind with its class ``-<style>``; its own fields
    carry the class ``<style>-only``."""
    fields: tuple[Field, ...]
    """The kind's own fields before Grep."""
    after_grep: tuple[Field, ...] = ()
    """The kind's own fields after Grep."""
    range_field: str
    """The field `p` focuses."""
    range_action: str
    """The action of the `p` key shown for this kind (its name in the footer)."""
    anchor_field: str | None = None
    """The field `a` focuses (None: the kind has no anchors)."""
    no_anchor: str = ""
    """What `a` says when the kind has no anchors."""
    chooses_lines: bool = False
    """A line of the view chosen (Enter, a click) asks for its anchor's window."""
    units_column: str
    """The walk table's column of what each call shows."""

    @property
    def every_field(self) -> tuple[Field, ...]:
        return (*self.fields, GREP, *self.after_grep)

    def suggestions(self) -> tuple[str, ...]:
        """What a completing field completes from."""
        return ()

    def field_values(self, options: Any) -> dict[str, str]:
        """The request bar's fields as they show ``options`` (only this kind's)."""
        raise NotImplementedError

    def with_field(self, options: Any, name: str, text: str) -> Any:
        """``options`` with the field ``name`` set to ``text`` (another kind's field: unchanged)."""
        raise NotImplementedError

    def units_call(self, options: Any, first: int, last: int) -> Any:
        """Read units first..last (pages, or a story's paragraphs), grep cleared."""
        raise NotImplementedError

    def page_call(self, options: Any, page: int) -> Any | None:
        """Page ``page`` alone, grep cleared (None: the kind has no pages)."""
        return None

    def anchor_call(self, options: Any, doc: Any, number: int) -> Any | None:
        """The window around unit ``number`` (None: none, or the kind has no anchors)."""
        return None

    def unit_call(self, options: Any | None, number: int, out_cap: int, unit: str) -> Any:
        """The call that reads unit ``number`` alone (a walk's unreachable row), in the
        story ``options`` ask when they are this kind's."""
        raise NotImplementedError

    def shown(self, first: int, last: int) -> str:
        """The units an answer holds, as the walk lists them ("-", "7-9", "P7..P9")."""
        raise NotImplementedError

    def shown_units(self, rendered: Rendered, options: Any) -> str:
        """What an answer holds, in words: "pages 3-5", "P3..P9", "no pages"."""
        raise NotImplementedError

    def label(self, kind: AnswerKind, options: Any) -> str:
        """What the answer is, in words: "map", "pages 3-5", "window of P4#1a2b"."""
        raise NotImplementedError

    def document_words(self, doc: Any, options: Any) -> str:
        """The document in the counter's words: "doc: 51 pages · full text 120,114 runes"."""
        raise NotImplementedError

    def strip(self, doc: Any, scope: str) -> StripUnits:
        """The units the page strip draws (of the story ``scope``, for a kind of stories)."""
        raise NotImplementedError

    def keeps_known_facts(self) -> bool:
        """The strip's facts, once worked out with what background work added, are
        kept for the document (a PDF's pages); else they follow the story asked."""
        return False


def plural(count: int, noun: str) -> str:
    """ "1 page", "3 pages", "1,200 calls"."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
