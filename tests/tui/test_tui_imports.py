"""The TUI's structure, enforced: its imports form a tree, and only the app sets its state.

Imports: every module under siftui/tui/ is parsed, and every import of another
module of siftui/tui/ counts: at the top, inside a function, and under ``if
TYPE_CHECKING:`` too (a helper typed against the app depends on the app's
shape as much as one that imports it to run; those annotation-only imports are
what tied the app and its helpers into one circle). ``from siftui.tui import
x`` counts as importing the module ``siftui.tui.x`` (and the package
``siftui.tui``); ``from siftui.tui.screens import HelpScreen`` as importing the
package ``siftui.tui.screens``. Any cycle among them fails.

State: the app's state (``request``, ``answer``, ``opened``, ``ocr``,
``calls``) is assigned only in siftui/tui/app.py. Anywhere else, an assignment
to ``app.<state>`` or ``<anything>.app.<state>`` (``self.app.request = ...``)
fails: the flows and helpers return values, and the app assigns them.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from support.pdfs import make_pdf

TUI = Path(__file__).resolve().parents[2] / "siftui" / "tui"
STATE = frozenset({"request", "answer", "opened", "ocr", "calls"})


def module_name(path: Path, root: Path) -> str:
    parts = ("siftui", *path.relative_to(root.parent.parent).with_suffix("").parts[1:])
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def tui_modules(root: Path = TUI) -> dict[str, Path]:
    """siftui/tui's modules by dotted name (``root``: a siftui/tui folder)."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def import_graph(root: Path = TUI) -> dict[str, set[str]]:
    """Each TUI module -> the TUI modules it imports (all of them: see the module docstring)."""
    modules = tui_modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
                continue
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {target for target in found if target in modules and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def state_writes(root: Path = TUI) -> list[str]:
    """``file:line`` of each assignment of the app's state outside app.py."""
    found: list[str] = []
    for name, path in tui_modules(root).items():
        if name == "siftui.tui.app":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            else:
                continue
            while targets:
                target = targets.pop()
                if isinstance(target, ast.Tuple | ast.List):
                    targets.extend(target.elts)
                elif isinstance(target, ast.Attribute) and target.attr in STATE:
                    owner = target.value
                    if (isinstance(owner, ast.Name) and owner.id == "app") or (
                        isinstance(owner, ast.Attribute) and owner.attr == "app"
                    ):
                        found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_the_tui_imports_form_a_tree() -> None:
    graph = import_graph()
    assert graph.get("siftui.tui.app")
    assert cycles(graph) == []


def test_only_the_app_assigns_its_state() -> None:
    assert state_writes() == []


def test_the_checks_see_a_cycle_and_a_write(tmp_path: Path) -> None:
    """The two checks above fail when they should."""
    root = tmp_path / "siftui" / "tui"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "a.py").write_text("from siftui.tui import b\n")
    (root / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from siftui.tui.d import D\n"
        "def f(app):\n    from siftui.tui.c import g\n    app.request = g()\n"
    )
    (root / "c.py").write_text("from .a import x\n")
    (root / "d.py").write_text(
        "from siftui.tui import b\nclass D:\n    def f(self):\n        self.app.ocr, y = True, 1\n"
    )
    # a -> b -> c (imported in a function) -> a; b -> d (for annotations) -> b
    assert cycles(import_graph(root)) == [
        ["siftui.tui.a", "siftui.tui.b", "siftui.tui.c", "siftui.tui.d"]
    ]
    assert state_writes(root) == ["b.py:6", "d.py:4"]


