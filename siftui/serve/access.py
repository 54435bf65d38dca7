"""Which files the read tool may open: only those whose real path lies under a root.

The agent names a path; :meth:`Roots.resolve` turns it into the real path (every
symlink and ``..`` resolved, as the kernel would when opening it) and refuses it
unless that real path is one of the roots or inside one. A relative path is taken
against the first root. Nothing here opens the file; the caller opens the real
path returned, never the name the agent gave.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from siftui.messages import quoted


class RootError(ValueError):
    """A root given by the operator is unusable (missing, not a directory)."""


class Refused(Exception):
    """The agent asked for a path it may not read; ``str(error)`` is one line.

    ``real`` is where the path led (for the call log), when it was resolved.
    """

    def __init__(self, message: str, real: Path | None = None) -> None:
        super().__init__(message)
        self.real = real


class Roots:
    """The directories whose files the agent may read (their real paths)."""

    def __init__(self, dirs: Sequence[str | os.PathLike[str]]) -> None:
        if not dirs:
            raise RootError("at least one --root is needed")
        roots: list[Path] = []
        for given in dirs:
            try:
                real = Path(given).resolve(strict=True)
            except FileNotFoundError:
                raise RootError(f"root {quoted(given)}: no such directory") from None
            except OSError as error:
                raise RootError(f"root {quoted(given)}: {error.strerror or error}") from None
            if not real.is_dir():
                raise RootError(f"root {quoted(given)}: not a directory")
            if real not in roots:
                roots.append(real)
        self.dirs: tuple[Path, ...] = tuple(roots)

    def __repr__(self) -> str:
        return f"Roots({[str(d) for d in self.dirs]!r})"

    def describe(self) -> str:
        return ", ".join(str(d) for d in self.dirs)

    def resolve(self, given: str) -> Path:
        """The real path of ``given`` if it lies under a root, else :class:`Refused`.

        The file need not exist (opening it reports that); a path outside the
        roots is refused whether or not it exists, so the answer reveals nothing
        about files elsewhere.
        """
        if not given or not given.strip():
            raise Refused("path is empty: name a file under the allowed roots")
        if "\x00" in given:
            raise Refused(f"{quoted(given)}: a path cannot hold a NUL character")
        candidate = Path(given)
        if not candidate.is_absolute():
            candidate = self.dirs[0] / candidate
        # realpath (not resolve(strict=True)) so that a missing file inside a root
        # gets "no such file" from the loader, and one outside gets refused here.
        real = Path(os.path.realpath(candidate))
        if not any(real == root or real.is_relative_to(root) for root in self.dirs):
            raise Refused(
                f"{quoted(given)} is outside the allowed roots ({quoted(self.describe())})", real
            )
        return real
