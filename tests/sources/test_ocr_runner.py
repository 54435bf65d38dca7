"""Tesseract in a server: 30 concurrent OCR calls of one image must not run 30
Tesseract processes under --workers 1, nor outlive the server. A fake
`tesseract` on PATH counts its runs and how many run at once."""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from siftui.core.evidence.errors import EvidenceError
from siftui.sources import ocr_runner
from siftui.sources.ocr_runner import OcrRunner

FAKE = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "tesseract 5.9.9"; exit 0; fi
dir="{dir}"
echo run >> "$dir/runs"
mkdir "$dir/lock" 2>/dev/null || echo overlap >> "$dir/overlaps"
cat > /dev/null
sleep {seconds}
rmdir "$dir/lock" 2>/dev/null
echo "read by the fake"
"""


def _fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: float) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "tesseract"
    program.write_text(FAKE.format(dir=tmp_path, seconds=seconds))
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    ocr_runner.tesseract_engine.cache_clear()
    return tmp_path


@pytest.fixture(autouse=True)
def _engine_cache() -> Iterator[None]:
    yield
    ocr_runner.tesseract_engine.cache_clear()


def _runs(folder: Path, name: str = "runs") -> int:
    path = folder / name
    return len(path.read_text().splitlines()) if path.exists() else 0


def _at_once(runner: OcrRunner, pngs: list[bytes]) -> list[object]:
    results: list[object] = [None] * len(pngs)

    def one(index: int) -> None:
        try:
            results[index] = runner.recognize(pngs[index], "eng")
        except EvidenceError as error:
            results[index] = error

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(pngs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_one_image_asked_thirty_times_at_once_is_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _fake(tmp_path, monkeypatch, seconds=0.5)
    runner = OcrRunner(threading.BoundedSemaphore(1))
    results = _at_once(runner, [b"one image"] * 30)
    assert results == [("read by the fake\n", "tesseract 5.9.9")] * 30
    assert _runs(folder) == 1
    assert runner.recognize(b"one image", "eng") == results[0]  # kept: not read again
    assert _runs(folder) == 1


def test_tesseract_runs_within_the_servers_slots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _fake(tmp_path, monkeypatch, seconds=0.2)
    runner = OcrRunner(threading.BoundedSemaphore(1))
    results = _at_once(runner, [f"image {i}".encode() for i in range(5)])
    assert all(isinstance(result, tuple) for result in results)
    assert _runs(folder) == 5 and _runs(folder, "overlaps") == 0


def test_closing_kills_a_tesseract_still_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake(tmp_path, monkeypatch, seconds=30)
    runner = OcrRunner(threading.BoundedSemaphore(2))
    started = time.monotonic()
    waiting = threading.Thread(target=_at_once, args=(runner, [b"slow"]))
    waiting.start()
    while not (tmp_path / "runs").exists() and time.monotonic() - started < 20:
        time.sleep(0.05)
    runner.close()
    waiting.join(20)
    assert not waiting.is_alive() and time.monotonic() - started < 25
    with pytest.raises(EvidenceError, match="closing"):
        runner.recognize(b"another", "eng")