# What `siftui FILE` must not import before the first answer is painted: a cached
# document needs neither PyMuPDF nor a tokenizer (nor the agents table's TOML
# reader), and the dialogs, the evidence preview, the hidden-text inspection and
# the log's report are opened later.
NOT_AT_START = (
    "fitz",
    "pymupdf",
    "tiktoken",
    "lxml",
    "mcp",
    "textual.widgets._markdown",
    "tomllib",
    "siftui.sources.hidden.document",
    # The Word entry's implementation, loaded only when a Word document is asked (its
    # model and renderer too: a PDF's start creates none of their classes).
    "siftui.core.word.model",
    "siftui.core.word.render",
    "siftui.core.word.index",
    "siftui.core.word.grep",
    "siftui.core.word.layout",
    # Hidden-text findings: made by the scan, which runs after the first frame.
    "siftui.core.findings",
    "siftui.core.word.layout_rows",
    "siftui.core.word.layout_grep",
    "siftui.core.word.walk",
    "siftui.core.word.unreachable",
    "siftui.core.word.docjson",
    "siftui.sources.log.calllog",
    "siftui.sources.log.report",
    "siftui.tui.evidence.screen",
    # The tools' entries: the preview, the log and the replay ask them, after the start.
    "siftui.core.tools.entry",
    "siftui.tui.screens.help",
    "siftui.tui.screens.findings",
    "siftui.tui.screens.log_report",
    "siftui.tui.screens.walk",
    # Each imported when first used: a log replay's call list (a DataTable) and its
    # flow, the copy (pyperclip, ctypes), the grep (RE2), the tokenizers and the
    # after-work (once the first answer is painted), the other commands, the keys'
    # helper, the evidence flow.
    "siftui.tui.widgets.call_list",
    "textual.widgets._data_table",
    "pyperclip",
    "re2",
    "siftui.sources.tokens",
    "siftui.tui.background",
    "siftui.tui.hidden_flow",
    "siftui.tui.facts",  # what the after-work finds: frozen dataclasses, made after it
    "siftui.tui.steps",  # and the steps that start it
    "siftui.cli.documents",
    "siftui.cli.serving",
    "siftui.tui.key_actions",
    "siftui.tui.exporting",
    "siftui.tui.clipboard",
    "siftui.tui.replay_flow",
    "siftui.tui.evidence_rerun",
    "siftui.tui.evidence.flow",
    "siftui.tui.evidence.model",
    "siftui.core.agents",  # with the agents' table, loaded after the first frame
    # The walk and what no call reaches: the PDF entry imports them when one is asked
    # (the walk, the counter's unreachable line), after the first frame.
    "siftui.core.walk",
    "siftui.core.unreachable",
    # The first open's extraction process: only a document the disk cache misses.
    "siftui.sources.extract_process",
    "siftui.sources.lazy",  # a one-call Doc, for the CLI and the server
    "siftui.sources.deadline",  # a reading's deadline: a cache hit reads nothing
    "siftui.sources.cache_slot",  # the entry a reading fills: a cache hit fills none
)


def loaded_after(imports: tuple[str, ...], watched: tuple[str, ...]) -> list[str]:
    """Which of ``watched`` a fresh interpreter holds after importing ``imports``."""
    probe = (
        "import importlib, json, sys\n"
        f"for name in {list(imports)!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(set({list(watched)!r}) & set(sys.modules))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    found: list[str] = json.loads(done.stdout)
    return found


def test_starting_the_tui_imports_nothing_the_first_answer_does_not_need() -> None:
    start = ("siftui.cli", "siftui.cli.evidence_preview", "siftui.tui.launch", "siftui.tui.app")
    assert loaded_after(start, NOT_AT_START) == []


def test_the_start_probe_sees_a_late_import() -> None:
    """The probe itself works: what the screens import later shows up when imported."""
    later = ("siftui.tui.screens.help",)
    assert loaded_after(later, NOT_AT_START) == [
        "siftui.tui.screens.help",
        "textual.widgets._markdown",
    ]


# The app run until its first answer is painted (as `siftui FILE` on a file the disk
# cache holds, once the preload has finished), then every module it holds is printed.
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


def test_the_first_frame_imports_nothing_it_does_not_need(tmp_path: Path) -> None:
    """Stronger than the import probe: what composing, mounting and the first answer
    import counts too (a module imported in a watcher, a widget mounted at start)."""
    pdf = make_pdf(tmp_path / "a.pdf", ["first page", "second page"])
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    rendered = [sys.executable, "-m", "siftui", "render", str(pdf)]
    subprocess.run(rendered, capture_output=True, env=env, timeout=120, check=True)  # warm
    done = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(pdf)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = set(done.stdout.split())
    assert "siftui.tui.app" in imported and "textual.app" in imported
    assert sorted(imported.intersection(NOT_AT_START)) == []
