"""The TUI's one channel, enforced: only the app and the widgets touch widgets, only the
app assigns its state.

Every module under siftui/tui/ is parsed. A *view class* is a class whose base is
a Textual App or Widget (a Screen is one), or another view class of siftui/tui
(``KeyActions``, the app's base, is the app too). Code outside the view classes is
helper code: the flows, the after-work, the models. Helper code never looks a
widget up (``query``, ``query_one``, ...): it returns values or posts messages,
and the app draws the widgets from its state. The app itself looks a widget up only
to hand it a key or a message (:func:`hands_on`): what a widget shows comes to it
bound to the app's state (data_bind), never written into it. Nothing outside the view classes
assigns an attribute of ``app`` or ``held`` (``self.app.x = ...``), and no
module but siftui/tui/app.py assigns the app's state (``request``, ``answer``,
...), in the app's own classes included.
"""

from __future__ import annotations

import ast
import importlib
from dataclasses import dataclass, field
from pathlib import Path

from support.widget_lookups import LOOKUPS, hands_on
from textual.app import App
from textual.widget import Widget

TUI = Path(__file__).resolve().parents[2] / "siftui" / "tui"
STATE = frozenset({"request", "answer", "opened", "ocr", "calls", "refused", "problem"})
HOLDERS = frozenset({"app", "held"})


@dataclass
class Module:
    path: Path
    tree: ast.Module
    imported: dict[str, str] = field(default_factory=dict)  # a name -> its module


def parse(root: Path) -> dict[str, Module]:
    """siftui/tui's modules (``root``: a siftui/tui folder) by dotted name."""
    modules: dict[str, Module] = {}
    for path in sorted(root.rglob("*.py")):
        parts = ("siftui", *path.relative_to(root.parent.parent).with_suffix("").parts[1:])
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        module = Module(path, ast.parse(path.read_text(encoding="utf-8")))
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    module.imported[alias.asname or alias.name] = node.module
        modules[name] = module
    return modules


def base_name(base: ast.expr) -> str:
    if isinstance(base, ast.Subscript):  # App[int], DataTable[str]
        base = base.value
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def view_classes(modules: dict[str, Module]) -> dict[str, set[str]]:
    """Each module's view classes (see the module docstring), found to a fixed point."""
    views: dict[str, set[str]] = {name: set() for name in modules}
    apps: dict[str, set[str]] = {name: set() for name in modules}

    def textual_kind(module: Module, name: str) -> str:
        source = module.imported.get(name, "")
        if not source.startswith("textual"):
            return ""
        found = getattr(importlib.import_module(source), name, None)
        if isinstance(found, type) and issubclass(found, App):
            return "app"
        return "view" if isinstance(found, type) and issubclass(found, Widget) else ""

    changed = True
    while changed:
        changed = False
        for name, module in modules.items():
            for node in ast.walk(module.tree):
                if not isinstance(node, ast.ClassDef) or node.name in views[name]:
                    continue
                for base in map(base_name, node.bases):
                    kind = textual_kind(module, base)
                    source = module.imported.get(base, name)
                    if not kind and base in views.get(source, set()):
                        kind = "app" if base in apps[source] else "view"
                    if kind:
                        views[name].add(node.name)
                        if kind == "app":
                            apps[name].add(node.name)
                        changed = True
                        break
    return {name: views[name] | {f"app:{each}" for each in apps[name]} for name in modules}


def holder(target: ast.expr) -> bool:
    """``app.x``, ``held.x``, ``self.app.x``: an attribute of the app's state's holder."""
    if not isinstance(target, ast.Attribute):
        return False
    owner = target.value
    if isinstance(owner, ast.Name):
        return owner.id in HOLDERS
    return isinstance(owner, ast.Attribute) and owner.attr in HOLDERS


