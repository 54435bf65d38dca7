"""The bundled sample PDF: its shape, and that it matches tests/tools/make_sample.py."""

# mypy: allow-untyped-calls
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml.)

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Sequence
from importlib.resources import files
from pathlib import Path
from types import ModuleType
from typing import Any

import pymupdf
import pytest

from siftui.core.doc import Doc
from siftui.core.render import Options, full, render
from siftui.sources.extract import extract
from siftui.sources.sample import sample_path

SCRIPT = Path(__file__).parents[1] / "tools" / "make_sample.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("siftui_make_sample", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fff" for char in text)


@pytest.fixture(scope="module")
def doc() -> Doc:
    return extract(sample_path())


def test_bundled_as_package_data() -> None:
    resource = files("siftui") / "data" / "sample.pdf"
    assert resource.is_file()
    path = sample_path()
    assert path.is_file()
    assert path.read_bytes() == resource.read_bytes()
    assert path.read_bytes().startswith(b"%PDF-")
    assert path.stat().st_size < 400_000


def test_opens_with_pymupdf() -> None:
    with pymupdf.open(sample_path()) as pdf:
        assert pdf.is_pdf
        assert pdf.page_count >= 40
        assert not pdf.needs_pass
        meta: dict[str, Any] = pdf.metadata
        assert meta["title"] == "Field Notes on Reading Long Documents"
        assert meta["author"] == "siftui"


def test_outline(doc: Doc) -> None:
    outline = doc.outline
    assert 15 <= len(outline) <= 30
    assert {item.level for item in outline} == {1, 2, 3}
    assert all(1 <= item.page <= doc.page_count for item in outline)
    pages = [item.page for item in outline]
    assert pages == sorted(pages)
    # Each bookmark points at the page that shows its heading.
    for item in outline:
        if not item.title.startswith("Figure"):
            assert item.title in doc.pages[item.page - 1], item


def test_pages(doc: Doc) -> None:
    assert doc.page_count >= 40
    assert len(doc.pages) == doc.page_count
    assert doc.title == "Field Notes on Reading Long Documents"


def test_cjk_page(doc: Doc) -> None:
    chinese = [text for text in doc.pages if has_cjk(text)]
    assert chinese
    assert any("预算" in text for text in chinese)


def test_image_only_page(doc: Doc) -> None:
    empty = [number for number, text in enumerate(doc.pages, 1) if not text.strip()]
    assert empty
    with pymupdf.open(sample_path()) as pdf:
        for number in empty:
            assert pdf[number - 1].get_images()  # a picture, not a blank page


def test_grep_material(doc: Doc) -> None:
    with_budget = [text for text in doc.pages if "budget" in text.lower()]
    assert len(with_budget) >= doc.page_count // 2
    assert sum(text.count("Lemma") for text in doc.pages) >= 2
    assert sum(text.count("Table") for text in doc.pages) >= 2
    longest = max(len(line) for text in doc.pages for line in text.split("\n"))
    assert longest > 400


def test_longer_than_default_out_cap(doc: Doc) -> None:
    assert len(full(doc)) > 100_000
    answer = render(doc, Options())
    assert answer.map is True
    assert len(answer.content) <= 100_000
    assert "## Outline" in answer.content


def test_bundled_file_matches_its_script(tmp_path: Path, doc: Doc) -> None:
    main: Callable[[Sequence[str]], Path] = load_script().main
    fresh = main([str(tmp_path / "sample.pdf")])
    regenerated = extract(fresh)
    assert regenerated.pages == doc.pages
    assert regenerated.outline == doc.outline
    assert regenerated.title == doc.title
