"""siftui.sources.errors: one line to show, the traceback in $XDG_STATE_HOME/siftui/errors.log."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from siftui.sources.errors import MAX_LOG_BYTES, error_log_path, report_unexpected


def _raised() -> ValueError:
    try:
        raise ValueError("bad\nthing")
    except ValueError as error:
        return error


def test_one_line_names_the_log_and_the_log_has_the_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    line = report_unexpected(_raised(), "rendering")
    log = tmp_path / "siftui" / "errors.log"
    assert line == f"rendering: unexpected ValueError: bad thing (details in {log})"
    text = log.read_text()
    assert "rendering" in text and "Traceback" in text and "_raised" in text
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_default_location_and_relative_state_home_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_STATE_HOME", "relative/dir")
    assert error_log_path() == tmp_path / ".local/state/siftui/errors.log"


def test_an_unwritable_log_still_gives_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))  # siftui/ cannot be made under a file
    line = report_unexpected(_raised(), "loading x.pdf")
    assert line == (
        "loading x.pdf: unexpected ValueError: bad thing (its traceback could not be saved)"
    )


def test_a_full_log_is_rotated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    log = tmp_path / "siftui" / "errors.log"
    log.parent.mkdir()
    log.write_text("x" * (MAX_LOG_BYTES + 1))
    report_unexpected(_raised(), "serving")
    assert log.with_name("errors.log.1").stat().st_size == MAX_LOG_BYTES + 1
    assert log.stat().st_size < 10_000
