"""Start the TUI from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.tui import preload

if TYPE_CHECKING:
    from siftui.sources.log.calllog import LogEntry
    from siftui.sources.log.follow import LogTail
    from siftui.sources.log.rerun import RerunFactory
    from siftui.tui.evidence.model import PreviewFactory


def run_tui(
    path: str | None,
    password: str | None = None,
    evidence: PreviewFactory | None = None,
    ocr_language: str = DEFAULT_OCR_LANGUAGE,
) -> int:
    """Run the app until the user quits; the exit code of the process (``ocr_language``:
    what `t` reads, Tesseract's codes).

    The document starts loading before Textual is imported (siftui.tui.preload).
    """
    if path is None:
        from siftui.sources.sample import sample_path

        path = str(sample_path())
    preload.start(Path(path), password)
    from siftui.tui.factory import create_app

    result = create_app(path, password, evidence, ocr_language=ocr_language).run()
    return 0 if result is None else int(result)


def run_log_tui(
    entries: list[LogEntry],
    tail: LogTail | None = None,
    *,
    follow: bool = False,
    rerun: RerunFactory | None = None,
) -> int:
    """Run the app on a call log until the user quits (``follow``: reading it as it grows,
    from where ``tail`` stands; ``rerun``: how to re-run an evidence session)."""
    from siftui.tui.factory import create_log_app

    result = create_log_app(entries, tail, follow=follow, rerun=rerun).run()
    return 0 if result is None else int(result)
