# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Hidden-text inspection in helper processes: chunks handed out ahead, and
the chunks of a helper that dies done in this process."""

from __future__ import annotations

import ast
import time
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from support.same_bytes import save_pdf

import siftui.sources.hidden.document as hidden_doc
from siftui.core.findings import Inspection
from siftui.sources.hidden.document import inspect_document
from siftui.sources.load_options import LoadOptions


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory, hidden_pdf_module: Path) -> Path:
    """88 pages (8 copies of the generated PDF): 6 chunks, several per helper."""
    path = tmp_path_factory.mktemp("many") / "many.pdf"
    with pymupdf.open() as document:
        for _ in range(8):
            with pymupdf.open(hidden_pdf_module) as part:
                document.insert_pdf(part)
        save_pdf(document, path)
    return path


@pytest.fixture(scope="module")
def hidden_pdf_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from support.hidden_pdfs import make_hidden_pdf

    return make_hidden_pdf(tmp_path_factory.mktemp("hidden") / "hidden.pdf")


def _slowed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """This process's pages take 20 ms longer (so that the helper, ~0.3 s to
    start, gets chunks): the list of the pages inspected here."""
    here: list[int] = []
    inspect = hidden_doc._inspect

    def slow(document: Any, number: int, path: Any, glyphs: Any) -> hidden_doc.PageFindings:
        here.append(number)
        time.sleep(0.02)
        return inspect(document, number, path, glyphs)

    monkeypatch.setattr(hidden_doc, "_inspect", slow)
    return here


def _parallel(path: Path, progress: list[tuple[int, int]]) -> Inspection:
    return inspect_document(
        path,
        # timeout: a helper never handed its second chunk would wait for ever
        LoadOptions(workers=2, parallel_min_pages=1, timeout=60),
        progress=lambda done, total: progress.append((done, total)),
    )


def test_progress_rises_to_the_page_count_with_a_helper(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = inspect_document(many, LoadOptions(workers=1))
    here = _slowed(monkeypatch)
    calls: list[tuple[int, int]] = []
    assert _parallel(many, calls) == serial
    assert 0 < len(here) < 88 and len(set(here)) == len(here)  # the helper did some
    dones = [done for done, _ in calls]
    assert dones == sorted(dones) and calls[-1] == (88, 88)


def test_a_helper_that_dies_with_chunks_in_hand_leaves_them_here(
    many: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The helper says it is ready, takes the two chunks it is handed ((start, end) each),
    # notes their starts in a file and dies.
    taken = tmp_path / "taken"
    code = (
        "import os, socket, sys; from siftui.sources.helper import receive, send; "
        "c = socket.socket(fileno=int(sys.argv[1])); receive(c); send(c, ('ready',)); "
        f"starts = [receive(c)[0], receive(c)[0]]; open({str(taken)!r}, 'w').write(repr(starts)); "
        "os._exit(3)"
    )
    monkeypatch.setattr(hidden_doc, "_HELPER_CODE", code)
    serial = inspect_document(many, LoadOptions(workers=1))
    here = _slowed(monkeypatch)
    calls: list[tuple[int, int]] = []
    assert _parallel(many, calls) == serial
    starts = ast.literal_eval(taken.read_text())
    assert len(starts) == 2 and all(start >= 0 for start in starts)
    assert sorted(here) == list(range(88))  # its chunks were done here
    assert calls[-1] == (88, 88)


def test_an_inspection_under_way_never_shows_its_password() -> None:
    from siftui.sources.deadline import Deadline
    from siftui.sources.hidden.glyphs import GlyphCheck

    inspecting = hidden_doc._Inspecting(
        None, "a.pdf", "s3cret-pass", GlyphCheck(), Deadline.start("a.pdf", None), None
    )
    assert "s3cret-pass" not in repr(inspecting)
    assert inspecting.password == "s3cret-pass"
