"""file_sha256: the digest of a file's bytes, read once per settled version in a process."""

from __future__ import annotations

import hashlib
import os
from hashlib import sha256 as plain_sha256
from pathlib import Path
from typing import Any

import pytest

import siftui.sources.filehash as cache_module
from siftui.sources.filehash import NotARegularFile, file_sha256


@pytest.fixture(autouse=True)
def nothing_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache_module, "_hashed", {})


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every sha256 file_sha256 starts."""
    started: list[int] = []
    sha256 = hashlib.sha256

    def counting(*args: Any) -> Any:
        started.append(1)
        return sha256(*args)

    monkeypatch.setattr(hashlib, "sha256", counting)
    return started


def settle_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat a file as settled at once (a real one must be 2 s old)."""
    monkeypatch.setattr(cache_module, "_SETTLED_NS", -(10**18))


def test_settled_file_is_read_once(
    tmp_path: Path, reads: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    settle_now(monkeypatch)
    path = tmp_path / "a.bin"
    path.write_bytes(b"x" * 3_000_000)
    expected = plain_sha256(b"x" * 3_000_000).hexdigest()
    assert [file_sha256(path), file_sha256(str(path))] == [expected, expected]
    assert len(reads) == 1


def test_a_changed_file_is_read_again(
    tmp_path: Path, reads: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    settle_now(monkeypatch)
    path = tmp_path / "a.bin"
    path.write_bytes(b"first")
    assert file_sha256(path) == plain_sha256(b"first").hexdigest()
    path.write_bytes(b"second, longer")
    assert file_sha256(path) == plain_sha256(b"second, longer").hexdigest()
    replaced = tmp_path / "b.bin"
    replaced.write_bytes(b"third, longer!")
    os.replace(replaced, path)
    assert file_sha256(path) == plain_sha256(b"third, longer!").hexdigest()
    assert len(reads) == 3


def test_a_file_written_just_now_is_never_remembered(tmp_path: Path, reads: list[int]) -> None:
    # Two writes of the same size within one tick of the kernel's file clock leave
    # the same times: only a file older than that can be known by its stat.
    path = tmp_path / "a.bin"
    for text in (b"aaaa", b"bbbb", b"cccc"):
        path.write_bytes(text)
        assert file_sha256(path) == plain_sha256(text).hexdigest()
    assert len(reads) == 3


def test_the_memory_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settle_now(monkeypatch)
    for number in range(cache_module._HASHED_KEPT + 10):
        path = tmp_path / f"{number}.bin"
        path.write_bytes(str(number).encode())
        assert file_sha256(path) == plain_sha256(str(number).encode()).hexdigest()
    assert len(cache_module._hashed) == cache_module._HASHED_KEPT


def test_missing_file_is_the_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        file_sha256(tmp_path / "missing.pdf")


def test_no_regular_file_is_an_os_error_and_never_waited_for(tmp_path: Path) -> None:
    # A FIFO with no writer would block a plain open() for ever: this one is not read.
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path):
        with pytest.raises(NotARegularFile):
            file_sha256(path)
    assert issubclass(NotARegularFile, OSError)
