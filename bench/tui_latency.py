"""Key-to-repaint latency of the TUI on a large document, driven by Pilot.

    python bench/tui_latency.py [PDF] [--steps N]

1. OutCap keys: the slider is focused and stepped over its whole range
   (home, then right to 1,000,000, then left back down); for each key, the time
   from the key press until the view shows the answer for the new OutCap.
2. A mouse drag across the slider: the same, for each mouse move.
3. A 1M-rune answer (a synthetic Doc whose full text is ~1M runes): the time to
   show it, then page-down latency while scrolling through it.
Prints median and p95 per series, and the machine's load. Run by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from siftui.core.doc import Doc
from siftui.core.docjson import doc_to_json
from siftui.tui.app import SiftApp
from siftui.tui.widgets.outcap import OutCapSlider
from siftui.tui.widgets.view import ContentView

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


async def until(pilot: Pilot[Any], condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.perf_counter() + seconds
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError("the app did not get there in time")
        await pilot.pause(0.001)


def summary(name: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return (
        f"{name:<34} n={len(values):<4} median {statistics.median(values) * 1000:7.1f} ms"
        f"   p95 {p95 * 1000:7.1f} ms   max {values[-1] * 1000:7.1f} ms"
    )


class TimedApp(SiftApp):
    """Records, for each OutCap change, the time until the view holds its answer."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.changed_at: dict[int, float] = {}
        self.pipeline: list[float] = []

    def propose(self, options: Any, *, call: bool = False, typed: bool = False) -> None:
        self.changed_at.setdefault(options.out_cap, time.perf_counter())
        super().propose(options, call=call, typed=typed)

    def watch_answer(self, shown: Any) -> None:
        super().watch_answer(shown)
        started = self.changed_at.pop(shown.options.out_cap, None) if shown else None
        if started is not None:
            self.pipeline.append(time.perf_counter() - started)


async def outcap_series(
    path: Path, steps: int
) -> tuple[list[float], list[float], float, list[float]]:
    app = TimedApp(path)
    keys: list[float] = []
    drags: list[float] = []
    async with app.run_test(size=(140, 40)) as pilot:
        start = time.perf_counter()
        await until(pilot, lambda: app.answer is not None, 600)
        opened = time.perf_counter() - start
        slider = app.query_one(OutCapSlider)
        slider.focus()
        await pilot.press("home")
        await until(pilot, lambda: app.answer is not None and app.answer.options.out_cap == 1000)
        for key in ["right"] * steps + ["left"] * steps:
            before = time.perf_counter()
            await pilot.press(key)
            target = slider.value
            await until(
                pilot,
                lambda target=target: (
                    app.answer is not None  # type: ignore[misc]
                    and app.answer.options.out_cap == target
                ),
            )
            await pilot.pause(0)
            keys.append(time.perf_counter() - before)
        width = slider.content_size.width
        await pilot.mouse_down(OutCapSlider, offset=(0, 0))
        for x in range(0, width, max(1, width // 40)):
            before = time.perf_counter()
            await pilot.hover(OutCapSlider, offset=(x, 0))
            target = slider.value
            await until(
                pilot,
                lambda target=target: (
                    app.answer is not None  # type: ignore[misc]
                    and app.answer.options.out_cap == target
                ),
            )
            await pilot.pause(0)
            drags.append(time.perf_counter() - before)
        await pilot.mouse_up(OutCapSlider)
    return keys, drags, opened, app.pipeline


async def big_answer_series(folder: Path) -> tuple[float, list[float], int]:
    pages = tuple(
        f"page {n} " + ("lorem ipsum dolor sit amet " * 3 + "\n") * 60 for n in range(1, 201)
    )
    doc = Doc("big", len(pages), pages)
    path = folder / "big.json"
    path.write_text(doc_to_json(doc), encoding="utf-8")
    app = SiftApp(path)
    scrolls: list[float] = []
    async with app.run_test(size=(140, 40)) as pilot:
        await until(pilot, lambda: app.answer is not None, 120)
        start = time.perf_counter()
        app.query_one("#outcap").value = 1_000_000  # type: ignore[attr-defined]
        await until(
            pilot, lambda: app.answer is not None and app.answer.options.out_cap == 1_000_000
        )
        await pilot.pause(0)
        shown = time.perf_counter() - start
        runes = len(app.answer.rendered.content) if app.answer else 0
        view = app.query_one(ContentView)
        for _ in range(60):
            before = time.perf_counter()
            # Without the smooth-scroll animation, which is a fixed ~0.5 s by design.
            view.scroll_page_down(animate=False)
            await pilot.pause(0)
            scrolls.append(time.perf_counter() - before)
    return shown, scrolls, runes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", default=str(CORPUS / "pgfmanual.pdf"))
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}")
    keys, drags, opened, pipeline = asyncio.run(outcap_series(Path(args.pdf), args.steps))
    print(f"{Path(args.pdf).name}: opened and first answer shown in {opened:.2f} s")
    print(summary("OutCap change -> view holds answer", pipeline))
    print("  (in the app: the request, the render worker, the view, counters and strip)")
    print(summary("Pilot key press round trip", keys))
    print(summary("Pilot drag move round trip", drags))
    print("  (round trips add Pilot's own wait for a quiet screen and a full repaint)")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        shown, scrolls, runes = asyncio.run(big_answer_series(Path(folder)))
    print(f"a {runes:,}-rune answer shown in {shown * 1000:.1f} ms")
    print(summary("page down (no animation) + repaint", scrolls))
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
