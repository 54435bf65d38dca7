"""The code's shape in figures for a siftui checkout (run by hand, not by pytest).

    python bench/metrics.py                    # this checkout
    python bench/metrics.py --tree OLD --tree NEW --collect 2

For each checkout it prints:

- kind tests outside the kind entries (tests/core/test_kind_entries.py's own walk;
  "-" when the checkout has no such guard);
- tool names spelt outside their entry's module (tests/core/test_tool_names.py's walk:
  lines, modules, and the most modules one tool's name is spelt in; "-" without it);
- name-keyed tables outside siftui/core/tools/: dict displays with a served tool's
  name as a key, and apart the indexes ``{entry.name: ...}`` / ``{tool.name: ...}``
  built from the entries;
- controller modules that look up widgets: modules of siftui/tui outside widgets/,
  screens/ and the ``screen.py`` modules calling a lookup (``query``, ``query_one``,
  ``get_widget_by_id``, ...: LOOKUPS), a hand-on in the app's own modules aside
  (``hands_on``: the app handing a key or a message to the widget that acts on it);
- functions of 8 or more parameters (self/cls not counted, ``*a``/``**k`` one each);
- modules over 400 lines;
- twin class names: public classes and CapWords module-level aliases defined in more
  than one module;
- README.md lines;
- ``pytest --collect-only -q`` wall time, ``--collect`` times (0: not timed).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from common import add_tree_option, command_seconds, load, trees

# The lookup rule is the guard test's own (tests/support), applied to each tree's files.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.widget_lookups import LOOKUPS, hands_on

TOOL_NAMES = (
    "ocr_recognize",
    "pdf_annotation_create",
    "pdf_annotation_delete",
    "pdf_annotation_list",
    "pdf_annotation_update",
    "pdf_bookmark_edit",
    "pdf_bookmark_list",
    "pdf_close",
    "pdf_current",
    "pdf_evidence_read",
    "pdf_form_fill",
    "pdf_form_inspect",
    "pdf_info",
    "pdf_keyword_search",
    "pdf_open",
    "pdf_page_jump",
    "pdf_page_read",
    "pdf_page_render",
    "pdf_save",
    "pdf_status",
    "read_docx",
    "read_pdf",
)
"""The served tools' names (CONTRACT, EVIDENCE, EDITING), for the tables' keys."""


def modules(tree: Path) -> list[tuple[str, str]]:
    """(path relative to siftui/, text) of every module of the checkout's package."""
    package = tree / "siftui"
    return [
        (path.relative_to(package).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(package.rglob("*.py"))
    ]


def guard(tree: Path, test: str) -> ModuleType | None:
    """A guard test module of the checkout, imported with the checkout's package."""
    path = tree / "tests" / test
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"_guard_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kind_tests(tree: Path) -> str:
    found = guard(tree, "core/test_kind_entries.py")
    if found is None or not hasattr(found, "kind_tests_outside"):
        return "-"
    return str(len(found.kind_tests_outside(tree / "siftui")))


def tool_names(tree: Path) -> str:
    found = guard(tree, "core/test_tool_names.py")
    if found is None or not hasattr(found, "names_outside"):
        return "-"
    lines: list[str] = found.names_outside(tree / "siftui", found.entry_modules())
    per_tool: dict[str, set[str]] = defaultdict(set)
    for line in lines:
        where, _, name = line.rpartition(": ")
        per_tool[name].add(where.split(":")[0])
    most = max((len(paths) for paths in per_tool.values()), default=0)
    spelt = {path for paths in per_tool.values() for path in paths}
    return f"{len(lines)} lines in {len(spelt)} modules (at most {most} for one tool)"


def name_keyed_tables(found: list[tuple[str, str]]) -> str:
    """Tables spelling tool names as keys, and indexes built from the entries by name."""
    spelt: list[str] = []
    indexes: list[str] = []
    for name, text in found:
        if name.startswith("core/tools/"):
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                if any(key in TOOL_NAMES for key in keys):
                    spelt.append(f"{name}:{node.lineno}")
            elif (
                isinstance(node, ast.DictComp)
                and isinstance(node.key, ast.Attribute)
                and node.key.attr == "name"
                and isinstance(node.key.value, ast.Name)
                and node.key.value.id in ("entry", "tool")
            ):
                indexes.append(f"{name}:{node.lineno}")
    return f"{listed(spelt)} spelling names; {listed(indexes)} indexes of the entries by name"


APP_MODULES = ("tui/app.py", "tui/actions.py")
"""The app's own modules: the app and its base."""


def widget_lookups(found: list[tuple[str, str]]) -> str:
    """Modules of the TUI, outside widgets, screens and screen.py modules, looking a
    widget up (a hand-on in the app's own modules aside)."""
    looking: list[str] = []
    for name, text in found:
        if not name.startswith("tui/") or name.startswith(("tui/widgets/", "tui/screens/")):
            continue
        if name.endswith("/screen.py"):
            continue
        tree = ast.parse(text)
        handed = hands_on(tree) if name in APP_MODULES else set()
        calls = (
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in LOOKUPS
            and node not in handed
        )
        if next(calls, None) is not None:
            looking.append(name)
    return listed(looking)


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    arguments = function.args
    names = [one.arg for one in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return len(names) + (arguments.vararg is not None) + (arguments.kwarg is not None)


def many_parameters(found: list[tuple[str, str]]) -> list[str]:
    return [
        f"{name}:{node.name} ({parameters(node)})"
        for name, text in found
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and parameters(node) >= 8
    ]


def long_modules(found: list[tuple[str, str]]) -> list[str]:
    return [
        f"{name} ({len(text.splitlines())})" for name, text in found if len(text.splitlines()) > 400
    ]


def twins(found: list[tuple[str, str]]) -> list[str]:
    where: dict[str, list[str]] = defaultdict(list)
    for name, text in found:
        for node in ast.parse(text).body:
            defined: list[str] = []
            if isinstance(node, ast.ClassDef):
                defined = [node.name]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined = [t.id for t in targets if isinstance(t, ast.Name)]
            for one in defined:
                if one[:1].isupper() and not one.isupper():
                    where[one].append(name)
    return sorted(f"{one} x{len(paths)}" for one, paths in where.items() if len(paths) > 1)


def collect_seconds(tree: Path) -> float:
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q"]
    return command_seconds_in(tree, command, environment)


def command_seconds_in(tree: Path, command: list[str], environment: dict[str, str]) -> float:
    here = Path.cwd()
    os.chdir(tree)
    try:
        return command_seconds(command, environment)
    finally:
        os.chdir(here)


def listed(items: list[str]) -> str:
    return f"{len(items)}" + (f": {', '.join(items)}" if items else "")


def report(tree: Path, collect: int) -> None:
    found = modules(tree)
    sys.path.insert(0, str(tree))
    for name in [name for name in sys.modules if name == "siftui" or name.startswith("siftui.")]:
        del sys.modules[name]
    commit = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    print(f"== {tree} ({commit or 'no git'}), load {load()}")
    rows: list[tuple[str, Callable[[], Any]]] = [
        ("kind tests outside the entries", lambda: kind_tests(tree)),
        ("tool names outside their entry", lambda: tool_names(tree)),
        ("name-keyed tables", lambda: name_keyed_tables(found)),
        ("controller modules looking up widgets", lambda: widget_lookups(found)),
        ("functions of 8+ parameters", lambda: listed(many_parameters(found))),
        ("modules over 400 lines", lambda: listed(long_modules(found))),
        ("twin class names", lambda: listed(twins(found))),
        ("README.md lines", lambda: len((tree / "README.md").read_text().splitlines())),
    ]
    for label, figure in rows:
        print(f"{label}: {figure()}")
    for number in range(collect):
        print(f"pytest --collect-only -q, run {number + 1}: {collect_seconds(tree):.1f} s")
    sys.path.remove(str(tree))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_tree_option(parser)
    parser.add_argument("--collect", type=int, default=2, help="collection runs to time")
    args = parser.parse_args()
    for tree in trees(args):
        report(tree, args.collect)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
