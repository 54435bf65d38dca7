"""Drafts kept on disk: ``$XDG_STATE_HOME/siftui/drafts/`` (``~/.local/state`` when
unset), folder 0700, one JSON file per working copy, written atomically after every
change (a temporary file beside it, renamed over).

A file's draft is named by its real path; it holds the sha256 of the bytes it was
made on, its revision and its transactions (made and undone). A kept draft whose
file has other bytes now is moved aside (``<name>.aside-<sha12>.json``), never
applied; only an explicit ``discard`` removes drafts.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from siftui.core.edit.history import History
from siftui.core.edit.operations import transaction_from_json, transaction_to_json

__all__ = ["DraftStore", "KeptDraft", "default_drafts_folder"]

FORMAT = 1


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

    def _ensure(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.folder, 0o700)

    def where(self, path: str) -> Path:
        name = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return self.folder / f"{name}.json"

    def keep(self, path: str, sha256: str, history: History) -> Path:
        """Writes the draft of ``path`` atomically; returns its file."""
        self._ensure()
        target = self.where(path)
        record = {
            "format": FORMAT,
            "path": path,
            "sha256": sha256,
            "revision": history.revision,
            "applied": [transaction_to_json(one) for one in history.applied],
            "undone": [transaction_to_json(one) for one in history.undone],
        }
        data = json.dumps(record, ensure_ascii=False).encode("utf-8")
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(data)
            # Renamed whole over the last one: a reader that dies at any point leaves
            # the old draft or the new one. (Not flushed to the disk: that guards
            # against a power cut, at 15-20 ms a change; a save of the file is.)
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return target

    def load(self, path: str) -> KeptDraft | None:
        """The draft kept for ``path``; None when there is none. One that cannot be
        read is moved aside (never lost, never applied) and counts as none."""
        target = self.where(path)
        try:
            record = json.loads(target.read_bytes())
            if record.get("format") != FORMAT or record.get("path") != path:
                raise ValueError("another format or another file's draft")
            history = History(
                revision=int(record["revision"]),
                applied=[transaction_from_json(one) for one in record["applied"]],
                undone=[transaction_from_json(one) for one in record["undone"]],
            )
            return KeptDraft(path, str(record["sha256"]), history, target)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):
            self.set_aside(path, "unreadable")
            return None

    def set_aside(self, path: str, label: str) -> Path | None:
        """Moves the draft of ``path`` aside; its new file, None when there was none."""
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
        self.where(path).unlink(missing_ok=True)
        if asides:
            for aside in self.asides(path):
                aside.unlink(missing_ok=True)
