"""Drafts kept on disk: ``$XDG_STATE_HOME/siftui/drafts/`` (``~/.local/state`` when
unset), folder 0700, one JSON Lines file per working copy, kept after every change.

A file's draft is named by its real path. Its first line is a whole snapshot: the
sha256 of the bytes it was made on, its revision and its transactions (made and
undone), written atomically (a temporary file beside it, renamed over). A change
that only writes, undoes or redoes one transaction appends one line to it (the
transaction, or ``undo``/``redo``, and the revision after it): a change costs one
small write, not the whole history again nor a rename (a rename was most of a
highlight's time). Anything else (a save, a discard, a draft of other bytes), a
store that did not write the file itself, and every :data:`COMPACT_AFTER` lines
write the snapshot again. A last line cut short by a crash is not a change: the
draft is the one before it.

A kept draft whose file has other bytes now is moved aside
(``<name>.aside-<sha12>.json``), never applied; only an explicit ``discard``
removes drafts.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from siftui.core.edit.history import History
from siftui.core.edit.operations import Transaction, transaction_from_json, transaction_to_json
from siftui.core.json_text import json_line, json_value

__all__ = ["DraftStore", "KeptDraft", "default_drafts_folder"]

FORMAT = 2
"""1 was one JSON document per draft; 2 is a snapshot line and the changes after it."""

COMPACT_AFTER = 200
"""Lines appended after a snapshot before the next change writes a new one."""


@dataclass(frozen=True, slots=True)
class _Written:
    """What a store last put in a draft's file: replaying the file gives this."""

    sha256: str
    revision: int
    applied: tuple[Transaction, ...]
    undone: tuple[Transaction, ...]
    lines: int  # appended since the snapshot


def _line(record: dict[str, object]) -> bytes:
    return json_line(record).encode("utf-8") + b"\n"  # a file name need not be UTF-8


def _event(before: _Written, sha256: str, history: History) -> dict[str, object] | None:
    """The one line that takes the file from ``before`` to ``history``, or None when
    the change is not one write, undo or redo."""
    if before.sha256 != sha256 or history.revision != before.revision + 1:
        return None
    applied, undone = tuple(history.applied), tuple(history.undone)
    if not undone and applied[:-1] == before.applied and applied:
        return {"event": "write", "revision": history.revision,
                "transaction": transaction_to_json(applied[-1])}  # fmt: skip
    if (
        before.applied
        and applied == before.applied[:-1]
        and undone
        == (
            *before.undone,
            before.applied[-1],
        )
    ):
        return {"event": "undo", "revision": history.revision}
    if (
        before.undone
        and undone == before.undone[:-1]
        and applied
        == (
            *before.applied,
            before.undone[-1],
        )
    ):
        return {"event": "redo", "revision": history.revision}
    return None


def _replay(history: History, event: dict[str, Any]) -> None:
    kind, revision = event.get("event"), event.get("revision")
    if not isinstance(revision, int) or revision != history.revision + 1:
        raise ValueError("a change out of order")
    if kind == "write":
        history.applied.append(transaction_from_json(event["transaction"]))
        history.undone.clear()
    elif kind == "undo" and history.applied:
        history.undone.append(history.applied.pop())
    elif kind == "redo" and history.undone:
        history.applied.append(history.undone.pop())
    else:
        raise ValueError(f"a change that cannot be replayed ({kind!r})")
    history.revision = revision


def default_drafts_folder() -> Path:
    state = os.environ.get("XDG_STATE_HOME", "").strip()
    base = Path(state) if state and os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "siftui" / "drafts"


@dataclass(frozen=True, slots=True)
class KeptDraft:
    path: str  # the file's real path
    sha256: str  # of the bytes the draft was made on
    history: History
    where: Path  # the draft's own file


class DraftStore:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or default_drafts_folder()
        self._written: dict[str, _Written] = {}  # by path: what this store's files hold

    def _ensure(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.folder, 0o700)

    def where(self, path: str) -> Path:
        name = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return self.folder / f"{name}.json"

    def keep(self, path: str, sha256: str, history: History) -> Path:
        """Keeps the draft of ``path``: one line appended for a write, an undo or a redo
        after what this store last kept, else the whole snapshot written atomically;
        returns its file."""
        target = self.where(path)
        before = self._written.get(path)
        event = _event(before, sha256, history) if before is not None else None
        if before is not None and event is not None and before.lines < COMPACT_AFTER:
            with open(target, "ab") as stream:  # O_APPEND: one write of one whole line
                stream.write(_line(event))
            lines = before.lines + 1
        else:
            self._snapshot(target, path, sha256, history)
            lines = 0
        self._written[path] = _Written(
            sha256, history.revision, tuple(history.applied), tuple(history.undone), lines
        )
        return target

    def _snapshot(self, target: Path, path: str, sha256: str, history: History) -> None:
        self._ensure()
        record = {
            "format": FORMAT,
            "path": path,
            "sha256": sha256,
            "revision": history.revision,
            "applied": [transaction_to_json(one) for one in history.applied],
            "undone": [transaction_to_json(one) for one in history.undone],
        }
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(_line(record))
            # Renamed whole over the last one: a reader that dies at any point leaves
            # the old draft or the new one. (Not flushed to the disk: that guards
            # against a power cut, at 15-20 ms a change; a save of the file is.)
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise

    def load(self, path: str) -> KeptDraft | None:
        """The draft kept for ``path``; None when there is none. One that cannot be
        read is moved aside (never lost, never applied) and counts as none."""
        target = self.where(path)
        try:
            first, *changes = target.read_bytes().split(b"\n")
            record = json_value(first)
            if record.get("format") != FORMAT or record.get("path") != path:
                raise ValueError("another format or another file's draft")
            history = History(
                revision=int(record["revision"]),
                applied=[transaction_from_json(one) for one in record["applied"]],
                undone=[transaction_from_json(one) for one in record["undone"]],
            )
            for change in changes[:-1]:  # each whole line ends in a newline
                _replay(history, json_value(change))
            # a last line without its newline was cut short by a crash: not a change
            return KeptDraft(path, str(record["sha256"]), history, target)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):
            self.set_aside(path, "unreadable")
            return None

    def set_aside(self, path: str, label: str) -> Path | None:
        """Moves the draft of ``path`` aside; its new file, None when there was none."""
        self._written.pop(path, None)
        target = self.where(path)
        aside = target.with_name(f"{target.stem}.aside-{label}.json")
        try:
            os.replace(target, aside)
        except FileNotFoundError:
            return None
        return aside

    def asides(self, path: str) -> list[Path]:
        target = self.where(path)
        return sorted(self.folder.glob(f"{target.stem}.aside-*.json"))

    def remove(self, path: str, *, asides: bool = False) -> None:
        self._written.pop(path, None)
        self.where(path).unlink(missing_ok=True)
        if asides:
            for aside in self.asides(path):
                aside.unlink(missing_ok=True)
