"""Named text files read without trusting them: regular files only, lines bounded."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from siftui.sources.lines import TOO_LONG, NotLines, bounded_lines, open_regular


def test_a_regular_file_is_opened(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"a\nb")
    with open_regular(path) as handle:
        assert list(bounded_lines(handle)) == [b"a", b"b"]


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_a_link_to_a_device_is_refused(tmp_path: Path, target: str) -> None:
    link = tmp_path / "log.jsonl"
    link.symlink_to(target)
    with pytest.raises(NotLines, match=r"log\.jsonl: not a regular file$"):
        open_regular(link)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(NotLines, match="not a regular file"):
        open_regular(fifo)


def test_a_directory_and_a_missing_file_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(NotLines, match=r"a directory$"):
        open_regular(tmp_path)
    with pytest.raises(NotLines, match=r"No such file or directory$"):
        open_regular(tmp_path / "missing")


def test_a_line_over_the_cap_is_dropped_not_held() -> None:
    data = b"short\n" + b"x" * 100 + b"\nafter\n" + b"y" * 50
    assert list(bounded_lines(io.BytesIO(data), limit=20)) == [
        b"short",
        TOO_LONG,
        b"after",
        TOO_LONG,
    ]
    assert list(bounded_lines(io.BytesIO(b"x" * 20 + b"\n"), limit=20)) == [b"x" * 20]
