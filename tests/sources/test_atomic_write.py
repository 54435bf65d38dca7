"""Saving never leaves a half-written file under the user's name."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from siftui.sources.output import check_new_file, write_new_file


def _crash(*args: object, **kwargs: object) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_failed_overwrite_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    target = tmp_path / "answer.txt"
    target.write_bytes(b"the user's precious text")
    monkeypatch.setattr(os, step, _crash)
    with pytest.raises(OSError) as raised:
        write_new_file(target, "new content, 新".encode(), overwrite=True)
    assert raised.value.filename == str(target)  # the user's file, not the temporary one
    assert target.read_bytes() == b"the user's precious text"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer.txt"]  # no temp file left


def test_a_failed_new_file_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "fresh.txt"
    monkeypatch.setattr(os, "fsync", _crash)
    with pytest.raises(OSError) as raised:
        write_new_file(target, b"x" * 1_000_000)
    assert raised.value.filename == str(target)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_full_device_written_in_place_is_named() -> None:
    """A write that fails names no file: the error says which file it was about."""
    with pytest.raises(OSError) as raised:
        write_new_file("/dev/full", b"x" * 100_000, overwrite=True)
    assert raised.value.errno == 28 and raised.value.filename == "/dev/full"


def test_an_existing_file_is_never_replaced_without_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "answer.txt"
    target.write_bytes(b"keep")
    with pytest.raises(FileExistsError):
        write_new_file(target, b"other")
    assert target.read_bytes() == b"keep"
    write_new_file(target, b"other", overwrite=True)
    assert target.read_bytes() == b"other"
    assert os.stat(target).st_size == 5


def test_a_fifo_is_written_to_never_replaced(tmp_path: Path) -> None:
    """`-o FIFO --force` (or a device: /dev/stdout) feeds it; replacing it by a file
    would put a regular file where the user's pipe (or /dev/null) was."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_new_file(fifo, "through the pipe, 新".encode(), overwrite=True)
    reader.join(10)
    assert received == ["through the pipe, 新".encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_symbolic_link_keeps_leading_to_the_file_it_names(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_bytes(b"old")
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    write_new_file(link, b"new", overwrite=True)
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert real.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_directory_that_refuses_new_files_is_named_by_the_target_before_any_work() -> None:
    """/proc lists as a directory and refuses every new file, even to root: the error
    names what the user asked for, not the temporary file the write goes through."""
    target = Path("/proc/siftui-never-made.json")
    with pytest.raises(OSError) as checked:
        check_new_file(target)
    with pytest.raises(OSError) as written:
        write_new_file(target, b"x")
    assert checked.value.filename == written.value.filename == str(target)
    assert not target.exists()


def test_without_in_place_a_pipe_or_a_device_is_refused_before_anything_waits(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "to-null"
    link.symlink_to("/dev/null")
    for target in (fifo, Path("/dev/null"), link):
        with pytest.raises(OSError) as checked:
            check_new_file(target, overwrite=True, in_place=False)
        with pytest.raises(OSError) as written:
            write_new_file(target, b"x", overwrite=True, in_place=False)
        for refused in (checked, written):
            assert refused.value.strerror == "not a regular file (a pipe or a device)"
            assert refused.value.filename == str(target)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and link.is_symlink()
    plain = tmp_path / "plain.txt"
    write_new_file(plain, b"kept", in_place=False)
    assert plain.read_bytes() == b"kept"
