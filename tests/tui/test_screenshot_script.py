"""screenshots/make_screenshots.py, which draws the README's pictures, still imports:
it reaches into the TUI's modules, and a module moved breaks it (as the call list's
move did) though no test of the app fails."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "screenshots" / "make_screenshots.py"


def test_the_screenshot_script_imports() -> None:
    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(module.main)
