"""The layers of docs/ARCHITECTURE.md, enforced: who may import whom.

Every module under siftui/ is parsed (imports inside functions count too, so
a lazy import cannot hide) and put in its layer by its folder: ``siftui/core/``,
``siftui/sources/``, the surfaces ``siftui/cli/``, ``siftui/tui/``,
``siftui/serve/``, and the package's front door (``siftui/__init__.py``,
``__main__.py`` and the modules that re-export the public names of docs/SPEC.md). A
fresh interpreter then checks what the core and the CLI really load when
imported.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "siftui"

FOLDERS = ("core", "sources", "cli", "tui", "serve")
# The package's front door: the version, `python -m siftui`, and docs/SPEC.md's names.
FRONT = {"siftui", "siftui.__main__", "siftui.doc", "siftui.render", "siftui.extract"}
CORE_THIRD_PARTY = {"re2"}
# Document libraries (PyMuPDF; python-docx and lxml for Word): only sources read documents.
DOCUMENT_LIBRARIES = {"pymupdf", "fitz", "docx", "lxml"}
TUI_TOOLKIT = {"textual", "rich"}
MCP_SDK = {"mcp", "anyio"}
# What `import siftui.cli` must not load: each belongs to one command.
CLI_LAZY = {"textual", "rich", "mcp", "anyio", "tiktoken", "pymupdf", "fitz"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it, as absolute dotted names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # `from siftui import cache` imports the module siftui.sources.cache
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def layer(name: str) -> str:
    if name in FRONT:
        return "front"
    parts = name.split(".")
    if len(parts) >= 2 and parts[1] in FOLDERS:
        return parts[1]
    raise AssertionError(f"{name} is in no layer's folder (siftui/{{{','.join(FOLDERS)}}}/)")


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
SIFTUI_MODULES = set(MODULES)


def own_imports(name: str) -> set[str]:
    """The siftui modules ``name`` imports (names that are attributes are dropped).

    The package itself (``from siftui import __version__``) is left out: every layer
    may read the version, and siftui/__init__.py imports nothing.
    """
    found = {target for target in imports_of(MODULES[name]) if target in SIFTUI_MODULES}
    return found - {name, "siftui"}


def top_levels(name: str) -> set[str]:
    """The top-level packages outside siftui that ``name`` imports."""
    return {target.split(".")[0] for target in imports_of(MODULES[name])} - {"siftui", ""}


def by_layer(*layers: str) -> list[str]:
    return sorted(name for name in MODULES if layer(name) in layers)


def test_every_layer_is_found() -> None:
    """The walk above sees the package: each layer has the modules it must have."""
    assert {"siftui.core.render", "siftui.core.doc", "siftui.core.grep"} <= set(by_layer("core"))
    assert {"siftui.sources.extract", "siftui.sources.load", "siftui.sources.cache"} <= set(
        by_layer("sources")
    )
    assert "siftui.cli" in by_layer("cli")
    assert any(name.startswith("siftui.tui.") for name in by_layer("tui"))
    assert "siftui.serve.mcp_server" in by_layer("serve")
    assert set(by_layer("front")) == FRONT


def test_the_package_itself_imports_nothing() -> None:
    assert not imports_of(MODULES["siftui"]) - {"__future__"}


def test_every_module_is_in_a_folder_of_its_layer() -> None:
    """Nothing but the front door lives at the top: a new module is put in a layer's folder."""
    for name in MODULES:
        layer(name)  # raises for a module outside the layers' folders


@pytest.mark.parametrize("name", sorted(FRONT - {"siftui", "siftui.__main__"}))
def test_front_modules_only_re_export(name: str) -> None:
    """siftui.doc, siftui.render, siftui.extract hold no code of their own: names only."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    kinds = {type(node) for node in tree.body} - {ast.Expr, ast.ImportFrom, ast.Assign}
    assert not kinds, f"{name} holds {sorted(kind.__name__ for kind in kinds)}"


def test_imports_are_read_from_every_place() -> None:
    """The parser sees imports inside functions and resolves `from siftui import x`."""
    assert "siftui.tui.launch" in own_imports("siftui.cli")  # imported inside a function
    assert "siftui.core.doc" in own_imports("siftui.core.render")
    assert "pymupdf" in top_levels("siftui.sources.pdf_open")


@pytest.mark.parametrize("name", by_layer("core"))
def test_core_imports_only_the_core(name: str) -> None:
    outside = {target for target in own_imports(name) if layer(target) != "core"}
    assert not outside, f"{name} (core) imports {sorted(outside)}"
    allowed = set(sys.stdlib_module_names) | CORE_THIRD_PARTY | {"__future__"}
    foreign = top_levels(name) - allowed
    assert not foreign, f"{name} (core) imports {sorted(foreign)}"


@pytest.mark.parametrize("name", by_layer("sources"))
def test_sources_import_no_surface(name: str) -> None:
    surfaces = {target for target in own_imports(name) if layer(target) not in ("core", "sources")}
    assert not surfaces, f"{name} (a source) imports {sorted(surfaces)}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_library_stays_in_its_layer(name: str) -> None:
    libraries = top_levels(name)
    if layer(name) != "sources":
        assert not libraries & DOCUMENT_LIBRARIES, f"{name} imports a document library"
    if layer(name) != "tui":
        assert not libraries & TUI_TOOLKIT, f"{name} imports Textual or Rich: only siftui/tui may"
    if layer(name) != "serve":
        assert not libraries & MCP_SDK, f"{name} imports the MCP SDK: only siftui/serve may"


@pytest.mark.parametrize("name", by_layer("tui", "serve"))
def test_surfaces_do_not_reach_into_each_other(name: str) -> None:
    allowed = {"core", "sources", layer(name)}
    crossing = {target for target in own_imports(name) if layer(target) not in allowed}
    assert not crossing, f"{name} ({layer(name)}) imports {sorted(crossing)}"


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


def test_core_and_cli_load_no_heavy_library() -> None:
    """What really loads: the core nothing outside it; the CLI's start nothing a command owns."""
    core = set(by_layer("core"))
    modules = modules_after(sorted(core))
    assert modules >= core
    loaded = {name.split(".")[0] for name in modules}
    assert not loaded & (DOCUMENT_LIBRARIES | TUI_TOOLKIT | MCP_SDK | {"tiktoken"})
    cli = {name.split(".")[0] for name in modules_after(["siftui.cli"])}
    assert not cli & CLI_LAZY, f"importing siftui.cli loads {sorted(cli & CLI_LAZY)}"


def test_probe_sees_an_import() -> None:
    """The probe itself works: an imported package shows up."""
    assert "textual" in modules_after(["textual"])


KIND_TYPES = {"Doc", "DocxDoc", "Options", "DocxOptions"}
KIND_TABLE = {"siftui.core.kinds", "siftui.sources.kinds"}


def _kind_tests(tree: ast.AST) -> list[int]:
    """Lines of ``isinstance(x, <a document or options type>)`` in a module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
            kinds = node.args[1] if len(node.args) == 2 else None
            names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
            if any(getattr(name, "id", "") in KIND_TYPES for name in names):
                found.append(node.lineno)
    return found


def test_only_the_kind_table_tests_the_kind() -> None:
    """A document's kind is asked of the table (kind_of, PDF.doc, WORD.options ...)."""
    found = {
        name: lines
        for name, path in MODULES.items()
        if name not in KIND_TABLE
        and (lines := _kind_tests(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not found, f"kind tests outside the table: {found}"
    sample = ast.parse("isinstance(doc, DocxDoc)\nisinstance(x, (int, Options))\n")
    assert _kind_tests(sample) == [1, 2]
