"""Saving never leaves a half-written file under the user's name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from siftui.sources.output import write_new_file


def _crash(*args: object, **kwargs: object) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_failed_overwrite_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    target = tmp_path / "answer.txt"
    target.write_bytes(b"the user's precious text")
    monkeypatch.setattr(os, step, _crash)
    with pytest.raises(OSError):
        write_new_file(target, "new content, 新".encode(), overwrite=True)
    assert target.read_bytes() == b"the user's precious text"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer.txt"]  # no temp file left


def test_a_failed_new_file_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "fresh.txt"
    monkeypatch.setattr(os, "fsync", _crash)
    with pytest.raises(OSError):
        write_new_file(target, b"x" * 1_000_000)
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_never_replaced_without_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "answer.txt"
    target.write_bytes(b"keep")
    with pytest.raises(FileExistsError):
        write_new_file(target, b"other")
    assert target.read_bytes() == b"keep"
    write_new_file(target, b"other", overwrite=True)
    assert target.read_bytes() == b"other"
    assert os.stat(target).st_size == 5
