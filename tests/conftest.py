"""Shared fixtures: a cache directory of its own for every run (none writes the real
~/.cache), the corpus extracted once per run, the clipboard replaced by a list, and
the end-to-end tests' app in a private tmux server (support.tmux_app)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.pdfs import CORPUS, CorpusDocs, corpus_docs
from support.tmux_app import TmuxApp


@pytest.fixture(scope="session", autouse=True)
def _session_cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """$XDG_CACHE_HOME in a per-run temporary directory (subprocesses inherit it), one
    for all of the run's xdist workers: a corpus file one worker extracted is not
    extracted again by the other (the cache is safe for processes side by side)."""
    before = os.environ.get("XDG_CACHE_HOME")
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    (shared / "xdg-cache").mkdir(exist_ok=True)
    os.environ["XDG_CACHE_HOME"] = str(shared / "xdg-cache")
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusDocs:
    """Corpus files by name, each extracted once per run (see pdfs.CorpusDocs)."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    return corpus_docs(tmp_path_factory)


@pytest.fixture
def clipboard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The system clipboard, replaced by a list that records what was copied."""
    from siftui.tui import exporting

    copied: list[str] = []

    def fake_copy(text: str) -> str | None:
        copied.append(text)
        return None

    monkeypatch.setattr(exporting, "copy_system", fake_copy)
    return copied


@pytest.fixture
def tmux_app(tmp_path: Path) -> Iterator[TmuxApp]:
    """The app in a private tmux server of its own, killed after the test (tests/e2e)."""
    app = TmuxApp(f"siftui-e2e-{os.getpid()}-{uuid.uuid4().hex[:10]}", tmp_path)
    try:
        yield app
    finally:
        app.kill()
