"""Every Python name README.md and docs/ tell a reader to import exists: the dotted
names in backticks (`siftui.sources.load.load_doc_report(...)`) and the imports of
their Python examples. A module moved into its layer's folder left two behind once."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FILES = {"siftui.tcss"}  # a file's name, not a module

NAMED = re.compile(r"`(siftui(?:\.\w+)+)[`(]")
IMPORT = re.compile(r"^from (siftui[\w.]*) import ([\w, ]+)$", re.MULTILINE)


def named_in(text: str) -> set[str]:
    found = set(NAMED.findall(text))
    for block in re.findall(r"```python\n(.*?)```", text, re.DOTALL):
        for module, names in IMPORT.findall(block):
            found.update(f"{module}.{name.strip()}" for name in names.split(","))
    return found - FILES


def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_every_python_name_the_docs_give_exists(doc: Path) -> None:
    names = named_in(doc.read_text(encoding="utf-8"))
    missing = sorted(name for name in names if not resolves(name))
    assert not missing, f"{doc.name} names what siftui does not have: {missing}"


def test_the_check_finds_a_name_that_is_gone() -> None:
    text = "`siftui.docx_render` and\n```python\nfrom siftui.ooxml.read import read_docx\n```\n"
    assert named_in(text) == {"siftui.docx_render", "siftui.ooxml.read.read_docx"}
    assert not resolves("siftui.docx_render") and not resolves("siftui.ooxml.read.read_docx")
    assert resolves("siftui.core.word.render.render_docx")
