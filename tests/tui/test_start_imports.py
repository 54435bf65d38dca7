"""What `siftui FILE` imports before its first frame: not the modules only later work,
another command or another kind of session needs (each costs the start; see
bench/tui_open_instructions.py). Checked in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.pdfs import make_pdf

# Each is imported when first used: a log replay's call list (a DataTable) and its flow,
# the copy (pyperclip, ctypes), the grep (RE2), the tokenizers and the after-work (once
# the first answer is painted), the loader's progress bar (an open that has to wait),
# the other commands, the keys' helpers, the evidence preview.
LATER = (
    "siftui.tui.widgets.call_list",
    "textual.widgets._data_table",
    "pyperclip",
    "re2",
    "siftui.sources.tokens",
    "siftui.tui.background",
    "siftui.tui.hidden_flow",
    "textual.widgets._progress_bar",
    "siftui.cli.documents",
    "siftui.cli.serving",
    "siftui.tui.key_actions",
    "siftui.tui.exporting",
    "siftui.tui.clipboard",
    "siftui.tui.replay_flow",
    "siftui.tui.evidence_rerun",
    "siftui.tui.evidence.flow",
    "siftui.tui.evidence.model",
)

FIRST_FRAME = """
import asyncio, sys
from siftui.tui.app import SiftApp
from siftui.tui.factory import create_app

seen = []

def after_work(self, *args):  # called once the first answer is painted
    seen.append(sorted(sys.modules))
    self.exit()

SiftApp._after_work = after_work

async def main():
    from pathlib import Path
    from siftui.tui import preload

    preload.start(Path(sys.argv[1]), None)  # as `siftui FILE` does; a warm cache is done
    preload._pending._thread.join()  # by the first frame, so no progress bar is needed
    app = create_app(sys.argv[1])
    async with app.run_test() as pilot:
        for _ in range(600):
            if seen:
                break
            await pilot.pause(0.05)
    print("\\n".join(seen[0]))

import siftui.cli  # the command line's own imports, as `siftui FILE` makes them
asyncio.run(main())
"""


def test_the_first_frame_imports_nothing_that_waits(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["first page", "second page"])
    done = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(pdf)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = set(done.stdout.split())
    assert "siftui.tui.app" in imported and "textual.app" in imported
    assert sorted(imported.intersection(LATER)) == []
