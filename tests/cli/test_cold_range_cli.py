# mypy: disallow-untyped-calls=False
"""`siftui render FILE --pages a-b` on a file not in the cache reads only the pages
its answer needs, prints the whole extraction's answer and exits, caching nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.cli_support import siftui
from support.damaged import page_tree_pdf
from support.pdfs import make_pdf

from siftui.cli import main
from siftui.core.render import Options, render
from siftui.sources import extract as extract_module
from siftui.sources import lazy as lazy_module
from siftui.sources import pdf_open as pdf_open_module
from siftui.sources.extract import extract_report
from siftui.sources.load_options import LoadOptions

PAGES = 400


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    texts = [f"page {n} of the big file\n" + "some words here " * 20 for n in range(1, PAGES + 1)]
    return make_pdf(tmp_path_factory.mktemp("big") / "big.pdf", texts)


def cache_entries(home: Path) -> list[str]:
    where = home / "siftui"
    return sorted(os.listdir(where)) if where.is_dir() else []


def test_the_range_reads_only_its_pages(
    big: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    read: list[int] = []
    real = pdf_open_module.read_page

    def counted(document: object, number: int) -> tuple[str, str | None]:
        read.append(number + 1)
        return real(document, number)

    monkeypatch.setattr(lazy_module, "read_page", counted)
    monkeypatch.setattr(extract_module, "read_page", counted)
    assert main(["render", str(big), "--pages", "10-12"]) == 0
    printed = capsysbinary.readouterr().out
    assert read == [10, 11, 12]
    assert cache_entries(tmp_path) == []
    monkeypatch.undo()
    whole = extract_report(big, LoadOptions(workers=1)).doc
    assert printed == render(whole, Options(pages="10-12")).content.encode()


def test_the_process_prints_the_whole_extractions_answer_and_caches_nothing(
    big: Path, tmp_path: Path
) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    whole = extract_report(big, LoadOptions(workers=1)).doc
    for pages, out_cap in (("10-12", "100000"), ("390-", "2000"), ("5-300", "100000")):
        done = siftui("render", big, "--pages", pages, "--outcap", out_cap, env=env)
        assert done.returncode == 0, done.stderr
        expected = render(whole, Options(pages=pages, out_cap=int(out_cap))).content
        assert done.stdout == expected.encode()
        assert done.stderr == b""
    assert cache_entries(tmp_path) == []
    far = siftui("render", big, "--pages", "401", env=env)
    assert (far.returncode, far.stderr) == (2, b"siftui: error: pages out of range (1-400)\n")
    limited = siftui("render", big, "--pages", "30", "--max-pages", "20", env=env)
    assert limited.returncode == 2
    assert b"--max-pages 20 extracted pages 1-20 of 400" in limited.stderr
    assert siftui("render", big, env=env).returncode == 0  # a map extracts it all, cached
    assert len(cache_entries(tmp_path)) == 1
    again = siftui("render", big, "--pages", "10-12", env=env)
    assert again.stdout == render(whole, Options(pages="10-12")).content.encode()


def test_a_damaged_page_in_the_range_is_warned_of(tmp_path: Path) -> None:
    path = tmp_path / "cycle.pdf"
    path.write_bytes(page_tree_pdf(6, {3}))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = siftui("render", path, "--pages", "2-4", env=env)
    assert done.returncode == 0
    assert done.stdout == render(extract_report(path).doc, Options(pages="2-4")).content.encode()
    assert b"page 3 is damaged; its text is left empty (cycle in page tree)" in done.stderr
    assert b"page 3" not in siftui("render", path, "--pages", "5", env=env).stderr


def test_a_page_without_text_in_the_range_is_warned_of(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "gap.pdf", ["one", "", "three", "", "five"])
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = siftui("render", path, "--pages", "1-3", env=env)
    assert done.stdout == render(extract_report(path).doc, Options(pages="1-3")).content.encode()
    assert b"page 2 has no text (it may be an image; OCR with --ocr)" in done.stderr
    assert b"page 4" not in done.stderr
