"""The file that tells where a running reader serves: ``reader-<pid>.json``.

A host started for a reader writes ``{"pid", "url", "token"}`` to
``$XDG_RUNTIME_DIR/siftui/reader-<pid>.json`` (``/tmp/siftui-<uid>/`` when
XDG_RUNTIME_DIR is unset; the folder 0700, the file 0600, EDITING.md) and
removes it at exit; ``siftui mcp --reader`` finds the running readers here.
A file whose process is gone (a reader killed) is not a running reader.

Trust: the file hands an agent's calls, and their answers, to whatever URL it names, so
both sides take it only from a private folder of this user: a directory (not a link)
this user owns that no other user may enter. /tmp/siftui-<uid> is a name anyone on the
machine can take first: made by another user, it would have led this user's bridge to
their server. A reader file is taken only when it is this user's, readable by no one
else, and names a loopback http address (the host serves 127.0.0.1 only).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from siftui.core.json_text import json_or_none

NO_READER = "no siftui reader is running (start one with: siftui reader --root DIR)"
_NAME = re.compile(r"reader-([0-9]{1,10})\.json")
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class ReaderNotFound(Exception):
    """No reader to forward to; ``str(error)`` is the one line ``siftui mcp --reader`` prints."""


@dataclass(frozen=True)
class ReaderAddress:
    pid: int
    url: str
    token: str


def runtime_folder() -> Path:
    """Where reader files live (not made here)."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base:
        return Path(base) / "siftui"
    return Path(f"/tmp/siftui-{os.getuid()}")


def reader_path(pid: int) -> Path:
    return runtime_folder() / f"reader-{pid}.json"


def not_private(folder: Path) -> str | None:
    """Why ``folder`` may not hold reader files, in a few words; None when it is a
    directory (not a link) of this user that no other user may enter, or is missing."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return "a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return "not a folder"
    return _not_this_users_alone(info)


def _not_this_users_alone(info: os.stat_result) -> str | None:
    """Why a file or folder so described is not this user's alone; None when it is."""
    if info.st_uid != os.getuid():
        return f"owned by user {info.st_uid}; this user is {os.getuid()}"
    if info.st_mode & 0o077:
        return f"open to other users: mode {stat.S_IMODE(info.st_mode):o}"
    return None


def _refused(reason: str) -> str:
    return f"not a private folder of this user ({reason}); remove it, or set XDG_RUNTIME_DIR"


def write_reader_file(address: ReaderAddress) -> Path:
    """Writes ``address`` where the bridge finds it: the folder made 0700, the file 0600
    from its first byte (written aside, then renamed into place). A folder of another
    user, a link, or one open to others is refused (OSError), never written into."""
    folder = runtime_folder()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(folder)
    if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid():
        os.chmod(folder, 0o700)  # this user's own (made under another umask): closed now
    reason = not_private(folder)
    if reason is not None:
        raise PermissionError(errno.EPERM, _refused(reason), str(folder))
    path = reader_path(address.pid)
    aside = folder / f".reader-{address.pid}.json.tmp"
    data = json.dumps({"pid": address.pid, "url": address.url, "token": address.token})
    with contextlib.suppress(FileNotFoundError):
        aside.unlink()  # a leftover of this pid's: the write below makes its own
    fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data.encode("utf-8"))
    finally:
        os.close(fd)
    os.replace(aside, path)
    return path


def remove_reader_file(pid: int) -> None:
    with contextlib.suppress(FileNotFoundError):
        reader_path(pid).unlink()


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie or another user's process counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _read(path: Path, pid: int) -> ReaderAddress | None:
    """The address in ``path``: None unless it is this user's regular file, readable by
    no one else, naming a loopback http address."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with open(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or _not_this_users_alone(info) is not None:
            return None
        try:
            data = json_or_none(handle.read(64 * 1024))
        except OSError:
            return None
    if not isinstance(data, dict):
        return None
    url, token = data.get("url"), data.get("token")
    if data.get("pid") != pid or not isinstance(url, str) or not isinstance(token, str):
        return None
    if not _loopback_http(url):
        return None
    return ReaderAddress(pid, url, token)


def _loopback_http(url: str) -> bool:
    try:
        parts = urlsplit(url)
        return parts.scheme == "http" and parts.hostname in _LOOPBACK and parts.port is not None
    except ValueError:  # a port out of range, a bad IPv6 literal
        return False


def running_readers() -> list[ReaderAddress]:
    """The readers running now, by pid; :class:`ReaderNotFound` when the folder is not
    this user's private one (nothing in it is trusted)."""
    folder = runtime_folder()
    reason = not_private(folder)
    if reason is not None:
        raise ReaderNotFound(f"{folder}: {_refused(reason)}")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        matched = _NAME.fullmatch(name)
        if matched is None:
            continue
        pid = int(matched.group(1))
        if not alive(pid):
            continue
        address = _read(folder / name, pid)
        if address is not None:
            found.append(address)
    return sorted(found, key=lambda address: address.pid)


def find_reader(pid: int | None) -> ReaderAddress:
    """The reader with ``pid``, or the only one running; else :class:`ReaderNotFound`
    with EDITING.md's line."""
    readers = running_readers()
    if pid is not None:
        readers = [address for address in readers if address.pid == pid]
    if not readers:
        raise ReaderNotFound(NO_READER)
    if len(readers) > 1:
        pids = ", ".join(str(address.pid) for address in readers)
        raise ReaderNotFound(f"several siftui readers are running ({pids}): give one")
    return readers[0]
