"""What a working copy tells: a change (to its listeners) and a save (to the host)."""

from __future__ import annotations

from dataclasses import dataclass

from siftui.core.edit.operations import Transaction

__all__ = ["Change", "Saved", "content_version_of"]


def content_version_of(sha256: str) -> str:
    return "v-" + sha256[:12]


@dataclass(frozen=True, slots=True)
class Change:
    """What one new revision did, as listeners are told it."""

    revision: int
    kind: str  # "write", "undo", "redo", "discard" or "save"
    transaction: Transaction | None  # the one written, undone or redone
    unsaved: bool  # the draft holds changes after it
    pages: tuple[int, ...]  # the pages whose annotations changed; () for every page


@dataclass(frozen=True, slots=True)
class Saved:
    revision: int
    sha256: str
    content_version: str
    bytes: int
    whole: bool  # rewritten whole
    reason: str  # why whole ("" when appended to)
