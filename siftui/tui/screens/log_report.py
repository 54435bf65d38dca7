"""The replay's report: how the agent used the tool, per document, with call numbers.

Enter on a finding dismisses with its first call and the replay jumps there;
Space opens a finding's calls, one leaf each, for any other of them. Escape or r
closes.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from siftui.core.terminal import escape_controls
from siftui.tui.report_model import Node
from siftui.tui.screens.styles import DIALOG_CSS
from siftui.tui.screens.title import dialog_title


class LogReportScreen(ModalScreen[int | None]):
    """The report as a tree; every node with a call number jumps the replay to it."""

    CSS_PATH = DIALOG_CSS

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,r", "close", "Close")]

    def __init__(self, summary: str, tree: tuple[Node, ...]) -> None:
        super().__init__()
        self._summary = summary
        self._tree = tree

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog walk"):
            summary = f"How the agent used the tool: {self._summary}"
            yield dialog_title(summary)
            tree: Tree[int | None] = Tree("report", id="report-tree")
            tree.show_root = False
            tree.auto_expand = False  # Enter jumps; Space opens and closes a group
            yield tree
            yield Static(
                "Enter jumps the replay to the call (a finding: its first) · "
                "Space opens a finding's calls · Escape closes",
                classes="hint",
            )

    def on_mount(self) -> None:
        tree: Tree[int | None] = self.query_one("#report-tree", Tree)
        for node in self._tree:
            self._add(tree.root, node)
        tree.root.expand()
        tree.focus()

    def _add(self, parent: TreeNode[int | None], node: Node) -> None:
        # A pattern or a note is text, never markup, and a crafted log's ESC is shown.
        label = Text(escape_controls(node.label))
        prefix = f"call {node.call}"
        if node.call is not None and node.label.startswith(prefix):
            label.stylize("bold", 0, len(prefix))
        if not node.children:
            parent.add_leaf(label, data=node.call)
            return
        # Documents and sections open; a finding's call leaves wait for Space (its own
        # label already names its calls, and Enter on it goes to the first).
        grouping = any(child.children for child in node.children) or node.call is None
        branch = parent.add(label, data=node.call, expand=grouping)
        for child in node.children:
            self._add(branch, child)

    def on_tree_node_selected(self, event: Tree.NodeSelected[int | None]) -> None:
        event.stop()
        if event.node.data is not None:
            self.dismiss(event.node.data)
        elif event.node.allow_expand:
            event.node.toggle()

    def action_close(self) -> None:
        self.dismiss(None)
