"""A file whose name is not UTF-8 (a store copied from an old system): Python holds each
byte that is no UTF-8 as a lone surrogate, which no UTF-8 encoder and no MuPDF file name
takes. Such a file is read like any other, and every record naming it is valid UTF-8 that
gives its name back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.cli_support import siftui
from support.pdfs import make_pdf

from siftui.sources.pdf_open import open_document

RAW = b"\xff\xfe name.pdf"  # two bytes no UTF-8 text holds


def _named_odd(source: Path, odd: Path) -> Path:
    """``source`` renamed to ``odd`` (MuPDF cannot write such a name either), or the test
    skipped where the file system takes UTF-8 names only (APFS, ZFS with utf8only)."""
    try:
        source.rename(odd)
    except OSError as error:
        pytest.skip(f"this file system refuses a name that is not UTF-8 ({error.strerror})")
    return odd


def _store(tmp_path: Path) -> tuple[Path, Path]:
    store = tmp_path / "store"
    store.mkdir()
    make_pdf(store / "ok.pdf", ["kept text"])
    odd = _named_odd(make_pdf(tmp_path / "odd.pdf", ["kept text"]), store / os.fsdecode(RAW))
    return store, odd


def test_mupdf_opens_it_through_a_descriptor(tmp_path: Path) -> None:
    """PyMuPDF hands MuPDF the name in UTF-8: it said the file was no document. Opened by
    a descriptor's name, not from a copy of its bytes (a stream has no name)."""
    _, odd = _store(tmp_path)
    document = open_document(odd)
    try:
        assert document.page_count == 1
        assert "kept text" in document[0].get_text()
        assert document.name.startswith(("/proc/self/fd/", "/dev/fd/"))
    finally:
        document.close()


def test_helper_processes_read_it_too(tmp_path: Path) -> None:
    """From 256 pages on, helper processes open the file by its name as well: the answer is
    the same bytes as for a copy with a plain name."""
    plain = make_pdf(tmp_path / "plain.pdf", [f"page {number} text" for number in range(300)])
    copy = tmp_path / "copy.pdf"
    copy.write_bytes(plain.read_bytes())
    odd = _named_odd(copy, tmp_path / os.fsdecode(RAW))
    rendered = [siftui("render", path, "--no-cache", "--pages", "250-300") for path in (plain, odd)]
    assert all(done.returncode == 0 for done in rendered), rendered[1].stderr.decode()
    assert rendered[0].stdout == rendered[1].stdout and b"page 299 text" in rendered[1].stdout


def test_an_audit_reads_it_and_records_its_name(tmp_path: Path) -> None:
    """The audit's record ended the run in a UnicodeEncodeError, and its worker refused the
    file as no document (the name MuPDF was given)."""
    store, odd = _store(tmp_path)
    out, html = tmp_path / "audit.jsonl", tmp_path / "report.html"
    done = siftui("audit", store, "--out", out, "--html", html)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode()
    records = [json.loads(line) for line in out.read_bytes().decode("utf-8").splitlines()]
    [record] = [one for one in records if os.fsencode(one["path"]).endswith(RAW)]
    assert record["pages"] == 1 and os.fsencode(record["path"]) == os.fsencode(odd)
    assert len(records) == 2 and all("error" not in one for one in records)
    html.read_bytes().decode("utf-8")  # valid UTF-8 (the name is shown with U+FFFD)
    again = siftui("audit", store, "--out", out)  # resumed: both done already
    assert again.returncode == 0, again.stderr.decode()
    assert len(out.read_bytes().splitlines()) == 2
    summary = siftui("audit", "--summary", out)
    assert summary.returncode == 0 and b"Traceback" not in summary.stderr
    printed = siftui("audit", store)  # records on stdout: valid UTF-8 too
    assert printed.returncode == 0, printed.stderr.decode()
    names = [Path(json.loads(line)["path"]).name for line in printed.stdout.decode().splitlines()]
    assert sorted(map(os.fsencode, names)) == sorted([RAW, b"ok.pdf"])
