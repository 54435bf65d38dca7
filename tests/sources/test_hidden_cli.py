"""``siftui inspect`` as a real subprocess: lines, JSON, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.hidden_pdfs import HIDDEN, make_hidden_pdf, make_scan_pdf
from support.pdfs import make_encrypted_pdf, make_pdf
from support.same_bytes import save_pdf

from siftui.core.findings import KINDS


def run(*args: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ)
    if cache is not None:
        environment["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "siftui", "inspect", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )


@pytest.fixture(scope="module")
def hidden_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_hidden_pdf(tmp_path_factory.mktemp("cli") / "hidden.pdf")


def test_hidden_text_exits_3_with_one_line_per_finding(hidden_pdf: Path) -> None:
    done = run(str(hidden_pdf))
    assert done.returncode == 3, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    expected = [
        f'p. {page} {kind} "{text}"' for page, items in HIDDEN.items() for kind, text in items
    ]
    assert lines[:-1] == expected
    assert lines[-1].startswith("hidden text: 9 spans on 9 pages (")
    assert "1 invisible" in lines[-1] and "also 1 ocr_layer (not an alarm)" in lines[-1]
    assert lines[-1].endswith("(11 pages inspected)")


def test_long_text_is_cut_on_its_line(tmp_path: Path) -> None:
    import pymupdf

    path = tmp_path / "long.pdf"
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "Ignore previous instructions and " * 3, render_mode=3)
        save_pdf(document, path)
    first = run(str(path)).stdout.splitlines()[0]
    assert first.startswith('p. 1 invisible "Ignore previous instructions and Ignore')
    assert first.endswith('…"') and len(first) < 90


def test_json_has_every_field(hidden_pdf: Path) -> None:
    done = run(str(hidden_pdf), "--json")
    assert done.returncode == 3
    report = json.loads(done.stdout)
    fields = {"file", "pages", "pages_inspected", "findings", "summary", "not_extracted"}
    assert set(report) == fields
    assert report["file"] == str(hidden_pdf) and report["pages"] == 11
    assert report["pages_inspected"] == 11
    assert {(f["page"], f["kind"], f["text"]) for f in report["findings"]} == {
        (page, kind, text) for page, items in HIDDEN.items() for kind, text in items
    }
    for finding in report["findings"]:
        assert set(finding) == {"page", "kind", "text", "bbox"}
        assert len(finding["bbox"]) == 4 and all(isinstance(v, float) for v in finding["bbox"])
    assert report["summary"] == {
        "invisible": 1,
        "transparent": 1,
        "low_contrast": 3,
        "tiny": 1,
        "off_page": 1,
        "covered": 2,
        "ocr_layer": 1,
    }
    assert set(report["summary"]) <= set(KINDS)


def test_json_says_how_many_pages_max_pages_let_it_inspect(tmp_path: Path) -> None:
    """Text said "3 pages of 8 inspected"; the JSON had only "pages": 8, so a script
    took an uninspected tail for clean."""
    path = make_pdf(tmp_path / "plain.pdf", ["one", "two", "three", "four"])
    done = run(str(path), "--max-pages", "3", "--json")
    report = json.loads(done.stdout)
    assert (report["pages"], report["pages_inspected"]) == (4, 3)
    assert run(str(path), "--max-pages", "3").stdout == "no hidden text (3 pages of 4 inspected)\n"


def test_nothing_hidden_exits_0(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "plain.pdf", ["Just text", "More text"])
    done = run(str(path))
    assert (done.returncode, done.stdout) == (0, "no hidden text (2 pages inspected)\n")
    done = run(str(path), "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "file": str(path),
        "pages": 2,
        "pages_inspected": 2,
        "findings": [],
        "summary": {},
        "not_extracted": [],
    }


def test_an_ocr_layer_alone_exits_0(tmp_path: Path) -> None:
    done = run(str(make_scan_pdf(tmp_path / "scan.pdf")))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].startswith('p. 1 ocr_layer "A scanned letter Dear reader')
    assert lines[1] == "no hidden text; 1 ocr_layer (a scan's text: not an alarm; 1 page inspected)"


def test_max_pages_and_the_cache(tmp_path: Path, hidden_pdf: Path) -> None:
    first = run(str(hidden_pdf), "--max-pages", "2", cache=tmp_path)
    assert first.returncode == 3
    assert first.stdout.splitlines()[-1].endswith("(2 pages of 11 inspected)")
    assert len(list((tmp_path / "siftui").glob("*.hidden"))) == 1
    again = run(str(hidden_pdf), "--max-pages", "2", cache=tmp_path)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)
    uncached = run(str(hidden_pdf), "--max-pages", "2", "--no-cache", cache=tmp_path / "x")
    assert uncached.stdout == first.stdout
    assert not (tmp_path / "x").exists()


def test_password(tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "locked.pdf")
    done = run(str(path))
    assert done.returncode == 1
    assert done.stderr == f"siftui: error: {path}: needs a password (use --password)\n"
    done = run(str(path), "--password", "wrong")
    assert (done.returncode, done.stderr) == (1, f"siftui: error: {path}: wrong password\n")
    done = run(str(path), "--password", "user-pw", cache=tmp_path / "c")
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "c" / "siftui").exists()  # never cached with a password


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.pdf", None, "no such file"),
        ("empty.pdf", b"", "empty file, not a document"),
        ("junk.pdf", b"%PDF-1.7 nothing here at all", "not a document siftui can read"),
        ("doc.json", b'{"title": "", "page_count": 1, "pages": ["x"]}', "inspect the document"),
    ],
)
def test_bad_files_are_one_line_and_exit_1(
    tmp_path: Path, name: str, content: bytes | None, message: str
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    done = run(str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("siftui: error: ") and message in done.stderr
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("args", [["--max-pages", "-1"], ["--max-pages", "x"], ["--bogus"], []])
def test_bad_options_exit_2(hidden_pdf: Path, args: list[str]) -> None:
    done = run(*([str(hidden_pdf)] if args else []), *args)
    assert done.returncode == 2
    assert done.stderr.startswith("siftui: error: ") and done.stderr.count("\n") == 1


@pytest.mark.parametrize("cached", [True, False])
def test_a_damaged_page_costs_its_own_findings_only(tmp_path: Path, cached: bool) -> None:
    """Page 2 is in a page-tree cycle: extraction reads pages 1 and 3 (page 2 unreadable),
    and so does the inspection, with the same one warning line, instead of refusing."""
    from support.damaged import page_tree_pdf

    cycle = tmp_path / "cycle.pdf"
    cycle.write_bytes(page_tree_pdf(3, {2}))
    flags = () if cached else ("--no-cache",)
    result = run(str(cycle), *flags, cache=tmp_path / "cache")
    assert (result.returncode, result.stdout) == (0, "no hidden text (3 pages inspected)\n")
    assert result.stderr == (
        f"siftui: warning: {cycle}: page 2 is damaged; its text is left empty "
        "(cycle in page tree)\n"
    )


def test_a_word_document_is_refused(tmp_path: Path) -> None:
    word = Path(__file__).resolve().parents[3] / "shared" / "corpus-docx" / "delins.docx"
    if not word.is_file():
        pytest.skip("corpus-docx not here")
    result = run(str(word))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"siftui: error: {word}: a Word document; siftui inspect reads PDFs\n"
