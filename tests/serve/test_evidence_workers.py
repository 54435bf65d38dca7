"""pdf_info and pdf_page_render run MuPDF in worker processes, never in the server:
a PDF that crashes MuPDF or draws for minutes costs one call one line, and the
real server (over stdio) goes on answering."""

from __future__ import annotations

import hashlib
import json
import time
import zlib
from pathlib import Path

import pytest

from siftui.serve.limits import StoreLimits

pytest.importorskip("mcp")

from support.hostile import raw_pdf
from support.mcp_wire import Wire, descendants, exists, served_lines, wait_for
from support.pdfs import make_pdf

from siftui.serve.access import Roots
from siftui.serve.docstore import DocStore
from siftui.serve.worker_evidence import Describe

TIMEOUT = 60


def nested_outline_pdf(levels: int) -> bytes:
    """One page; an outline whose every item is the only child of the one before:
    MuPDF loads it recursively and, 100,000 deep, overflows its stack (SIGSEGV)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        b"<< /Type /Outlines /First 5 0 R /Last 5 0 R /Count %d >>" % levels,
    ]
    for depth in range(levels):
        number = 5 + depth
        child = b""
        if depth < levels - 1:
            child = b" /First %d 0 R /Last %d 0 R /Count 1" % (number + 1, number + 1)
        objects.append(
            b"<< /Title (L) /Parent %d 0 R /Dest [3 0 R /Fit]%s >>" % (number - 1, child)
        )
    return raw_pdf(objects)


def slow_drawing_pdf(draws: int) -> bytes:
    """A 5 KB page whose text extracts at once but which draws one full-page image
    ``draws`` times (20,000: minutes at any dpi)."""
    side = 1000
    image = zlib.compress(bytes(range(256)) * (side * side // 256))
    content = zlib.compress(
        b"BT /F1 12 Tf 72 720 Td (Drawn slowly) Tj ET " + b"q 612 0 0 792 0 0 cm /Im1 Do Q " * draws
    )
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject"
            b" << /Im1 5 0 R >> /Font << /F1 6 0 R >> >> /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content)
            + content
            + b"\nendstream",
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray"
            b" /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
            % (side, side, len(image))
            + image
            + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )


def nested_groups_pdf(depth: int) -> bytes:
    """A 13 KB page of text whose drawing nests ``depth`` transparency groups, each a
    page-sized pixmap of its own: at 60 deep and 200 dpi, MuPDF allocates ~2 GB."""
    font = 5 + depth
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject"
        b" << /X 5 0 R >> /Font << /F1 %d 0 R >> >> /Contents 4 0 R >>" % font,
    ]
    content = b"BT /F1 12 Tf 72 720 Td (Grouped) Tj ET /X Do"
    objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    for depth_at in range(depth):
        last = depth_at == depth - 1
        inner = b"0 0 612 792 re f" if last else b"/X Do"
        resources = b"" if last else b"/Resources << /XObject << /X %d 0 R >> >>" % (6 + depth_at)
        objects.append(
            b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency"
            b" /K true /I true >> %s /Length %d >>\nstream\n"
            % (resources, len(inner))
            + inner
            + b"\nendstream"
        )
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    return raw_pdf(objects)


def one_line(lines: list[str]) -> str:
    [line] = lines
    assert line.startswith("error: ") and "\n" not in line and len(line) < 400, line
    return line


def mupdf_loaded(pid: int) -> bool:
    with open(f"/proc/{pid}/maps", encoding="utf-8") as maps:
        return "libmupdf" in maps.read()


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc")
def test_the_server_process_never_loads_mupdf(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    make_pdf(root / "a.pdf", ["The first page", "The second page"])
    with Wire(["--root", root, "--tools", "evidence"], tmp_path / "err.txt") as wire:
        info = json.loads(served_lines(wire.call({"path": "a.pdf"}, tool="pdf_info"))[0])
        assert (info["pages"], info["pdfVersion"]) == (2, "1.7")
        wire.call({"path": "a.pdf"}, tool="pdf_open")
        drawn = served_lines(
            wire.call({"documentId": "doc-1", "page": 2, "dpi": 40}, tool="pdf_page_render")
        )
        assert drawn[0].startswith("image: ") and '"imageHandle":"img-1"' in drawn[1]
        assert not mupdf_loaded(wire.pid)


def test_a_pdf_that_crashes_mupdf_costs_pdf_info_one_line(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "deep.pdf").write_bytes(nested_outline_pdf(100_000))
    make_pdf(root / "a.pdf", ["Still here"])
    with Wire(["--root", root, "--tools", "evidence"], tmp_path / "err.txt") as wire:
        line = one_line(served_lines(wire.call({"path": "deep.pdf"}, tool="pdf_info")))
        assert "deep.pdf" in line, line
        # SIGSEGV with the usual 8 MB stack; with an unlimited one, the RecursionError.
        assert "the worker process died" in line or "reading its metadata failed" in line
        assert wire.alive()
        info = json.loads(served_lines(wire.call({"path": "a.pdf"}, tool="pdf_info"))[0])
        assert info["pages"] == 1


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_a_page_that_draws_for_minutes_is_stopped_at_the_timeout(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "slow.pdf").write_bytes(slow_drawing_pdf(20_000))
    args: list[str | Path] = ["--root", root, "--tools", "evidence", "--timeout", "8"]
    with Wire(args, tmp_path / "err.txt") as wire:
        opened = json.loads(served_lines(wire.call({"path": "slow.pdf"}, tool="pdf_open"))[0])
        assert opened["documentId"] == "doc-1"
        # The extraction's worker is gone; the spare started for a render waits.
        assert wait_for(lambda: len(descendants(wire.pid)) == 1, 10)
        [spare] = descendants(wire.pid)
        render = {"documentId": "doc-1", "page": 1, "dpi": 36}
        line = one_line(served_lines(wire.call(render, tool="pdf_page_render", timeout=TIMEOUT)))
        assert line.endswith("slow.pdf: drawing page 1 took longer than 8 s; stopped"), line
        assert wait_for(lambda: spare not in descendants(wire.pid), 10)  # it drew: killed
        read = served_lines(wire.call({"documentId": "doc-1", "page": 1}, tool="pdf_page_read"))
        assert json.loads(read[0])["pages"][0]["text"] == "Drawn slowly\n"
        assert wire.alive()


def test_a_spare_worker_takes_the_next_task_and_dies_with_the_store(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["One page"])
    store = DocStore(StoreLimits(workers=1))
    try:
        store.warm()
        spare = store.spare()
        assert spare is not None and exists(spare)
        opened = Roots([tmp_path]).open("a.pdf")
        try:
            size, facts, sha256 = store.run_task(opened, time.monotonic() + TIMEOUT, Describe())
        finally:
            opened.close()
        assert size == (tmp_path / "a.pdf").stat().st_size
        assert sha256 == hashlib.sha256((tmp_path / "a.pdf").read_bytes()).hexdigest()
        assert isinstance(facts, dict) and facts["pages"] == 1
        assert not exists(spare)  # it did the task, and was reaped
        following = store.spare()
        assert following is not None and following != spare
    finally:
        store.shutdown()
    assert store.spare() is None and not exists(following)


def test_a_page_that_needs_gigabytes_to_draw_stops_at_the_worker_limit(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "groups.pdf").write_bytes(nested_groups_pdf(60))
    limit = 300_000_000
    args: list[str | Path] = ["--root", root, "--tools", "evidence", "--worker-memory", str(limit)]
    with Wire(args, tmp_path / "err.txt") as wire:
        wire.call({"path": "groups.pdf"}, tool="pdf_open")
        render = {"documentId": "doc-1", "page": 1, "dpi": 200}
        line = one_line(served_lines(wire.call(render, tool="pdf_page_render", timeout=TIMEOUT)))
        assert line.endswith(
            f"groups.pdf: drawing page 1 needed more than this server's {limit:,} bytes of memory"
        ), line
        read = served_lines(wire.call({"documentId": "doc-1", "page": 1}, tool="pdf_page_read"))
        assert json.loads(read[0])["pages"][0]["text"] == "Grouped\n"
        assert wire.alive()
