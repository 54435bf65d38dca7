"""Shared test helpers live in tests/support/ (or are fixtures in a conftest.py): no test
module imports another, and no helper module sits among the tests (where only pytest's
rootdir insertion into sys.path makes it importable). A helper kept in a test module
ties two test files together: the importer loads the other's tests and imports too."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
SCRIPTS = {TESTS / "tools" / "make_sample.py"}  # run by hand, imported by no test


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_no_test_module_imports_another() -> None:
    found = {
        f"{path.relative_to(TESTS)} imports {name}"
        for path in TESTS.rglob("*.py")
        for name in imported_modules(path)
        if name.split(".")[-1].startswith("test_")
    }
    assert sorted(found) == []


def test_helpers_are_in_support() -> None:
    outside = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if not path.name.startswith("test_")
        and path.name not in {"conftest.py", "__init__.py"}
        and path.parent != TESTS / "support"
        and path not in SCRIPTS
    ]
    assert outside == []


def test_the_check_sees_an_import_of_a_test_module(tmp_path: Path) -> None:
    module = tmp_path / "test_a.py"
    module.write_text("from test_b import helper\nimport test_c\nfrom support.x import y\n")
    assert imported_modules(module) == {"test_b", "test_c", "support.x"}
