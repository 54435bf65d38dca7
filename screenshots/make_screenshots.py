"""Make the SVG screenshots in this folder from the real app on the bundled sample.

    python screenshots/make_screenshots.py [OUT_DIR]

Each picture drives the app through Pilot exactly as a user would, then saves
what the terminal shows.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import pymupdf
from textual.pilot import Pilot
from textual.widgets import Input

from siftui.sample import sample_path
from siftui.tui.app import SiftApp, create_app
from siftui.tui.outcap import OutCapControl
from siftui.tui.screens import PasswordScreen

SIZE = (120, 36)
Step = Callable[[SiftApp, Pilot[int]], Awaitable[None]]


async def _until(pilot: Pilot[int], condition: Callable[[], object], seconds: float = 60) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise TimeoutError("the app did not reach the expected state")


async def _settle(app: SiftApp, pilot: Pilot[int]) -> None:
    await _until(pilot, lambda: app.shown is not None)
    await _until(pilot, lambda: not any(w.is_running for w in app.workers))
    await pilot.pause(0.2)


def _request(pages: str = "", grep: str = "", out_cap: int | None = None) -> Step:
    async def step(app: SiftApp, pilot: Pilot[int]) -> None:
        await _settle(app, pilot)
        if out_cap is not None:
            app.query_one(OutCapControl).value = out_cap
        app.query_one("#pages", Input).value = pages
        app.query_one("#grep", Input).value = grep
        await pilot.pause(0.2)
        await _until(pilot, lambda: not any(w.is_running for w in app.workers))
        app.action_focus_view()
        await pilot.pause(0.2)

    return step


async def _password(app: SiftApp, pilot: Pilot[int]) -> None:
    await _until(pilot, lambda: isinstance(app.screen, PasswordScreen))
    await pilot.press(*"guess", "enter")
    await _until(pilot, lambda: isinstance(app.screen, PasswordScreen))
    await pilot.pause(0.5)


async def _error(app: SiftApp, pilot: Pilot[int]) -> None:
    await _until(pilot, lambda: str(app.query_one("#note").render()).strip() != "")
    await pilot.pause(0.3)


async def _shoot(app: SiftApp, step: Step, target: Path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await step(app, pilot)
        app.save_screenshot(filename=target.name, path=str(target.parent))


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        locked = Path(scratch) / "sample-locked.pdf"
        with pymupdf.open(sample_path()) as document:
            document.save(
                locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="open", owner_pw="own"
            )
        broken = Path(scratch) / "notes.pdf"
        broken.write_text("these are notes, not a PDF\n", encoding="utf-8")
        shots: list[tuple[str, SiftApp, Step]] = [
            ("map.svg", create_app(), _request()),
            ("pages-cut.svg", create_app(), _request(pages="12-30", out_cap=12_000)),
            ("grep.svg", create_app(), _request(grep="budget|预算", pages="40-45")),
            ("password.svg", create_app(locked), _password),
            ("error.svg", create_app(broken), _error),
        ]
        for name, app, step in shots:
            asyncio.run(_shoot(app, step, out / name))
            print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
