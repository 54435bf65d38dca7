"""The end-to-end tests' fixture: a private tmux server running the app, killed after
the test (support.tmux_app)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.tmux_app import TmuxApp


@pytest.fixture
def tmux_app(tmp_path: Path) -> Iterator[TmuxApp]:
    app = TmuxApp(f"siftui-e2e-{os.getpid()}-{uuid.uuid4().hex[:10]}", tmp_path)
    try:
        yield app
    finally:
        app.kill()
