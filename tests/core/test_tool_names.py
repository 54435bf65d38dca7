"""A served tool's name is spelt in its entry's module only (siftui/core/tools/).

Every module of the package, in every folder, is parsed: a string constant (an
f-string's pieces too) or an attribute (``session.pdf_open``) equal to a tool's
name outside the module that defines its entry fails. The rest of siftui asks
the entry (siftui.core.tools.table), so adding a tool touches no module but its
entry's, its handler's and its tests. Prose that mentions a tool (a docstring, a
help text, a message) is not a name compared, keyed or dispatched on, and is
not looked at; nor are a module's own function names (the OOXML reader's
``read_docx`` reads a file, it is no tool).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import siftui
import siftui.core.tools
from siftui.core.tools.entry import ToolEntry
from siftui.core.tools.table import ENTRIES

PACKAGE = Path(siftui.__file__).parent


def spelt(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every string constant and attribute of ``tree``, with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr


def entry_modules() -> dict[str, set[Path]]:
    """Each tool's name -> the module(s) of siftui.core.tools that define its entry."""
    found: dict[str, set[Path]] = {}
    for info in pkgutil.iter_modules(siftui.core.tools.__path__, "siftui.core.tools."):
        module = importlib.import_module(info.name)
        assert module.__file__ is not None
        for value in vars(module).values():
            if isinstance(value, ToolEntry):
                found.setdefault(value.name, set()).add(Path(module.__file__))
    return found


def names_outside(root: Path, allowed: dict[str, set[Path]]) -> list[str]:
    """``path:line: name`` for each tool name spelt outside its entry's module(s)."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, text in spelt(tree):
            if text in allowed and path.resolve() not in {p.resolve() for p in allowed[text]}:
                found.append(f"{path.relative_to(root.parent)}:{line}: {text}")
    return found


def test_every_tool_has_its_entry_in_one_module_of_the_tools_package() -> None:
    modules = entry_modules()
    assert sorted(modules) == sorted(entry.name for entry in ENTRIES)
    assert all(len(paths) == 1 for paths in modules.values()), modules


def test_no_module_outside_a_tools_entry_spells_its_name() -> None:
    assert names_outside(PACKAGE, entry_modules()) == []


def test_the_guard_finds_a_name_spelt_anywhere(tmp_path: Path) -> None:
    """The walk is recursive and sees constants, f-strings and identifiers alike."""
    package = tmp_path / "pkg"
    (package / "deep" / "deeper").mkdir(parents=True)
    (package / "entry.py").write_text('NAME = "pdf_open"\n')
    (package / "deep" / "deeper" / "compare.py").write_text(
        'def f(tool):\n    return tool == "pdf_open" or f"x{tool}" == f"pdf_open"\n'
    )
    (package / "deep" / "method.py").write_text("def g(session):\n    return session.pdf_open()\n")
    (package / "prose.py").write_text('"""pdf_open is mentioned in prose."""\nX = "see pdf_open"\n')
    allowed = {"pdf_open": {package / "entry.py"}}
    assert names_outside(package, allowed) == [
        "pkg/deep/deeper/compare.py:2: pdf_open",
        "pkg/deep/deeper/compare.py:2: pdf_open",
        "pkg/deep/method.py:2: pdf_open",
    ]