def targets_of(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        found = [node.target]
    else:
        return []
    flat: list[ast.expr] = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        else:
            flat.append(target)
    return flat


def module_violations(name: str, module: Module, views: set[str], where: Path) -> list[str]:
    """The lookups in helper code, the app's lookups that hand nothing on, and the state
    writes of one module."""
    found: list[str] = []
    handed = hands_on(module.tree)
    stack: list[tuple[ast.AST, bool, bool]] = [(module.tree, False, False)]
    while stack:
        node, view, app_class = stack.pop()
        if isinstance(node, ast.ClassDef):
            view, app_class = node.name in views, f"app:{node.name}" in views
        line = getattr(node, "lineno", 0)
        call = node.func if isinstance(node, ast.Call) else None
        lookup = isinstance(call, ast.Attribute) and call.attr in LOOKUPS
        if lookup and not view:
            found.append(f"{where}:{line} looks up a widget")
        elif lookup and app_class and node not in handed:
            found.append(f"{where}:{line} the app reads or writes a widget")
        for target in targets_of(node):
            if not isinstance(target, ast.Attribute):
                continue
            mine = app_class and isinstance(target.value, ast.Name) and target.value.id == "self"
            helper_write = holder(target) and not view  # helper code writes the app's
            state = target.attr in STATE and name != "siftui.tui.app" and (mine or holder(target))
            if helper_write or state:
                found.append(f"{where}:{line} assigns {ast.unparse(target)}")
        stack.extend((child, view, app_class) for child in ast.iter_child_nodes(node))
    return found


def violations(root: Path = TUI) -> list[str]:
    """``file:line what`` of each widget lookup in helper code and each state write."""
    modules = parse(root)
    views = view_classes(modules)
    found: list[str] = []
    for name, module in modules.items():
        found += module_violations(name, module, views[name], module.path.relative_to(root))
    return sorted(
        found, key=lambda said: (said.split(":")[0], int(said.split(":")[1][:6].split()[0]))
    )


def test_only_the_app_and_the_widgets_touch_widgets_and_only_the_app_assigns_its_state() -> None:
    assert violations() == []


def test_the_guard_sees_a_lookup_and_a_write_in_helper_code(tmp_path: Path) -> None:
    """The check above fails when it should, and lets the app and the widgets be."""
    root = tmp_path / "siftui" / "tui"
    (root / "widgets").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "widgets" / "__init__.py").write_text("")
    (root / "widgets" / "line.py").write_text(
        "from textual.widgets import Static\n"
        "class Line(Static):\n"
        "    def on_mount(self):\n        self.query_one('#x').display = False\n"
    )
    (root / "base.py").write_text(
        "from textual.app import App\n"
        "class Base(App[int]):\n"
        "    def action_x(self):\n        self.query_one('#y').focus()\n"
        "        self.answer = None\n"
    )
    (root / "app.py").write_text(
        "from siftui.tui.base import Base\n"
        "class Sift(Base):\n    def f(self):\n        self.request = 1\n"
    )
    (root / "flow.py").write_text(
        "from siftui.tui.widgets.line import Line\n"
        "class Flow:\n"
        "    def step(self):\n"
        "        self.app.query_one(Line).update('x')\n"
        "        self.app.sub_title = 'x'\n"
        "        self.entry = 1\n"
        "def helper(app, held):\n    held.request = 2\n    app.query('#z')\n"
        "class Sub(Line):\n    def g(self):\n        self.query_one('#w')\n"
    )
    assert violations(root) == [
        "base.py:5 assigns self.answer",
        "flow.py:4 looks up a widget",
        "flow.py:5 assigns self.app.sub_title",
        "flow.py:8 assigns held.request",
        "flow.py:9 looks up a widget",
    ]


def test_the_guard_sees_the_app_read_or_write_a_widget(tmp_path: Path) -> None:
    """The app may hand a widget a key (a lookup whose result is only called), never
    read a widget's state or write into it: that comes bound to the app's state."""
    root = tmp_path / "siftui" / "tui"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "app.py").write_text(
        "from textual.app import App\n"
        "class Sift(App[int]):\n"
        "    def action_x(self):\n"
        "        self.query_one('#y').field('grep').focus()\n"
        "        self.query_one('#y').value = 1\n"
        "        row = self.query_one('#z').cursor_row\n"
        "        for line in self.query('#w'):\n"
        "            line.refused = 'x'\n"
    )
    assert violations(root) == [
        "app.py:5 the app reads or writes a widget",
        "app.py:6 the app reads or writes a widget",
        "app.py:7 the app reads or writes a widget",
    ]
