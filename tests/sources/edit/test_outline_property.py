# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Property: random E16 operation lists on random outlines give what a small model of
the tree says (nested lists, written here apart from siftui's own tree): the same
refusal, or the same ids added and the same outline, as E11 lists it, as MuPDF
reads the draft's objects and as it reads the saved file; an undo gives back the
outline before the edit."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.editing import open_editing

from siftui.core.edit.tools_outline import bookmark_edit, bookmark_list
from siftui.core.evidence.errors import EvidenceError

PAGES = 3
_runs = itertools.count()


@dataclass
class Node:
    outline_id: str
    title: str
    page: int | None
    children: list[Node] = field(default_factory=list)


class Model:
    """The outline as nested lists; ``apply`` checks and applies one call's operations."""

    def __init__(self, toc: list[tuple[int, str, int]]) -> None:
        self.top: list[Node] = []
        path: list[Node] = []
        for number, (level, title, page) in enumerate(toc, 1):
            node = Node(f"ol-{number}", title, page)
            del path[level - 1 :]
            (path[-1].children if path else self.top).append(node)
            path.append(node)
        self.given = len(toc)

    def rows(self) -> list[tuple[str, int, str, int | None]]:
        found: list[tuple[str, int, str, int | None]] = []

        def walk(nodes: list[Node], level: int) -> None:
            for node in nodes:
                found.append((node.outline_id, level, node.title, node.page))
                walk(node.children, level + 1)

        walk(self.top, 1)
        return found

    def _find(self, outline_id: str) -> tuple[Node, list[Node]] | None:
        pending = [self.top]
        while pending:
            siblings = pending.pop()
            for node in siblings:
                if node.outline_id == outline_id:
                    return node, siblings
                pending.append(node.children)
        return None

    def _inside(self, node: Node, outline_id: str) -> bool:
        return node.outline_id == outline_id or any(
            self._inside(child, outline_id) for child in node.children
        )

    def apply_one(self, number: int, op: dict[str, Any]) -> str | None:
        """The refusal of ``op`` (the ``number``-th), or None when it was applied."""

        def known(outline_id: str) -> Node | str:
            found = self._find(outline_id)
            return found[0] if found else f'operation {number}: unknown outlineId "{outline_id}"'

        def place(parent_id: str | None) -> list[Node] | str:
            if parent_id is None:
                return self.top
            parent = known(parent_id)
            return parent if isinstance(parent, str) else parent.children

        def page_ok(page: int) -> str | None:
            return None if 1 <= page <= PAGES else f"operation {number}: page out of range (1-3)"

        if op["op"] == "outline-add":
            if refused := page_ok(op["page"]):
                return refused
            siblings = place(op.get("parentId"))
            if isinstance(siblings, str):
                return siblings
            index = op.get("index", len(siblings))
            if not 0 <= index <= len(siblings):
                return f"operation {number}: index out of range (0-{len(siblings)})"
            self.given += 1
            siblings.insert(index, Node(f"ol-{self.given}", op["title"], op["page"]))
            return None
        node = known(op["outlineId"])
        if isinstance(node, str):
            return node
        if op["op"] == "outline-update":
            if "page" in op and (refused := page_ok(op["page"])):
                return refused
            node.title = op.get("title", node.title)
            node.page = op.get("page", node.page)
            return None
        found = self._find(node.outline_id)
        assert found is not None
        if op["op"] == "outline-delete":
            found[1].remove(node)
            return None
        siblings = place(op.get("parentId"))
        if isinstance(siblings, str):
            return siblings
        parent_id = op.get("parentId")
        if parent_id is not None and self._inside(node, parent_id):
            return f"operation {number}: cannot move {node.outline_id} into itself"
        most = len(siblings) - (1 if node in siblings else 0)
        if not 0 <= op["index"] <= most:
            return f"operation {number}: index out of range (0-{most})"
        found[1].remove(node)
        siblings.insert(op["index"], node)
        return None


def model_apply(model: Model, ops: list[dict[str, Any]]) -> tuple[Model, str | None]:
    import copy

    trial = copy.deepcopy(model)
    for number, op in enumerate(ops, 1):
        refused = trial.apply_one(number, op)
        if refused is not None:
            return model, refused
    return trial, None


ids = st.integers(1, 9).map(lambda n: f"ol-{n}")  # some unknown, some added later
titles = st.text(alphabet="abcXé€ ", min_size=1, max_size=5)
pages = st.sampled_from([1, 2, 3, 1, 2, 3, 0, 4])  # mostly in range
indices = st.sampled_from([0, 1, 2, 0, 1, 2, 3, 4, -1])


def _given(**keys: Any) -> dict[str, Any]:
    return {key: value for key, value in keys.items() if value is not None}


operation = st.one_of(
    st.builds(
        lambda t, p, parent, i: _given(op="outline-add", title=t, page=p, parentId=parent, index=i),
        titles, pages, st.none() | ids, st.none() | indices,
    ),
    st.builds(
        lambda o, t, p: _given(op="outline-update", outlineId=o, title=t, page=p),
        ids, titles, st.none() | pages,
    ),
    st.builds(
        lambda o, p: _given(op="outline-update", outlineId=o, page=p), ids, pages
    ),
    st.builds(lambda o: {"op": "outline-delete", "outlineId": o}, ids),
    st.builds(
        lambda o, parent, i: _given(op="outline-move", outlineId=o, parentId=parent, index=i),
        ids, st.none() | ids, indices,
    ),
)  # fmt: skip


@st.composite
def outlines(draw: st.DrawFn, most: int) -> tuple[list[tuple[int, str, int]], int]:
    """A table of contents (levels that nest) and the level past which items start
    closed (PyMuPDF's ``collapse``)."""
    count = draw(st.integers(0, most))
    toc: list[tuple[int, str, int]] = []
    for number in range(count):
        level = draw(st.integers(1, min(3, toc[-1][0] + 1))) if toc else 1
        toc.append((level, f"Item {number + 1}", draw(st.integers(1, PAGES))))
    return toc, draw(st.integers(1, 3))


def check(folder: Path, outline: tuple[list[tuple[int, str, int]], int], edits: Any) -> None:
    toc, collapse = outline
    run = folder / f"run-{next(_runs)}"
    run.mkdir()
    document = pymupdf.open()
    for _ in range(PAGES):
        document.new_page()
    document.set_toc(toc, collapse=collapse)
    source = run / "outlined.pdf"
    document.save(source)
    editing = open_editing(source, run / "drafts")
    copy, session = editing.copy, editing.session
    model = Model(toc)
    history = [model.rows()]
    for ops in edits:
        revision = copy.revision
        wanted, refused = model_apply(model, ops)
        try:
            result = bookmark_edit(
                session, copy, "doc-1", expected_revision=revision, operations=ops
            )
        except EvidenceError as error:
            assert error.message == refused
            assert copy.revision == revision
        else:
            assert refused is None
            assert result["added"] == [f"ol-{n}" for n in range(model.given + 1, wanted.given + 1)]
            assert result["total"] == len(wanted.rows())
            model = wanted
            history.append(model.rows())
        check_outline(editing, model.rows())
    if len(history) > 1:
        copy.undo()
        check_outline(editing, history[-2])
        copy.redo()
        copy.save(copy.revision)
        with pymupdf.open(source) as written:
            assert toc_rows(written) == [row[1:] for row in model.rows()]


def toc_rows(document: Any) -> list[tuple[int, str, int | None]]:
    return [
        (level, title, page if page >= 1 else None) for level, title, page in document.get_toc()
    ]


def check_outline(editing: Any, rows: list[tuple[str, int, str, int | None]]) -> None:
    listed = bookmark_list(editing.session, editing.copy, "doc-1", limit=500)
    items = listed["items"]
    assert isinstance(items, list)
    collapsed = [(oid, level, " ".join(title.split()), page) for oid, level, title, page in rows]
    assert [(i["outlineId"], i["level"], i["title"], i["page"]) for i in items] == collapsed
    with editing.copy.reading() as document:
        assert toc_rows(document) == [row[1:] for row in rows]


edits = st.lists(st.lists(operation, min_size=1, max_size=4), min_size=1, max_size=3)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(outline=outlines(6), edits=edits)
def test_operations_on_an_outline_do_what_the_model_says(
    tmp_path: Path, outline: Any, edits: Any
) -> None:
    check(tmp_path, outline, edits)


@pytest.mark.slow
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    outline=outlines(12),
    edits=st.lists(st.lists(operation, min_size=1, max_size=12), min_size=1, max_size=6),
)
def test_operations_on_an_outline_do_what_the_model_says_long(
    tmp_path: Path, outline: Any, edits: Any
) -> None:
    check(tmp_path, outline, edits)
