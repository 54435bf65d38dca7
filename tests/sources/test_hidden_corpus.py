"""The real corpus: no false alarms on normal text, the scan is no alarm (issue 13).

Findings per file (siftui inspect, PyMuPDF 1.28): none in any file but
pgfmanual.pdf, whose findings are text the manual's own examples really hide
(TikZ pictures clipped to a smaller frame, animation examples shown in their
first state: text at opacity 0, black on a black circle, under a node drawn
later). The two long files run with ``-m slow``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pdfs import CORPUS, CORPUS_PASSWORDS

from siftui.findings import KINDS
from siftui.hidden_doc import inspect_document

SMALL = ["c03-29.pdf", "ksp-thesis.pdf", "libreoffice-writer-password.pdf", "sample-sigconf.pdf"]
LONG = ["beameruserguide.pdf", "lshort-zh-cn.pdf"]


def inspect(name: str) -> tuple[int, list[tuple[int, str, str]]]:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    inspection = inspect_document(path, password=CORPUS_PASSWORDS.get(name))
    return inspection.page_count, [(f.page, f.kind, f.text) for f in inspection.findings]


@pytest.mark.parametrize("name", SMALL)
def test_small_corpus_files_hide_nothing(name: str) -> None:
    pages, findings = inspect(name)
    assert pages >= 1
    assert findings == []


def test_the_image_only_scan_is_no_alarm() -> None:
    """c03-29.pdf is a scan without a text layer: nothing is read, nothing hidden."""
    pages, findings = inspect("c03-29.pdf")
    assert (pages, findings) == (1, [])


@pytest.mark.slow
@pytest.mark.parametrize("name", LONG)
def test_long_corpus_files_hide_nothing(name: str) -> None:
    _, findings = inspect(name)
    assert findings == []


# Pages of pgfmanual.pdf whose examples hide text (checked by eye on renders).
PGF_PAGES = frozenset()


@pytest.mark.slow
def test_pgfmanual_findings_are_on_pages_whose_examples_hide_text() -> None:
    _, findings = inspect("pgfmanual.pdf")
    assert findings
    assert {kind for _, kind, _ in findings} <= set(KINDS) - {"ocr_layer"}
    assert {page for page, _, _ in findings} <= PGF_PAGES


def test_corpus_is_where_the_tests_think(tmp_path: Path) -> None:
    if not CORPUS.is_dir():
        pytest.skip("no corpus here")
    assert set(SMALL + LONG) <= {path.name for path in CORPUS.glob("*.pdf")}
