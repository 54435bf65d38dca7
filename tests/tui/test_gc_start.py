"""`siftui FILE` starts with the cycle collector off (its start frees almost nothing
it allocates) and the app turns it back on once its first frame is painted."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.pdfs import make_pdf
from support.tui_support import run, settle
from textual.pilot import Pilot

from siftui import cli
from siftui.tui import launch
from siftui.tui.app import SiftApp


@pytest.fixture(autouse=True)
def collector_back_on() -> Iterator[None]:
    yield
    gc.enable()


def test_the_command_line_starts_the_tui_with_the_collector_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["first page"])
    seen: list[bool] = []

    def recording(*args: Any, **kwargs: Any) -> int:
        seen.append(gc.isenabled())
        return 0

    monkeypatch.setattr(launch, "run_tui", recording)
    assert cli.main([str(pdf)]) == 0
    assert seen == [False]
    assert gc.isenabled()  # on again once the TUI has returned


def test_the_app_turns_the_collector_on_after_its_first_frame(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["first page"])
    gc.disable()

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert app.answer is not None
        assert gc.isenabled()

    run(SiftApp(pdf), scenario)
