"""The host's working copies: at most one per file (its real path), shared by every
session and reader tab that opens it, with the kept draft offered back on open."""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass

from siftui.sources.edit.apply import ApplyError
from siftui.sources.edit.documents import Fingerprint
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.working_copy import WorkingCopy

__all__ = ["DraftNote", "OpenedCopy", "WorkingCopies"]


@dataclass(frozen=True, slots=True)
class DraftNote:
    """What opening a file found among the kept drafts, for the reader to say."""

    kind: str  # "restored" (applied at its revision) or "aside" (kept aside, not applied)
    path: str
    revision: int  # the kept draft's
    transactions: int  # the changes it holds
    aside: str = ""  # where a draft kept aside is
    why: str = ""  # why it was kept aside

    @property
    def message(self) -> str:
        if self.kind == "restored":
            changes = "change" if self.transactions == 1 else "changes"
            return (
                f"restored the draft kept for {self.path} at revision {self.revision} "
                f"({self.transactions} {changes} not saved)"
            )
        return (
            f"a draft kept for {self.path} was not applied: {self.why}; "
            f"it is kept aside ({self.aside})"
        )


@dataclass(frozen=True, slots=True)
class OpenedCopy:
    copy: WorkingCopy
    note: DraftNote | None  # None: nothing kept for it, or the copy was already open


class WorkingCopies:
    """``open`` gives the working copy of a file's bytes; ``release`` lets it go when no
    session or tab holds it (its draft stays on disk)."""

    def __init__(self, store: DraftStore | None = None) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._copies: dict[str, WorkingCopy] = {}
        self._holds: dict[str, int] = {}

    def get(self, path: str) -> WorkingCopy | None:
        with self._lock:
            return self._copies.get(path)

    def open(
        self,
        path: str,
        data: bytes,
        password: str | None = None,
        seen: Fingerprint | None = None,
    ) -> OpenedCopy:
        """The working copy of ``path`` whose bytes are ``data`` (held once more).

        A copy open on other bytes (the file changed) is replaced: its draft is kept
        aside, never applied. A draft kept on disk for these bytes is restored at its
        revision; one kept for other bytes is kept aside. ``seen``: the file's
        fingerprint when ``data`` was read (see ``WorkingCopy``).
        """
        sha256 = hashlib.sha256(data).hexdigest()
        with self._lock:
            note: DraftNote | None = None
            current = self._copies.get(path)
            if current is not None and current.sha256 == sha256:
                self._holds[path] = self._holds.get(path, 0) + 1
                return OpenedCopy(current, None)
            if current is not None:
                current.detach()  # its draft, set aside now, is never written over again
                note = self._aside(path, current.revision, len(current.transactions))
                holds = self._holds.get(path, 0)
            else:
                holds = 0
            copy, found = self._fresh(path, data, sha256, password, seen)
            self._copies[path] = copy
            self._holds[path] = holds + 1
            return OpenedCopy(copy, found or note)

    def _fresh(
        self, path: str, data: bytes, sha256: str, password: str | None, seen: Fingerprint | None
    ) -> tuple[WorkingCopy, DraftNote | None]:
        kept = self.store.load(path) if self.store is not None else None
        if kept is None:
            return WorkingCopy(path, data, store=self.store, password=password, seen=seen), None
        count = len(kept.history.applied)
        if kept.sha256 != sha256:
            note = self._aside(path, kept.history.revision, count)
            return WorkingCopy(path, data, store=self.store, password=password, seen=seen), note
        try:
            copy = WorkingCopy(
                path, data, store=self.store, history=kept.history, password=password, seen=seen
            )
        except (ApplyError, RuntimeError, ValueError) as error:
            note = self._aside(
                path, kept.history.revision, count, f"it cannot be replayed ({error})"
            )
            return WorkingCopy(path, data, store=self.store, password=password, seen=seen), note
        return copy, DraftNote("restored", path, kept.history.revision, count)

    def _aside(
        self,
        path: str,
        revision: int,
        count: int,
        why: str = "the file changed since it was made",
    ) -> DraftNote:
        aside = None
        if self.store is not None:
            label = f"r{revision}-{hashlib.sha256(str((path, revision)).encode()).hexdigest()[:8]}"
            aside = self.store.set_aside(path, label)
        return DraftNote("aside", path, revision, count, str(aside or ""), why)

    def release(self, path: str) -> None:
        """One hold fewer; the last one closes the copy in memory (its draft is kept)."""
        with self._lock:
            left = self._holds.get(path, 0) - 1
            if left > 0:
                self._holds[path] = left
                return
            self._holds.pop(path, None)
            copy = self._copies.pop(path, None)
        if copy is not None:
            copy.close()

    def paths(self) -> list[str]:
        with self._lock:
            return list(self._copies)
