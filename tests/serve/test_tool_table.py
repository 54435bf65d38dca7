"""The tool table: every served tool is one entry (schema, handler, family), the
server lists and dispatches through it, and the calls are checked by the one
argument checker."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from support.mcp_wire import Wire
from support.pdfs import make_pdf

import siftui.serve
from siftui.core.arguments import check_schema
from siftui.core.evidence.schemas import SCHEMAS
from siftui.core.tools import edit
from siftui.serve.access import Roots
from siftui.serve.edit.tools import EXTENDED_TOOLS
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import ServedOptions
from siftui.serve.tools import FAMILIES, FAMILY_NAMES, TOOLS, UnknownFamily, selected

SERVE = Path(siftui.serve.__file__).parent


def test_every_entry_is_whole_and_published_as_standard_json_schema() -> None:
    names = [tool.name for tool in TOOLS]
    assert names[:2] == ["read_pdf", "read_docx"]
    assert names[2 : 2 + len(SCHEMAS)] == list(SCHEMAS)  # E1-E11, in their page's order
    assert names[2 + len(SCHEMAS) :] == [entry.name for entry in edit.EDIT_TOOLS]
    assert len(set(names)) == len(names)
    for tool in TOOLS:
        assert tool.family in FAMILY_NAMES
        check_schema(tool.input_schema, tool.messages)
        assert tool.input_schema["additionalProperties"] is False
    assert FAMILY_NAMES == ("read", "evidence", "edit")
    assert all(family.instructions for family in FAMILIES)


def test_families_select_their_tools() -> None:
    families, tools = selected({"read"})
    assert [family.name for family in families] == ["read"]
    assert tools == TOOLS[:2]
    families, tools = selected({"evidence", "read"})
    assert [family.name for family in families] == ["read", "evidence"]
    assert tools == TOOLS[: 2 + len(SCHEMAS)]
    families, tools = selected({"edit", "evidence", "read"})
    assert [family.name for family in families] == ["read", "evidence", "edit"]
    assert [tool.name for tool in tools] == [tool.name for tool in TOOLS]
    # The edit family serves the evidence family's status and current in their place.
    replaced = [old.name for old, new in zip(TOOLS, tools, strict=True) if old is not new]
    assert sorted(replaced) == sorted(tool.name for tool in EXTENDED_TOOLS)
    assert all(tool.entry.family == "evidence" for tool in EXTENDED_TOOLS)
    with pytest.raises(
        UnknownFamily, match=r'unknown tool family "write" \(families: read, evidence, edit\)'
    ):
        selected({"read", "write"})
    with pytest.raises(UnknownFamily, match="no tool family"):
        selected(set())


def _names_compared(tree: ast.AST) -> list[str]:
    """String constants a module compares something with (``x == "read_pdf"``, ``in (...)``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for part in (node.left, *node.comparators):
                for leaf in ast.walk(part):
                    if isinstance(leaf, ast.Constant) and isinstance(leaf.value, str):
                        found.append(leaf.value)
    return found


def test_no_module_of_the_server_branches_on_a_tool_name() -> None:
    names = {tool.name for tool in TOOLS}
    for path in sorted(SERVE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not names & set(_names_compared(tree)), path.name


def test_the_server_imports_no_private_module_of_the_sdk() -> None:
    for path in sorted(SERVE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            for module in modules:
                parts = module.split(".")
                if parts[0] in ("mcp", "mcp_types"):
                    assert not any(part.startswith("_") for part in parts), (path.name, module)


def test_read_tools_take_null_as_absent_and_whole_floats(tmp_path: Path) -> None:
    """As they always did: an optional key given as null is left out, window 2.0 is 2."""
    make_pdf(tmp_path / "a.pdf", ["alpha", "beta"])
    host = ToolHost(Roots([tmp_path]), ServedOptions(out_cap=1000))
    try:
        plain = host.call({"path": "a.pdf"})
        assert plain.rendered is not None
        assert host.call({"path": "a.pdf", "pages": None, "grep": None}) == plain
        assert host.call({"path": None}).message == 'argument "path" must be a string'
        answer = host.call({"path": "a.pdf", "pages": 2.0})
        assert answer.message == 'argument "pages" must be a string'
        refused = host.call({"path": "a.docx", "window": 2.5}, "read_docx")
        assert refused.message == 'argument "window" must be an integer'
        whole = host.call({"path": "a.docx", "window": 2.0, "anchor": "P1#0000"}, "read_docx")
        assert "window" not in whole.message and "a.docx" in whole.message  # past the check
    finally:
        host.shutdown()


def test_argument_errors_in_the_checkers_words(tmp_path: Path) -> None:
    host = ToolHost(Roots([tmp_path]))
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("read_pdf", {}, 'missing argument "path"'),
        (
            "read_pdf",
            {"path": "a", "zz": 1, "aa": 2},
            'unknown argument "zz" (read_pdf takes path, pages, grep)',
        ),
        ("read_pdf", {"path": 1}, 'argument "path" must be a string'),
        ("read_docx", {"path": "a", "window": "3"}, 'argument "window" must be an integer'),
        ("read_docx", {"path": "a", "window": True}, 'argument "window" must be an integer'),
        (
            "read_docx",
            {"path": "a", "scope": "s" * 101},
            'invalid scope "' + "s" * 40 + '… (101 characters)": at most 100 characters',
        ),
        (
            "read_pdf",
            {"path": "a", "pages": "1" * 101},
            'invalid pages "'
            + "1" * 40
            + '… (101 characters)": use "a-b", "a" or "a-" (at most 100 characters)',
        ),
    ]
    try:
        for tool, arguments, message in cases:
            assert host.call(arguments, tool).message == message, (tool, arguments)
    finally:
        host.shutdown()


def test_tools_option_selects_families(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["a"])
    with Wire(["--root", tmp_path, "--tools", " read,read "], tmp_path / "stderr") as wire:
        listed = wire.request("tools/list", {})
        assert listed is not None
        assert [tool["name"] for tool in listed["result"]["tools"]] == ["read_pdf", "read_docx"]
