"""Which files the read tool may open, opened so that the answer holds against a racing writer.

The agent names a path; :meth:`Roots.open` first reads it as written (a
relative path is taken against the first root), applying each ``..`` to the
names before it: a path whose written form leaves the roots (a ``..`` taken
outside them or out of a root, or an end outside them) is refused before the
file system is asked anything, so no answer depends on what lies outside the
roots (``outside/lnk/../../root/in.pdf`` is refused whether ``lnk`` is a
symlink or a folder). Then it resolves the path as the kernel would (every
symlink and ``..``) and refuses it unless that real path is one of the roots or
inside one.
That check alone is a race: the agent may also write files, and swap a
checked name for a symlink out of the root before it is opened. So the file
is then opened from the root's own descriptor (held since start), one
component at a time with ``O_NOFOLLOW``: a component that has become a
symlink is a refusal, not a detour. Each directory of the chain is checked to
still hang below the one before it (device and inode of its ``..``), so a
directory moved out meanwhile is caught too. The caller gets the open
descriptor of a regular file and uses only it from then on; the name is never
opened again.

A file with more than one hard link is refused: a hard link is the file itself,
not a pointer, so nothing tells whether its other names lie outside the roots,
and an agent that can write under a root could link a file from elsewhere there
(where the system lets it: macOS, or Linux without ``fs.protected_hardlinks``).
"""

from __future__ import annotations

import errno
import itertools
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from siftui.core.messages import quoted
from siftui.serve.wire import clip

MAX_PATH_BYTES = 4096
OPEN_ATTEMPTS = 3
HARD_LINKS = (
    "hard links, and another of its names may lie outside the allowed roots: "
    "not read (a copy of it under a root is)"
)


class RootError(ValueError):
    """A root given by the operator is unusable (missing, not a directory)."""


class Refused(Exception):
    """The agent asked for a path it may not read; ``str(error)`` is one line.

    ``real`` is where the path led (for the call log), when it was resolved.
    """

    def __init__(self, message: str, real: Path | None = None) -> None:
        super().__init__(message)
        self.real = real


class Unopenable(Exception):
    """A path under a root that cannot be opened as a file (missing, a directory, ...)."""


@dataclass
class OpenedFile:
    """An open regular file under a root: its descriptor, real path and fstat."""

    fd: int
    real: Path
    info: os.stat_result

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class _Moved(Exception):
    """The tree changed between resolving the path and opening it."""


@dataclass(frozen=True)
class _Root:
    path: Path
    fd: int


