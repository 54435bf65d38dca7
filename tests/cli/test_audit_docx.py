"""`siftui audit` of a Word document: its unreachable text is `siftui walk`'s (the kind
entry's), in code points and in bytes, and the summary and its page count its
paragraphs beside a PDF's pages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.audit_store import long_pages
from support.cli_support import siftui
from support.docx_build import p, write_docx
from support.pdfs import make_pdf

from siftui.sources.audit.store import read_records
from siftui.sources.audit.summary import tables

CORPUS_DOCX = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus-docx"
# stress018.docx (MANIFEST.tsv: 412 paragraphs, 321,860 bytes): long paragraphs
# that a small OutCap cuts.
STRESS = CORPUS_DOCX / "stress018.docx"


def _long(word: str, count: int) -> str:
    return " ".join(f"{word}{n}" for n in range(count))


def _made(path: Path) -> Path:
    """Short paragraphs, and two a 1,000 OutCap cuts (the second of 3-byte characters)."""
    body = p("Title") + p(_long("clause", 400)) + p("short") + p(_long("条款", 500)) + p("end")
    return write_docx(path, body)


def _audit(path: Path, out: Path, *args: str) -> tuple[dict[str, Any], bytes]:
    done = siftui("audit", path, "--out", out, "--no-cache", *args)
    assert done.returncode == 0, done.stderr.decode()
    (record,) = read_records(str(out))
    return record, done.stdout


def _walk(path: Path, *args: str) -> dict[str, Any]:
    done = siftui("walk", path, "--json", *args)
    assert done.returncode == 0, done.stderr.decode()
    found: dict[str, Any] = json.loads(done.stdout)["unreachable"]
    return found


def _same_as_walk(record: dict[str, Any], walked: dict[str, Any]) -> None:
    assert record["kind"] == "docx"
    assert record["unreachable_runes"] == walked["runes"]
    assert record["unreachable_paragraphs"] == [p["paragraph"] for p in walked["paragraphs"]]
    assert record["grep_reachable_runes"] == walked["grep_reachable_runes"]
    assert "unreachable_pages" not in record


@pytest.mark.parametrize("unit", ["chars", "bytes"])
def test_a_word_documents_unreachable_text_is_the_walks(tmp_path: Path, unit: str) -> None:
    path = _made(tmp_path / "long.docx")
    cap = ("--outcap", "1000", "--unit", unit)
    record, _ = _audit(path, tmp_path / "audit.jsonl", *cap)
    walked = _walk(path, *cap)
    _same_as_walk(record, walked)
    assert record["unreachable_runes"] > 0
    assert record["unreachable_paragraphs"] == [2, 4]


@pytest.mark.skipif(not STRESS.is_file(), reason="needs ../shared/corpus-docx/stress018.docx")
def test_a_corpus_word_documents_unreachable_text_is_the_walks(tmp_path: Path) -> None:
    cap = ("--outcap", "2000")
    record, _ = _audit(STRESS, tmp_path / "audit.jsonl", *cap)
    walked = _walk(STRESS, *cap)
    _same_as_walk(record, walked)
    assert len(record["unreachable_paragraphs"]) > 0


def test_the_summary_counts_paragraphs_beside_pages(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    _made(store / "long.docx")
    long = long_pages(2)  # 1,200 runes a page
    make_pdf(store / "long.pdf", [long[0], "short", long[1]])
    out, html = tmp_path / "audit.jsonl", tmp_path / "report.html"
    done = siftui("audit", store, "--out", out, "--outcap", "1000", "--html", html)
    assert done.returncode == 0, done.stderr.decode()
    records = {Path(r["path"]).name: r for r in read_records(str(out))}
    assert records["long.pdf"]["unreachable_pages"] == [1, 3]
    assert records["long.docx"]["unreachable_paragraphs"] == [2, 4]
    totals = {row[0]: row[1] for row in tables(read_records(str(out)))[0].rows}
    runes = records["long.pdf"]["unreachable_runes"] + records["long.docx"]["unreachable_runes"]
    assert totals["unreachable runes"] == f"{runes:,}"
    assert totals["pages holding them (PDF)"] == "2"
    assert totals["paragraphs holding them (Word)"] == "2"
    rows = [line.split() for line in done.stdout.decode().splitlines()]
    assert ["paragraphs", "holding", "them", "(Word)", "2"] in rows
    assert ["pages", "holding", "them", "(PDF)", "2"] in rows
    page = html.read_text("utf-8")
    assert '<td>paragraphs holding them (Word)</td><td class="n">2</td>' in page
