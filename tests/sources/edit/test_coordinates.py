# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Highlights land on their text on rotated pages and pages whose MediaBox does not
start at 0,0: the file's quads, read back after a save, cover the reference's text."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest
from support.editing import (
    CORPUS_EDIT,
    make_lines_pdf,
    open_editing,
    text_under_quads,
    without_space,
)

from siftui.core.edit.tools_annotations import Create, annotation_create


def highlight_and_save(path: Path, drafts: Path, page: int, text: str) -> str:
    editing = open_editing(path, drafts)
    ref_id = editing.ref(page, text)
    result = annotation_create(
        editing.session, editing.copy, "doc-1",
        Create(0, "Highlight", {"kind": "reference", "refId": ref_id}),
    )  # fmt: skip
    annotations = result["annotations"]
    assert isinstance(annotations, list)
    editing.copy.save(1)
    return str(annotations[0]["annotationId"])


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("origin", [(0, 0), (-40.5, 120)])
def test_made_pages(tmp_path: Path, rotation: int, origin: tuple[float, float]) -> None:
    path = make_lines_pdf(tmp_path / "made.pdf", pages=1, rotation=rotation, origin=origin)
    with pymupdf.open(path) as document:
        assert document[0].rotation == rotation
        assert tuple(document[0].mediabox)[:2] == origin
    name = highlight_and_save(path, tmp_path / "drafts", 1, "epsilon zeta 1\neta")
    assert text_under_quads(path, name) == "epsilonzeta1eta"


def _first_words(path: Path) -> str:
    with pymupdf.open(path) as document:
        text = str(document[0].get_text())
    line = next(line for line in text.split("\n") if len(line.strip()) >= 8)
    return line.strip()[:8]


@pytest.mark.parametrize("name", ["issue14415.pdf", "Brotli-Prototype-FileA.pdf", "160F-2019.pdf"])
def test_corpus_pages(tmp_path: Path, name: str) -> None:
    """Rotated by 180 and 270, a MediaBox from (-11.96, 11.99), a page with highlights."""
    if not (CORPUS_EDIT / name).is_file():
        pytest.skip(f"{CORPUS_EDIT / name} is missing")
    path = tmp_path / name
    path.write_bytes((CORPUS_EDIT / name).read_bytes())
    words = _first_words(path)
    annotation_id = highlight_and_save(path, tmp_path / "drafts", 1, words)
    assert text_under_quads(path, annotation_id) == without_space(words)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
@pytest.mark.parametrize("origin", [(0, 0), (-40.5, 120)])
def test_poppler_reads_the_refs_text_under_each_quad(
    tmp_path: Path, origin: tuple[float, float]
) -> None:
    """Poppler's text in each quad's box (its crop area counts from the page's top left)
    is the ref's text of that line."""
    path = make_lines_pdf(tmp_path / "made.pdf", pages=1, origin=origin)
    name = highlight_and_save(path, tmp_path / "drafts", 1, "zeta 1\neta theta")
    with pymupdf.open(path) as document:
        (annotation,) = [a for a in document[0].annots() if a.info["id"] == name]
        quads = document.xref_get_key(annotation.xref, "QuadPoints")[1]
    numbers = [float(n) for n in quads.strip("[]").split()]
    left, top = origin[0], origin[1] + 792
    found = []
    for start in range(0, len(numbers), 8):
        xs, ys = numbers[start : start + 8 : 2], numbers[start + 1 : start + 8 : 2]
        area = [
            "-x", str(int(min(xs) - left)), "-y", str(int(top - max(ys))),
            "-W", str(int(max(xs) - min(xs)) + 1), "-H", str(int(max(ys) - min(ys)) + 1),
        ]  # fmt: skip
        crop = subprocess.run(
            ["pdftotext", "-f", "1", "-l", "1", *area, str(path), "-"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        found.append(without_space(crop))
    assert found == ["zeta1", "etatheta"]
