"""Real Word files not written by us (../shared/corpus-docx, read in place)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from siftui.core.word.model import SCOPES
from siftui.core.word.render import DocxOptions, full_projection, render_docx
from siftui.core.word.walk import walk_docx
from siftui.sources.word.read import read_docx

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus-docx"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus-docx")
FILES = sorted(CORPUS.glob("*.docx")) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason="no corpus-docx beside the project")


def test_manifest_lists_every_file() -> None:
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as handle:
        names = {row["file"] for row in csv.DictReader(handle, delimiter="\t")}
    assert names == {f.name for f in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda f: f.name)
@pytest.mark.parametrize("out_cap", [300, 2_000, 100_000])
def test_projected_within_out_cap(path: Path, out_cap: int) -> None:
    doc = read_docx(path)
    assert doc.notes == ()
    for scope in SCOPES:
        story = doc.stories[scope]
        answers = [render_docx(doc, DocxOptions(scope=scope, out_cap=out_cap))]
        if story.count:
            answers.append(
                render_docx(doc, DocxOptions(scope=scope, range="P1..", out_cap=out_cap))
            )
            last = story.paragraphs[-1]
            anchor = f"P{story.count}#{last.hash}"
            answers.append(
                render_docx(doc, DocxOptions(scope=scope, anchor=anchor, out_cap=out_cap))
            )
        answers.append(render_docx(doc, DocxOptions(scope=scope, grep="e", out_cap=out_cap)))
        for answer in answers:
            assert len(answer.content) <= out_cap
        for call in walk_docx(doc, out_cap, scope):
            assert len(call.answer.content) <= out_cap


def test_what_the_manifest_says_they_exercise() -> None:
    def body(name: str) -> str:
        return full_projection(read_docx(CORPUS / name))

    assert "[^1]" in body("Bug54849.docx") and "[^e1]" in body("Bug54849.docx")
    numbered = body("ComplexNumberedLists.docx").split("\n")
    assert numbered[3].endswith("a. 2-a") and numbered[8].endswith("1. Restarted to 1 from 5")
    assert "[ins by" in body("delins.docx") and "[del by" in body("delins.docx")
    assert "[textbox: " in body("WordWithAttachments.docx")
    assert "[comment:C3 by vbiryukova]" in body("WordWithAttachments.docx")
    assert read_docx(CORPUS / "NumberingWOverrides.docx").title.startswith("Test 1")
    drawing = render_docx(read_docx(CORPUS / "drawing.docx"), DocxOptions(out_cap=2_000))
    assert drawing.map
    assert render_docx(read_docx(CORPUS / "stress018.docx"), DocxOptions(out_cap=50_000)).map
