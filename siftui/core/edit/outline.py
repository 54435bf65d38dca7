"""A draft's outline as a pure tree: E11's items with their ids, and E16's operations
applied to it.

The file's items are ``ol-1`` ... ``ol-N`` in E11's order (depth first); an added
item is ``ol-<n>`` with n one more than the highest number the working copy has
given (``given``), so a deleted id never comes back. The working copy keeps one of
these beside the draft's outline objects (``siftui.sources.edit.outline``), and
pdf_bookmark_edit checks an agent's operations on a copy of it before anything is
applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from siftui.core.edit.outline_ops import (
    AddOutline,
    DeleteOutline,
    OutlineOperation,
    UpdateOutline,
)

__all__ = ["OutlineEntry", "OutlineTree", "described", "outline_marks", "outline_number"]


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One item as E11 lists it on a working copy."""

    outline_id: str
    level: int  # 1 for the top level
    title: str
    page: int | None

    def item(self) -> dict[str, object]:
        return {
            "outlineId": self.outline_id,
            "level": self.level,
            "title": " ".join(self.title.split()),
            "page": self.page,
        }


def outline_number(outline_id: str) -> int:
    """The n of ``ol-<n>`` (0 for anything else)."""
    digits = outline_id[3:]
    if outline_id.startswith("ol-") and digits.isdigit() and digits[0] != "0":
        return int(digits)
    return 0


class OutlineTree:
    """Items by id, each parent's children in order (``None``: the top level)."""

    def __init__(self) -> None:
        self.children: dict[str | None, list[str]] = {None: []}
        self.parents: dict[str, str | None] = {}
        self.titles: dict[str, str] = {}
        self.pages: dict[str, int | None] = {}
        self.given = 0  # the highest n of an ol-<n> given

    def copy(self) -> OutlineTree:
        made = OutlineTree()
        made.children = {key: list(value) for key, value in self.children.items()}
        made.parents = dict(self.parents)
        made.titles = dict(self.titles)
        made.pages = dict(self.pages)
        made.given = self.given
        return made

    def __contains__(self, outline_id: object) -> bool:
        return outline_id in self.parents

    def __len__(self) -> int:
        return len(self.parents)

    def next_id(self) -> str:
        return f"ol-{self.given + 1}"

    def append(self, outline_id: str, parent_id: str | None, title: str, page: int | None) -> None:
        """``outline_id`` as the last child of ``parent_id`` (building a tree in order)."""
        self._place(outline_id, parent_id, len(self.children[parent_id]))
        self.titles[outline_id] = title
        self.pages[outline_id] = page
        self.given = max(self.given, outline_number(outline_id))

    def _place(self, outline_id: str, parent_id: str | None, index: int) -> None:
        self.children[parent_id].insert(index, outline_id)
        self.children.setdefault(outline_id, [])
        self.parents[outline_id] = parent_id

    def siblings(self, parent_id: str | None) -> list[str]:
        return self.children[parent_id]

    def ancestors(self, outline_id: str | None) -> list[str]:
        """``outline_id`` and the items above it, nearest first (none for the top)."""
        found: list[str] = []
        while outline_id is not None:
            found.append(outline_id)
            outline_id = self.parents[outline_id]
        return found

    def subtree(self, outline_id: str) -> list[str]:
        """``outline_id`` and the items under it, depth first."""
        found: list[str] = []
        pending = [outline_id]
        while pending:
            current = pending.pop()
            found.append(current)
            pending.extend(reversed(self.children[current]))
        return found

    def entries(self) -> list[OutlineEntry]:
        """Every item depth first, as E11 lists them."""
        return list(self._walk())

    def _walk(self) -> Iterator[OutlineEntry]:
        pending: list[tuple[str, int]] = [(one, 1) for one in reversed(self.children[None])]
        while pending:
            current, level = pending.pop()
            yield OutlineEntry(current, level, self.titles[current], self.pages[current])
            pending.extend((one, level + 1) for one in reversed(self.children[current]))

    # -- E16's operations, checked by the caller -----------------------------------

    def apply(self, operation: OutlineOperation) -> None:
        if isinstance(operation, AddOutline):
            self._place(operation.outline_id, operation.parent_id, operation.index)
            self.titles[operation.outline_id] = operation.title
            self.pages[operation.outline_id] = operation.page
            self.given = max(self.given, outline_number(operation.outline_id))
        elif isinstance(operation, UpdateOutline):
            if operation.title is not None:
                self.titles[operation.outline_id] = operation.title
            if operation.page is not None:
                self.pages[operation.outline_id] = operation.page
        elif isinstance(operation, DeleteOutline):
            gone = self.subtree(operation.outline_id)
            self.children[self.parents[operation.outline_id]].remove(operation.outline_id)
            for one in gone:
                del self.parents[one], self.titles[one], self.pages[one], self.children[one]
        else:
            self.children[self.parents[operation.outline_id]].remove(operation.outline_id)
            self.children[operation.parent_id].insert(operation.index, operation.outline_id)
            self.parents[operation.outline_id] = operation.parent_id


def _named(tree: OutlineTree, outline_id: str) -> str:
    return f'{outline_id} "{" ".join(tree.titles[outline_id].split())}"'


def _where(tree: OutlineTree, parent_id: str | None, index: int) -> str:
    under = "at the top level" if parent_id is None else f"under {_named(tree, parent_id)}"
    return f"{under}, position {index + 1}"


def described(tree: OutlineTree, operation: OutlineOperation) -> str:
    """One line of the save dialog for ``operation``, worded from ``tree`` before it."""
    if isinstance(operation, AddOutline):
        return (
            f'bookmark added {operation.outline_id} "{" ".join(operation.title.split())}"'
            f" -> p. {operation.page}, {_where(tree, operation.parent_id, operation.index)}"
        )
    name = _named(tree, operation.outline_id)
    if isinstance(operation, UpdateOutline):
        what = []
        if operation.title is not None:
            what.append(f'renamed to "{" ".join(operation.title.split())}"')
        if operation.page is not None:
            what.append(f"-> p. {operation.page}")
        return f"bookmark {name} {' and '.join(what)}"
    if isinstance(operation, DeleteOutline):
        under = len(tree.subtree(operation.outline_id)) - 1
        more = f" and the {under} under it" if under else ""
        return f"bookmark deleted {name}{more}"
    return f"bookmark moved {name} {_where(tree, operation.parent_id, operation.index)}"


def outline_marks(operations: Iterable[OutlineOperation]) -> dict[str, str]:
    """What the draft's ``operations`` did to each item they name ("added", or some of
    "renamed", "new page" and "moved", comma separated): the reader marks them."""
    done: dict[str, list[str]] = {}
    for operation in operations:
        words = done.setdefault(operation.outline_id, [])
        if isinstance(operation, AddOutline):
            words[:] = ["added"]
            continue
        if isinstance(operation, DeleteOutline) or "added" in words:
            continue
        if isinstance(operation, UpdateOutline):
            new = [
                word
                for word, given in (("renamed", operation.title), ("new page", operation.page))
                if given is not None
            ]
        else:
            new = ["moved"]
        words.extend(word for word in new if word not in words)
    return {outline_id: ", ".join(words) for outline_id, words in done.items() if words}
