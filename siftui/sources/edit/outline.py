"""E16 on the draft: outline items edited in their own dictionaries, never rebuilt.

An outline item is a dictionary linked to its neighbours (``/Parent``, ``/Prev``,
``/Next``, ``/First``, ``/Last``) with a ``/Count`` whose sign is its open state.
An operation relinks the items it moves and sets only the keys it changes: a new
title is the item's ``/Title``; a new page its ``/Dest`` (the page's top, any
``/A`` dropped); every other key (``/A`` with its GoTo or URI action, a named
``/Dest``, ``/C``, ``/F``, ``/SE``) stays as the file has it, and so do the items
no operation names. ``/Count`` is written again on the items above a change.
(PyMuPDF's ``set_toc`` would rebuild every item from (level, title, page) rows,
losing destinations, styles and open states.)

A :class:`DraftOutline` keeps the pure tree (``siftui.core.edit.outline``) and the
object of each item of one document, the draft: a document it has not seen (the
draft replayed after an undo, another draft after a save) is read afresh. The
file's items are ``ol-<i>`` in E11's order, their titles and pages as E11 gives
them (``walk_outline``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from siftui.core.edit.history import History
from siftui.core.edit.operations import Transaction
from siftui.core.edit.outline import OutlineTree, described, outline_number
from siftui.core.edit.outline_ops import (
    OUTLINE_OPERATIONS,
    AddOutline,
    DeleteOutline,
    MoveOutline,
    OutlineOperation,
    UpdateOutline,
)
from siftui.core.evidence.errors import EvidenceError
from siftui.sources.edit.documents import forget_outline
from siftui.sources.pdf_open import quiet_pymupdf
from siftui.sources.pdf_outline import MAX_OUTLINE_ITEMS, walk_outline

pymupdf: Any = quiet_pymupdf()
mupdf: Any = pymupdf.mupdf

__all__ = ["DraftOutline", "highest_given", "page_destination"]


def _xref(document: Any, xref: int, key: str) -> int | None:
    kind, value = document.xref_get_key(xref, key)
    return int(value.split()[0]) if kind == "xref" else None


def _count(document: Any, xref: int) -> int:
    kind, value = document.xref_get_key(xref, "Count")
    try:
        return int(value) if kind == "int" else 0
    except ValueError:
        return 0


def _ref(xref: int | None) -> str:
    return "null" if xref is None else f"{xref} 0 R"


def page_destination(document: Any, page: int) -> str:
    """The top of page ``page`` (1-based) as an explicit destination."""
    box = document[page - 1].mediabox  # the /MediaBox's numbers, as stored
    return f"[{document.page_xref(page - 1)} 0 R /XYZ null {float(box.y1):g} null]"


@dataclass
class _State:
    tree: OutlineTree
    xrefs: dict[str, int]  # each item's object
    open: dict[str, bool]  # the sign of its /Count (True where it has none)
    root: int | None  # the /Outlines dictionary
    damaged: str = ""  # why the outline cannot be edited ("" when it can)

    def copy(self) -> _State:
        return _State(self.tree.copy(), dict(self.xrefs), dict(self.open), self.root, self.damaged)


def _read(document: Any) -> _State:
    """The outline of ``document``'s objects, its items ``ol-<i>`` in E11's order."""
    catalog = document.pdf_catalog()
    root = _xref(document, catalog, "Outlines")
    found: list[tuple[int, str | None]] = []  # (xref, parent id) depth first
    seen: set[int] = set()
    pending: list[tuple[int | None, str | None]] = []
    if root is not None:
        pending.append((_xref(document, root, "First"), None))
    while pending and len(found) < MAX_OUTLINE_ITEMS:
        xref, parent = pending.pop()
        while xref is not None and xref not in seen and len(found) < MAX_OUTLINE_ITEMS:
            seen.add(xref)
            found.append((xref, parent))
            following = _xref(document, xref, "Next")
            first = _xref(document, xref, "First")
            if first is not None:
                pending.append((following, parent))
                xref, parent = first, f"ol-{len(found)}"
                continue
            xref = following
    forget_outline(document)
    try:
        items = walk_outline(document)
    except Exception:  # MuPDF cannot read it: E11 lists nothing, nothing is edited
        items = []
    state = _State(OutlineTree(), {}, {}, root)
    if len(items) != len(found):  # listed as MuPDF reads it (E11's items), never edited
        state.damaged = (
            f"its outline objects hold {len(found)} items where MuPDF reads {len(items)}"
        )
        _by_levels(state.tree, items)
        return state
    for number, ((xref, parent), (_, title, page)) in enumerate(zip(found, items, strict=True), 1):
        outline_id = f"ol-{number}"
        state.tree.append(outline_id, parent, title, page if page >= 1 else None)
        state.xrefs[outline_id] = xref
        state.open[outline_id] = _count(document, xref) >= 0
    return state


def _by_levels(tree: OutlineTree, items: list[tuple[int, str, int]]) -> None:
    """``tree`` holds ``items`` (E11's levels, titles and pages) as ``ol-1``, ... ."""
    above: list[str] = []  # the items the next one may be under, by level
    for number, (level, title, page) in enumerate(items, 1):
        del above[max(level - 1, 0) :]
        outline_id = f"ol-{number}"
        tree.append(outline_id, above[-1] if above else None, title, page if page >= 1 else None)
        above.append(outline_id)


def highest_given(operations: Iterable[object]) -> int:
    """The highest ``ol-<n>`` added by ``operations`` (0 for none)."""
    return max(
        (outline_number(one.outline_id) for one in operations if isinstance(one, AddOutline)),
        default=0,
    )


class DraftOutline:
    """The outline of the draft document, and the file's (before any operation)."""

    def __init__(self, given: int = 0) -> None:
        self.given = given  # the highest ol-<n> given since the file's bytes were read
        self._base: _State | None = None  # the file's
        self._current: _State | None = None
        self._document: Any = None

    @classmethod
    def of(cls, history: History) -> DraftOutline:
        """The outline of a working copy whose transactions are ``history``'s (the ids
        its additions gave, undone ones too, are not given again)."""
        kept = [*history.applied, *history.undone]
        return cls(highest_given(op for one in kept for op in one.operations))

    def reset(self) -> None:
        """After a save: the file is the saved bytes, its items numbered afresh."""
        self.given = 0
        self._base = self._current = self._document = None

    def _state(self, document: Any) -> _State:
        """The state of ``document``: one it has not seen is one no operation touched
        yet (the file's bytes opened, or the file itself after a save)."""
        if self._current is None or document is not self._document:
            if self._base is None:
                self._base = _read(document)
            self._current = self._base.copy()
            self._document = document
        return self._current

    def tree(self, document: Any) -> OutlineTree:
        """A copy of ``document``'s outline, for the caller to change."""
        tree = self._state(document).tree.copy()
        tree.given = max(tree.given, self.given)
        return tree

    def file_tree(self, document: Any) -> OutlineTree:
        """The file's outline (``document`` is the file's, or one not edited yet)."""
        if self._base is None:
            self._base = _read(document)
        return self._base.tree.copy()

    def lines(self, file: Any, transactions: Iterable[Transaction]) -> list[str]:
        """The bookmark operations of ``transactions``, one line each (the save dialog's),
        worded from the outline of ``file`` (the file's document) as each found it."""
        tree, found = self.file_tree(file), []
        for operation in (op for one in transactions for op in one.operations):
            if isinstance(operation, OUTLINE_OPERATIONS):
                found.append(described(tree, operation))
                tree.apply(operation)
        return found

    def apply(self, document: Any, operation: OutlineOperation) -> None:
        state = self._state(document)
        if state.damaged:
            raise EvidenceError(f"the outline cannot be edited: {state.damaged}")
        _Edit(document, state).apply(operation)
        forget_outline(document)
        self.given = max(self.given, state.tree.given)


class _Edit:
    def __init__(self, document: Any, state: _State) -> None:
        self.document = document
        self.state = state
        self.tree = state.tree

    def _object(self, outline_id: str | None) -> int:
        if outline_id is None:
            if self.state.root is None:
                root = self.document.get_new_xref()
                self.document.update_object(root, "<< /Type /Outlines >>")
                self.document.xref_set_key(self.document.pdf_catalog(), "Outlines", _ref(root))
                self.state.root = root
            return self.state.root
        return self.state.xrefs[outline_id]

    def _set(self, outline_id: str | None, key: str, value: str) -> None:
        """``value`` "null" removes the key (PyMuPDF would write ``/key null``, which
        pypdf, for one, cannot read in an ``/A``)."""
        xref = self._object(outline_id)
        if value != "null":
            self.document.xref_set_key(xref, key, value)
            return
        made = mupdf.pdf_new_indirect(pymupdf._as_pdf_document(self.document), xref, 0)
        mupdf.pdf_dict_dels(mupdf.pdf_resolve_indirect(made), key)

    def _neighbours(self, outline_id: str) -> tuple[str | None, str | None, str | None]:
        parent = self.tree.parents[outline_id]
        siblings = self.tree.siblings(parent)
        at = siblings.index(outline_id)
        before = siblings[at - 1] if at > 0 else None
        after = siblings[at + 1] if at + 1 < len(siblings) else None
        return parent, before, after

    def _unlink(self, outline_id: str) -> None:
        parent, before, after = self._neighbours(outline_id)
        before_ref = _ref(None if before is None else self.state.xrefs[before])
        after_ref = _ref(None if after is None else self.state.xrefs[after])
        if before is None:
            self._set(parent, "First", after_ref)
        else:
            self._set(before, "Next", after_ref)
        if after is None:
            self._set(parent, "Last", before_ref)
        else:
            self._set(after, "Prev", before_ref)

    def _link(self, outline_id: str) -> None:
        """``outline_id`` in the tree's place for it, its neighbours pointing at it."""
        parent, before, after = self._neighbours(outline_id)
        me = _ref(self.state.xrefs[outline_id])
        self._set(outline_id, "Parent", _ref(self._object(parent)))
        self._set(outline_id, "Prev", _ref(None if before is None else self.state.xrefs[before]))
        self._set(outline_id, "Next", _ref(None if after is None else self.state.xrefs[after]))
        if before is None:
            self._set(parent, "First", me)
        else:
            self._set(before, "Next", me)
        if after is None:
            self._set(parent, "Last", me)
        else:
            self._set(after, "Prev", me)

    def _counts(self, parents: Iterable[str | None]) -> None:
        """``/Count`` of each of ``parents`` and the items above them, from the tree."""
        visible: dict[str | None, int] = {}
        order: list[str | None] = [None, *(one.outline_id for one in self.tree.entries())]
        for item in reversed(order):
            visible[item] = sum(
                1 + (visible[child] if self.state.open.get(child, True) else 0)
                for child in self.tree.siblings(item)
            )
        done: set[str | None] = set()
        for parent in parents:
            for item in [*self.tree.ancestors(parent), None]:
                if item in done:
                    continue
                done.add(item)
                shown = visible[item]
                if item is None:
                    self._set(None, "Count", str(shown) if shown else "null")
                elif not self.tree.siblings(item):
                    self._set(item, "Count", "null")
                else:
                    self._set(item, "Count", str(shown if self.state.open[item] else -shown))

    def apply(self, operation: OutlineOperation) -> None:
        tree, state = self.tree, self.state
        if isinstance(operation, AddOutline):
            xref = self.document.get_new_xref()
            title = pymupdf.get_pdf_str(operation.title)
            destination = page_destination(self.document, operation.page)
            self.document.update_object(xref, f"<< /Title {title} /Dest {destination} >>")
            tree.apply(operation)
            state.xrefs[operation.outline_id] = xref
            state.open[operation.outline_id] = True
            self._link(operation.outline_id)
            self._counts([operation.parent_id])
        elif isinstance(operation, UpdateOutline):
            if operation.title is not None:
                self._set(operation.outline_id, "Title", pymupdf.get_pdf_str(operation.title))
            if operation.page is not None:
                destination = page_destination(self.document, operation.page)
                self._set(operation.outline_id, "Dest", destination)
                self._set(operation.outline_id, "A", "null")
            tree.apply(operation)
        elif isinstance(operation, DeleteOutline):
            parent = tree.parents[operation.outline_id]
            self._unlink(operation.outline_id)
            gone = tree.subtree(operation.outline_id)
            tree.apply(operation)
            for one in gone:
                del state.xrefs[one], state.open[one]
            self._counts([parent])
        else:
            assert isinstance(operation, MoveOutline)
            parent = tree.parents[operation.outline_id]
            self._unlink(operation.outline_id)
            tree.apply(operation)
            self._link(operation.outline_id)
            self._counts([parent, operation.parent_id])
