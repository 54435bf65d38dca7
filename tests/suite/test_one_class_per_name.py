"""One public class per name: no two modules of siftui define a
public class, or a module-level type alias spelt like one, of the same name. A
second meaning gets a name of its own; the same meaning is imported from its one
home."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import siftui

PACKAGE = Path(siftui.__file__).parent


def public_type_names(source: str) -> list[str]:
    """The public classes and CapWords aliases a module's top level defines."""
    names: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.extend(target.id for target in targets if isinstance(target, ast.Name))
    return [name for name in names if name[:1].isupper() and not name.isupper()]


def twins(root: Path) -> dict[str, list[str]]:
    """Each name defined by more than one module under ``root``, with those modules."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        for name in public_type_names(path.read_text(encoding="utf-8")):
            where[name].append(path.relative_to(root).as_posix())
    return {name: paths for name, paths in where.items() if len(paths) > 1}


def test_no_two_modules_define_a_public_class_of_one_name() -> None:
    assert twins(PACKAGE) == {}


def test_the_guard_finds_a_class_and_an_alias_of_one_name(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class Change:\n    pass\n_Private = 1\nLIMIT = 3\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("Change = tuple[int, int]\n_Private = 2\nLIMIT = 4\n")
    (tmp_path / "sub" / "c.py").write_text("from a import Change\n")
    assert twins(tmp_path) == {"Change": ["a.py", "sub/b.py"]}
