"""The rule for looking a widget up in the TUI, shared by the guard test
(tests/tui/test_one_channel.py) and the bench that counts the lookups
(bench/metrics.py): Textual's ways of finding a widget, and the lookups that only
hand the widget found a key or a message."""

from __future__ import annotations

import ast

LOOKUPS = frozenset(
    {
        "query",
        "query_one",
        "query_exactly_one",
        "query_children",
        "query_ancestor",
        "get_widget_by_id",
        "get_child_by_id",
        "get_child_by_type",
    }
)
"""Textual's ways of finding a widget from a node."""


def hands_on(tree: ast.Module) -> set[ast.Call]:
    """The lookups whose widget is only handed something: the lookup starts a chain of
    attributes and calls that is a statement of its own (``query_one(X).focus()``,
    ``query_one(X).field(name).focus()``), so nothing is read from the widget or written
    into it, and it is not kept. Textual gives a key or a message to the app; the widget
    that owns what it changes (the focus, which only a widget can take; the slider's
    place on its ladder; the replay list's cursor) acts on it."""
    handed: set[ast.Call] = set()
    for statement in ast.walk(tree):
        if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
            continue
        node: ast.expr = statement.value
        while isinstance(node, ast.Call | ast.Attribute):
            inner = node.func if isinstance(node, ast.Call) else node.value
            if (
                isinstance(inner, ast.Call)
                and isinstance(inner.func, ast.Attribute)
                and inner.func.attr in LOOKUPS
                and node is not statement.value
            ):
                handed.add(inner)
                break
            node = inner
    return handed
