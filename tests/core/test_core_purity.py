"""The core imports neither the TUI toolkit nor PyMuPDF: render stays pure and light."""

from __future__ import annotations

import json
import subprocess
import sys

CORE = [
    "siftui.doc",
    "siftui.render",
    "siftui.grep",
    "siftui.docindex",
    "siftui.layout",
    "siftui.outcap",
]
FORBIDDEN = ["textual", "pymupdf", "fitz"]


def modules_after(imports: list[str]) -> set[str]:
    """sys.modules of a fresh interpreter after importing ``imports``."""
    probe = (
        "import importlib, json, sys\n"
        f"for name in {imports!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    return set(json.loads(done.stdout))


def test_core_imports_no_tui_and_no_pdf_library() -> None:
    modules = modules_after(CORE)
    assert set(CORE) <= modules
    top_level = {name.split(".")[0] for name in modules}
    for name in FORBIDDEN:
        assert name not in top_level, f"{name} imported by the core"


def test_probe_sees_an_import() -> None:
    """The probe itself works: an imported package shows up."""
    assert "textual" in modules_after(["textual"])
