"""The file that tells where a running reader serves: ``reader-<pid>.json``.

A host started for a reader writes ``{"pid", "url", "token"}`` to
``$XDG_RUNTIME_DIR/siftui/reader-<pid>.json`` (``/tmp/siftui-<uid>/`` when
XDG_RUNTIME_DIR is unset; the folder 0700, the file 0600, EDITING.md) and
removes it at exit; ``siftui mcp --reader`` finds the running readers here.
A file whose process is gone (a reader killed) is not a running reader.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from siftui.core.json_text import json_or_none

NO_READER = "no siftui reader is running (start one with: siftui reader --root DIR)"
_NAME = re.compile(r"reader-([0-9]{1,10})\.json")


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


def write_reader_file(address: ReaderAddress) -> Path:
    """Writes ``address`` where the bridge finds it: the folder made 0700, the file 0600
    from its first byte (written aside, then renamed into place)."""
    folder = runtime_folder()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    path = reader_path(address.pid)
    aside = folder / f".reader-{address.pid}.json.tmp"
    data = json.dumps({"pid": address.pid, "url": address.url, "token": address.token})
    fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
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
    try:
        data = json_or_none(path.read_bytes())
    except OSError:
        return None
    if not isinstance(data, dict):
        return None
    url, token = data.get("url"), data.get("token")
    if data.get("pid") != pid or not isinstance(url, str) or not isinstance(token, str):
        return None
    return ReaderAddress(pid, url, token)


def running_readers() -> list[ReaderAddress]:
    """The readers running now, by pid."""
    try:
        names = sorted(os.listdir(runtime_folder()))
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
        address = _read(runtime_folder() / name, pid)
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