class Roots:
    """The directories whose files the agent may read (their real paths)."""

    def __init__(self, dirs: Sequence[str | os.PathLike[str]]) -> None:
        if not dirs:
            raise RootError("at least one --root is needed")
        roots: list[_Root] = []
        for given in dirs:
            try:
                real = Path(given).resolve(strict=True)
            except FileNotFoundError:
                raise RootError(f"root {quoted(given)}: no such directory") from None
            except OSError as error:
                raise RootError(f"root {quoted(given)}: {error.strerror or error}") from None
            if not real.is_dir():
                raise RootError(f"root {quoted(given)}: not a directory")
            if any(root.path == real for root in roots):
                continue
            try:
                fd = os.open(real, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except OSError as error:
                raise RootError(f"root {quoted(given)}: {error.strerror or error}") from None
            roots.append(_Root(real, fd))
        self._roots: tuple[_Root, ...] = tuple(roots)
        self.dirs: tuple[Path, ...] = tuple(root.path for root in roots)
        forms = {*self.dirs, *(Path(os.path.abspath(given)) for given in dirs)}
        self._written: tuple[tuple[str, ...], ...] = tuple(
            tuple(form.parts[1:]) for form in sorted(forms)
        )

    def __repr__(self) -> str:
        return f"Roots({[str(d) for d in self.dirs]!r})"

    def describe(self) -> str:
        return ", ".join(str(d) for d in self.dirs)

    def resolve(self, given: str) -> Path:
        """The real path of ``given`` if it lies under a root, else :class:`Refused`.

        The file need not exist (opening it reports that); a path outside the
        roots is refused whether or not it exists, so the answer reveals nothing
        about files elsewhere. This is the check only: :meth:`open` is the use.
        """
        if not given or not given.strip():
            raise Refused("path is empty: name a file under the allowed roots")
        if "\x00" in given:
            raise Refused(f"{clip(given)}: a path cannot hold a NUL character")
        if len(given.encode("utf-8", "surrogateescape")) > MAX_PATH_BYTES:
            raise Refused(f"{clip(given)}: a path is at most {MAX_PATH_BYTES} bytes long")
        candidate = Path(given)
        if not candidate.is_absolute():
            candidate = self.dirs[0] / candidate
        # realpath (not resolve(strict=True)) so that a missing file inside a root
        # gets "no such file", and one outside gets refused here.
        real = Path(os.path.realpath(candidate))
        if not self._stays_inside(str(candidate)) or self._root_of(real) is None:
            raise Refused(
                f"{clip(given)} is outside the allowed roots ({clip(self.describe(), 1000)})",
                real,
            )
        return real

    def _stays_inside(self, written: str) -> bool:
        """Whether the absolute path ``written``, read as written (each ``..`` taking
        back the name before it, no file system asked), stays within the roots: every
        ``..`` is taken below a root, and the path ends in one. A ``..`` taken outside
        the roots would make the answer depend on what the names before it are there
        (a symlink or a folder). A root is known by its real path and by the path the
        operator gave (made absolute, ``..`` taken back)."""
        where: list[str] = []
        for part in written.split(os.sep):
            if part in ("", "."):
                continue
            if part == "..":
                if not self._written_under(where, strictly=True):
                    return False
                where.pop()
            else:
                where.append(part)
        return self._written_under(where, strictly=False)

    def _written_under(self, where: list[str], *, strictly: bool) -> bool:
        return any(
            tuple(where[: len(form)]) == form and (len(where) > len(form) or not strictly)
            for form in self._written
        )

    def _root_of(self, real: Path) -> _Root | None:
        for root in self._roots:
            if real == root.path or real.is_relative_to(root.path):
                return root
        return None

    def open(self, given: str) -> OpenedFile:
        """``given`` opened for reading, if it is a regular file under a root.

        :class:`Refused` for a path outside the roots (or one swapped for a way
        out while it was opened), :class:`Unopenable` for one that cannot be
        read as a file. The caller closes what it gets.
        """
        real = self.resolve(given)
        self._refuse_what_the_os_would_not_open(given)
        for _ in range(OPEN_ATTEMPTS):
            root = self._root_of(real)
            if root is None:  # the tree changed: a symlink now leads out
                break
            try:
                return self._open_under(root, real)
            except _Moved:
                real = self.resolve(given)
        raise Refused(
            f"{clip(given)} is outside the allowed roots ({clip(self.describe(), 1000)}), "
            "or was moved while it was opened",
            real,
        )

    def _refuse_what_the_os_would_not_open(self, given: str) -> None:
        """:class:`Unopenable` for a path the OS would not open as written, though its
        real path is a file: realpath lets ".." undo a missing name or a file and drops
        a trailing "/", while the OS needs a directory before each (`siftui render`
        refuses such a path). Every ".." of a path let through is taken inside a root
        (:meth:`_stays_inside`); what it undoes is looked at only when its real path is
        under a root too (a symlink under a root leading out is refused by the real
        path's check), so the answer tells nothing of what lies outside them."""
        written = given if os.path.isabs(given) else os.path.join(self.dirs[0], given)
        parts = written.split(os.sep)
        for at, part in enumerate(parts):
            names_a_directory = part == ".." or (at == len(parts) - 1 and part in ("", "."))
            if at == 0 or not names_a_directory:
                continue
            before = Path(os.path.realpath(os.sep.join(parts[:at]) or os.sep))
            if self._root_of(before) is None:
                continue
            try:
                is_directory = stat.S_ISDIR(os.stat(before).st_mode)
            except OSError as error:
                raise Unopenable(f"{clip(given)}: {_why(error)}") from None
            if not is_directory:
                raise Unopenable(f"{clip(given)}: {os.strerror(errno.ENOTDIR)}")

    def _open_under(self, root: _Root, real: Path) -> OpenedFile:
        parts = real.relative_to(root.path).parts
        shown = clip(str(real))
        if not parts:
            raise Unopenable(f"{shown}: is a directory, not a file")
        chain = [root.fd]
        try:
            for part in parts[:-1]:
                chain.append(_open_at(chain[-1], part, shown, directory=True))
            fd = _open_at(chain[-1], parts[-1], shown, directory=False)
            try:
                info = os.fstat(fd)
                # Every directory we walked through still hangs below the one before it.
                for parent, child in itertools.pairwise(chain):
                    up = os.stat("..", dir_fd=child, follow_symlinks=False)
                    above = os.fstat(parent)
                    if (up.st_dev, up.st_ino) != (above.st_dev, above.st_ino):
                        raise _Moved
            except BaseException:
                os.close(fd)
                raise
        finally:
            for descriptor in chain[1:]:
                os.close(descriptor)
        if stat.S_ISDIR(info.st_mode):
            os.close(fd)
            raise Unopenable(f"{shown}: is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise Unopenable(f"{shown}: not a regular file")
        if info.st_nlink > 1:
            os.close(fd)
            raise Refused(f"{shown}: has {info.st_nlink} {HARD_LINKS}", real)
        return OpenedFile(fd, real, info)


_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK


def _open_at(parent: int, name: str, shown: str, *, directory: bool) -> int:
    """``name`` in the directory ``parent``, never through a symlink and never blocking
    (a FIFO opens at once, then fails the regular-file check)."""
    flags = _FLAGS | (os.O_DIRECTORY if directory else 0)
    try:
        return os.open(name, flags, dir_fd=parent)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            try:
                if stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
                    raise _Moved from None  # a symlink where the check saw none
            except OSError:
                raise _Moved from None  # it changed again
        raise Unopenable(f"{shown}: {_why(error)}") from None


def _why(error: OSError) -> str:
    """Why a name could not be opened, as the read tools say it."""
    if error.errno == errno.ENOENT:
        return "no such file"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if error.errno == errno.ENXIO:  # a socket
        return "not a regular file"
    return error.strerror or str(error)
