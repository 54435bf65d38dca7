"""A module whose every test is slow imports its heavy libraries inside its tests, so
that the everyday run (`pytest`, which leaves slow tests out) does not pay for them
when it collects: the MCP client, Dask's distributed, the HTTP client, and the
helpers in tests/support that import them at their top."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
HEAVY = {
    "anyio",
    "dask",
    "distributed",
    "httpx",
    "httpx2",
    "mcp",
    "mcp_types",
    "support.http_host",
    "support.mcp_client",
}


def _slow(decorator: ast.expr) -> bool:
    return ast.unparse(decorator) == "pytest.mark.slow"


def all_slow(tree: ast.Module) -> bool:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(getattr(target, "id", None) == "pytestmark" for target in targets):
            assert isinstance(node, ast.Assign)
            marks = node.value.elts if isinstance(node.value, ast.List) else [node.value]
            if any(_slow(mark) for mark in marks):
                return True
    tests = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    ]
    return bool(tests) and all(any(map(_slow, test.decorator_list)) for test in tests)


def top_imports(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def heavy(names: set[str]) -> set[str]:
    return {name for name in names if name in HEAVY or name.split(".")[0] in HEAVY}


def test_all_slow_modules_import_no_heavy_library_at_their_top() -> None:
    found = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        if all_slow(tree) and heavy(top_imports(tree)):
            found[str(path.relative_to(TESTS))] = sorted(heavy(top_imports(tree)))
    assert found == {}


def test_the_check_sees_a_slow_module_and_its_imports() -> None:
    slow = ast.parse(
        "import pytest\nfrom mcp import ClientSession\n"
        "pytestmark = [pytest.mark.e2e, pytest.mark.slow]\ndef test_a(): pass\n"
    )
    assert all_slow(slow) and heavy(top_imports(slow)) == {"mcp"}
    each = ast.parse(
        "import pytest\nimport distributed\n@pytest.mark.slow\ndef test_a(): pass\n"
        "def test_b(): import anyio\n"
    )
    assert not all_slow(each)
    assert heavy(top_imports(each)) == {"distributed"}  # anyio is inside test_b
