# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Property: any sequence of writes, undos and redos leaves the draft equal to the
file's bytes with the surviving transactions replayed on them (and each change that
succeeds is one revision)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.editing import Editing, make_lines_pdf, open_editing

from siftui.core.edit.tools_annotations import (
    Create,
    Update,
    annotation_create,
    annotation_delete,
    annotation_update,
)
from siftui.core.evidence.errors import EvidenceError
from siftui.sources.edit.apply import apply_operation
from siftui.sources.edit.scan import page_annotations

WORDS = ("Alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota")

action = st.one_of(
    st.tuples(
        st.just("create"),
        st.integers(1, 2),
        st.sampled_from(WORDS),
        st.sampled_from(["Highlight", "Underline"]),
    ),
    st.tuples(st.just("region"), st.integers(1, 2), st.integers(0, 3)),
    st.tuples(st.just("update"), st.integers(0, 5), st.sampled_from(["#ff0000", "#00ff00"])),
    st.tuples(st.just("delete"), st.integers(0, 5)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("redo")),
)


def replayed(editing: Editing) -> list[tuple[object, ...]]:
    with pymupdf.open(stream=editing.copy.data, filetype="pdf") as document:
        for transaction in editing.copy.transactions:
            for operation in transaction.operations:
                apply_operation(document, operation)
        return shown([a for page in range(1, 3) for a in page_annotations(document, page)])


def shown(annotations: list) -> list[tuple[object, ...]]:  # type: ignore[type-arg]
    return [(a.annotation_id, a.page, a.subtype, a.color, a.comment, a.quads,
             a.rect if a.subtype == "Text" else None) for a in annotations]  # fmt: skip


def run(editing: Editing, step: tuple[Any, ...]) -> None:
    copy, session = editing.copy, editing.session
    revision = copy.revision
    try:
        if step[0] == "create":
            _, page, word, subtype = step
            reference = {"kind": "reference", "refId": editing.ref(int(page), str(word))}
            annotation_create(session, copy, "doc-1", Create(revision, str(subtype), reference))
        elif step[0] == "region":
            _, page, slot = step
            left = 50 + 60 * int(slot)
            region = {"kind": "pdf-region", "page": page, "rectPdf": [left, 500, left + 30, 530]}
            annotation_create(session, copy, "doc-1", Create(revision, "Text", region))
        elif step[0] in ("update", "delete"):
            listed = copy.annotations()
            if not listed:
                return
            target = listed[int(step[1]) % len(listed)].annotation_id
            if step[0] == "update":
                annotation_update(
                    session, copy, "doc-1", Update(revision, target, color=str(step[2]))
                )
            else:
                annotation_delete(
                    session, copy, "doc-1", expected_revision=revision, annotation_id=target
                )
        elif step[0] == "undo":
            copy.undo()
        else:
            copy.redo()
    except EvidenceError as refused:  # overlaps, nothing to undo/redo: nothing changed
        assert copy.revision == revision, refused
        return
    # a reused annotation makes no revision; every other success makes one
    assert copy.revision in (revision, revision + 1)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_lines_pdf(tmp_path_factory.mktemp("replay") / "lines.pdf", pages=2)


def check_sequence(source: Path, drafts: Path, steps: list[tuple[Any, ...]]) -> None:
    editing = open_editing(source, drafts)
    for step in steps:
        run(editing, step)
        assert shown(editing.copy.annotations()) == replayed(editing)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(action, max_size=10))
def test_the_draft_is_the_replay_of_its_surviving_transactions(
    source: Path, tmp_path: Path, steps: list[tuple[Any, ...]]
) -> None:
    check_sequence(source, tmp_path / "drafts", steps)


@pytest.mark.slow  # every step replays all before it: a sequence costs its length squared
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(action, max_size=20))
def test_the_draft_is_the_replay_long(
    source: Path, tmp_path: Path, steps: list[tuple[Any, ...]]
) -> None:
    check_sequence(source, tmp_path / "drafts", steps)
