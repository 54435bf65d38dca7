"""One-line messages: a path or an error never breaks the line in two."""

from __future__ import annotations

import errno
import os

from siftui.core.messages import file_error, one_line, quoted


def test_quoted_escapes_control_characters() -> None:
    assert quoted("a\nb\tc\x1b.pdf") == "a\\nb\\tc\\x1b.pdf"
    assert quoted(os.fsdecode(b"plain.pdf")) == "plain.pdf"


def test_one_line_collapses_and_names_a_silent_error() -> None:
    assert one_line(ValueError("two\n  lines")) == "two lines"
    assert one_line(KeyError()) == "KeyError"


def test_file_error_names_the_path_and_the_reason() -> None:
    missing = FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), "x")
    assert file_error("dir/new\nline.pdf", missing) == "dir/new\\nline.pdf: " + os.strerror(
        errno.ENOENT
    )
    assert file_error("a.pdf", OSError("no\nreason code")) == "a.pdf: no reason code"
