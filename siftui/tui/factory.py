"""The app factories: the TUI on a document, or on an MCP call log."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.tui.app import SiftApp

if TYPE_CHECKING:
    from siftui.sources.log.calllog import LogEntry
    from siftui.sources.log.follow import LogTail
    from siftui.sources.log.rerun import RerunFactory
    from siftui.tui.evidence.model import PreviewFactory


def create_log_app(
    entries: list[LogEntry],
    tail: LogTail | None = None,
    *,
    follow: bool = False,
    rerun: RerunFactory | None = None,
) -> SiftApp:
    """The app replaying the calls of an MCP call log (``tail``: its file, to follow;
    ``rerun``: how to re-run an evidence session, the CLI's factory)."""
    from siftui.tui.evidence_rerun import LogReplay

    return SiftApp(None, None, LogReplay(entries, tail, follow and tail is not None, rerun))


def create_app(
    path: str | Path | None = None,
    password: str | None = None,
    evidence: PreviewFactory | None = None,
    *,
    ocr_language: str = DEFAULT_OCR_LANGUAGE,
) -> SiftApp:
    """The app for ``path`` (the bundled sample when None); ``evidence`` answers `e`;
    ``ocr_language``: what `t` reads (Tesseract's codes)."""
    if path is None:
        from siftui.sources.sample import sample_path

        path = sample_path()
    return SiftApp(path, password, evidence=evidence, ocr_language=ocr_language)
