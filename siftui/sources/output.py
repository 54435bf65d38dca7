"""How an answer leaves siftui: UTF-8 bytes, JSON, files that are never clobbered."""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from pathlib import Path

from siftui.core.messages import encode_utf8
from siftui.core.render import Rendered

__all__ = ["encode_utf8"]  # where the surfaces have always found it


def rendered_json(answer: Rendered) -> str:
    """The answer as `siftui render --json` prints it and the TUI's `j` copies it."""
    return json.dumps(
        {
            "content": answer.content,
            "map": answer.map,
            "first": answer.first,
            "last": answer.last,
            "grep_hits": answer.grep_hits,
            "note": answer.note,
        },
        ensure_ascii=False,
    )


def check_new_file(
    path: str | os.PathLike[str], *, overwrite: bool = False, in_place: bool = True
) -> None:
    """Raise the OSError :func:`write_new_file` would raise before any data is made
    (named by ``path``, never by the temporary file the write goes through)."""
    target = Path(path)
    real = _destination(target, overwrite=overwrite, in_place=in_place)
    if real is None:
        return
    # A directory may be listed and still refuse a new file (/proc, a read-only mount).
    handle, trial = _temporary_beside(real, target)
    os.close(handle)
    os.unlink(trial)


def _destination(target: Path, *, overwrite: bool, in_place: bool) -> Path | None:
    """The file the bytes replace or create, through a temporary one beside it; None for
    a device or a FIFO, written to in place (refused unless ``in_place``). Raises what
    the write would, named by ``target``, before any data is made."""
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(target))
    if not in_place and _written_through(target):
        raise OSError(errno.EINVAL, NOT_A_FILE, str(target))
    if not overwrite and (target.exists() or target.is_symlink()):
        raise FileExistsError(errno.EEXIST, "exists already; use --force to overwrite", str(target))
    if _written_through(target):
        if not os.access(target, os.W_OK):
            raise PermissionError(errno.EACCES, "not writable", str(target))
        return None
    real = _real(target)
    if not real.parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such directory", str(target.parent))
    return real


def _temporary_beside(real: Path, target: Path) -> tuple[int, str]:
    """A new temporary file beside ``real`` (its descriptor and path); an error about
    it names ``target``, the path the user gave (the temporary file is ours)."""
    try:
        return tempfile.mkstemp(prefix=f".{real.name}.", dir=real.parent)
    except OSError as error:
        raise _named(error, target) from None


def _written_through(target: Path) -> bool:
    """``target`` exists and is no regular file (a device, a FIFO, a socket: what a
    symbolic link leads to counts): it is written to in place, never replaced, or
    `-o /dev/stdout --force` would put a file where the device was."""
    try:
        return not stat.S_ISREG(os.stat(target).st_mode)
    except OSError:
        return False


def _real(target: Path) -> Path:
    """Where the bytes go: a symbolic link's file (the link itself is kept)."""
    return Path(os.path.realpath(target)) if target.is_symlink() else target


def _umask() -> int:
    # os.umask() can only be read by setting it, which races with other threads;
    # Linux shows it in /proc, elsewhere the set-and-restore is the only way.
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


NOT_A_FILE = "not a regular file (a pipe or a device)"


def write_new_file(
    path: str | os.PathLike[str], data: bytes, *, overwrite: bool = False, in_place: bool = True
) -> None:
    """Write ``data`` atomically; an existing file is kept unless ``overwrite``.

    The bytes go to a temporary file beside the target first, so a crash or a
    full disk never leaves a half-written file under the user's name. With
    ``overwrite``, a symbolic link's file is replaced (the link stays), and a
    device or a FIFO is written to as it is (never replaced by a file); without
    ``in_place`` they are refused (:data:`NOT_A_FILE`): an interface must not wait
    for a pipe's reader, nor a command line's `-o /dev/stdout` be refused.
    """
    target = Path(path)
    real = _destination(target, overwrite=overwrite, in_place=in_place)
    if real is None:
        try:
            with open(target, "wb") as stream:
                stream.write(data)
        except OSError as error:  # a full device: said of the file, not of nothing
            raise _named(error, target) from None
        return
    handle, temporary = _temporary_beside(real, target)
    try:
        with os.fdopen(handle, "wb") as stream:
            # mkstemp makes the file private (0600); a new output file gets the
            # permissions any other new file would get (0666 minus the umask).
            os.fchmod(stream.fileno(), 0o666 & ~_umask())
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if overwrite:
            os.replace(temporary, real)
        else:
            # link() refuses an existing name, so a file that appeared meanwhile survives.
            try:
                os.link(temporary, target)
            except OSError as error:
                if error.errno not in _NO_HARD_LINKS:
                    raise
                _write_exclusive(target, data)  # a file system without hard links
            os.unlink(temporary)
    except BaseException as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):  # a full disk: said of the user's file, not ours
            raise _named(error, target) from None
        raise


def _named(error: OSError, target: Path) -> OSError:
    """``error`` as an error about ``target``, the path the user gave: a failed write
    names no file, and one about the temporary file names a file that is ours."""
    return type(error)(error.errno, error.strerror or str(error), str(target))


_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK}


def _write_exclusive(target: Path, data: bytes) -> None:
    """Create ``target`` (never an existing one) and write ``data`` to it."""
    handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        os.unlink(target)
        raise
