"""A working copy's revision and undo history (pure): transactions made, undone, redone.

``revision`` is 0 when a working copy starts from the file's bytes and goes up by
one for every change that succeeds: a write, an undo, a redo, a person's edit, a
discard, a save. ``applied`` are the transactions the draft holds, oldest first
(the draft is the file's bytes with them replayed); ``undone`` the ones redo puts
back, the next to redo last. A new write empties ``undone``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from siftui.core.edit.operations import Transaction
from siftui.core.evidence.errors import EvidenceError

__all__ = ["History", "NothingToRedo", "NothingToUndo", "stale_revision", "stale_while_waiting"]


class NothingToUndo(EvidenceError):
    def __init__(self) -> None:
        super().__init__("nothing to undo")


class NothingToRedo(EvidenceError):
    def __init__(self) -> None:
        super().__init__("nothing to redo")


def stale_revision(revision: int, expected: int) -> EvidenceError:
    """A write that names another revision than the working copy's."""
    return EvidenceError(f"revision is {revision}, not {expected}: list again to see what changed")


def stale_while_waiting(revision: int, expected: int) -> EvidenceError:
    """A save approved after the draft changed while it waited (E19)."""
    return EvidenceError(
        f"revision is {revision}, not {expected}: the draft changed while waiting; nothing saved"
    )


@dataclass(slots=True)
class History:
    revision: int = 0
    applied: list[Transaction] = field(default_factory=list)
    undone: list[Transaction] = field(default_factory=list)

    @property
    def unsaved(self) -> bool:
        """Whether the draft holds changes against the file."""
        return bool(self.applied)

    def check(self, expected: int) -> None:
        if expected != self.revision:
            raise stale_revision(self.revision, expected)

    def commit(self, transaction: Transaction) -> int:
        self.applied.append(transaction)
        self.undone.clear()
        self.revision += 1
        return self.revision

    def undo(self) -> Transaction:
        """Takes back the newest transaction (the caller rebuilds the draft without it)."""
        if not self.applied:
            raise NothingToUndo()
        transaction = self.applied.pop()
        self.undone.append(transaction)
        self.revision += 1
        return transaction

    def redo(self) -> Transaction:
        """Puts back the transaction undone last (the caller applies it again)."""
        if not self.undone:
            raise NothingToRedo()
        transaction = self.undone.pop()
        self.applied.append(transaction)
        self.revision += 1
        return transaction

    def restart(self) -> int:
        """A save or a discard: the draft is the file's bytes again, the history empty."""
        self.applied.clear()
        self.undone.clear()
        self.revision += 1
        return self.revision
