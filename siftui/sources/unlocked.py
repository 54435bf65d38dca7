"""The passwords a person gave in the reader, as the host's agents may use them.

When the person unlocks an encrypted PDF in `siftui reader`, the host learns the
password for that file: its real path and the exact bytes the password opened
(their sha256). Kept in memory only, for as long as the host runs, never written
anywhere; a file whose bytes change is locked again. A worker process reading the
file is handed the :class:`Unlock` of its path and uses the password only on bytes
of that sha256 (it hashes what it read before it opens it). `siftui mcp` has no
reader: nothing is ever learned, every encrypted file stays refused.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

__all__ = ["Unlock", "Unlocked"]


@dataclass(frozen=True)
class Unlock:
    """The password of one file's bytes (``sha256``); its repr never shows the password."""

    sha256: str
    password: str = field(repr=False)

    def password_for(self, sha256: str) -> str | None:
        """The password when ``sha256`` names the bytes it opened, else None."""
        return self.password if sha256 == self.sha256 else None


class Unlocked:
    """The unlocked files by real path (one version each: the last the person opened,
    or that a save the person approved wrote); thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_path: dict[str, Unlock] = {}

    def learn(self, path: str, sha256: str, password: str) -> None:
        """``password`` opens the bytes ``sha256`` of the file at the real ``path``."""
        with self._lock:
            self._by_path[path] = Unlock(sha256, password)

    def of(self, path: str) -> Unlock | None:
        """What is known of the file at the real ``path`` (None: it is not unlocked)."""
        with self._lock:
            return self._by_path.get(path)

    def password(self, path: str, sha256: str) -> str | None:
        """The password of the bytes ``sha256`` of the file at ``path``, if the person gave it."""
        unlock = self.of(path)
        return unlock.password_for(sha256) if unlock is not None else None

    def forget(self) -> None:
        """Every password let go (the reader has closed)."""
        with self._lock:
            self._by_path.clear()
