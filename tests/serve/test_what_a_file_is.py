# mypy: disallow-untyped-calls=False
"""One decision of what a file is, from its bytes, for every tool and the CLI,
over the wire: the real `siftui mcp`, called by the official
MCP client, and `siftui render` on the same files.

- A PDF whose `%PDF-` header comes after 1,100 leading spaces, and a PDF named .docx,
  are PDFs to read_pdf, pdf_info, pdf_open, pdf_status and pdf_page_render alike (they
  were "opened from a Doc JSON", or "a Word document" to pdf_open alone).
- A plain text file MuPDF opens is read by every tool alike (pdf_info refused it while
  pdf_open and read_pdf read it).
- A file MuPDF cannot open gets MuPDF's reason, in the CLI's words, from every tool
  (the server said "Failed to open stream").
- With `--tools evidence` alone, a Word document is refused without naming read_docx.
- A page drawn stays within 4,000,000 pixels (a 1,000,000 x 10 pt page came out at
  4.47 M), and a page that fits not even at 1 dpi is refused in one line (a memory
  error before).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import pymupdf
from mcp import ClientSession
from mcp.types import CallToolResult, ImageContent, TextContent
from support.docx_build import p, t, write_docx
from support.mcp_client import TIMEOUT, error_of, run_server

from siftui.sources.word.kind import is_pdf_head

MAX_PIXELS = 4_000_000
UNREADABLE = b"%PDF-1.4\n"  # a header and nothing else: no startxref, no object
WIDE = (1_000_000, 10)
HUGE = (1_000_000, 1_000_000)


def _pdf_bytes(text: str) -> bytes:
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), text)
    data: bytes = document.tobytes()
    document.close()
    return data


def _sized(path: Path, width: int, height: int) -> None:
    """A one-page PDF whose MediaBox is ``width`` x ``height`` pt."""
    document = pymupdf.open()
    document.new_page(width=100, height=100).insert_text((20, 50), "sized")
    document.xref_set_key(document[0].xref, "MediaBox", f"[0 0 {width} {height}]")
    document.save(path)
    document.close()


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "spaces.pdf").write_bytes(b" " * 1100 + _pdf_bytes("after spaces"))
    (root / "named.docx").write_bytes(_pdf_bytes("named as Word"))
    (root / "notes.txt").write_text("plain words\n")
    (root / "unreadable.pdf").write_bytes(UNREADABLE)
    write_docx(root / "letter.docx", p(t("A Word letter.")))
    _sized(root / "wide.pdf", *WIDE)
    _sized(root / "huge.pdf", *HUGE)
    return root


def _json(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result
    block = result.content[-1]
    assert isinstance(block, TextContent)
    found: dict[str, Any] = json.loads(block.text)
    return found


def _cli_error(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "render", str(path)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode != 0 and done.stdout == ""
    return done.stderr.strip().removeprefix("siftui: error: ")


def _cli_text(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "render", str(path)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    return done.stdout


def test_every_tool_and_the_cli_take_a_file_for_what_its_bytes_are(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    got: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        for name in ("spaces.pdf", "named.docx", "notes.txt"):
            read = await session.call_tool("read_pdf", {"path": name})
            assert not read.is_error, read
            info = _json(await session.call_tool("pdf_info", {"path": name}))
            opened = _json(await session.call_tool("pdf_open", {"path": name}))
            document = opened["documentId"]
            status = _json(await session.call_tool("pdf_status", {"documentId": document}))
            drawn = await session.call_tool("pdf_page_render", {"documentId": document, "page": 1})
            got[name] = (info, opened, status, drawn)
        for tool in ("read_pdf", "pdf_info", "pdf_open"):
            got[tool] = error_of(await session.call_tool(tool, {"path": "unreadable.pdf"}))
            got[f"word {tool}"] = error_of(await session.call_tool(tool, {"path": "letter.docx"}))

    run_server(["--root", root, "--tools", "read,evidence"], body, tmp_path / "stderr")
    for name in ("spaces.pdf", "named.docx", "notes.txt"):
        info, opened, status, drawn = got[name]
        assert info["pages"] == opened["pages"] == status["pages"] == 1
        # Pages to draw, as for any file MuPDF reads: no "opened from a Doc JSON".
        assert status["capabilities"]["pageRender"] == {"supported": True, "available": True}
        assert not drawn.is_error, drawn
        assert isinstance(drawn.content[0], ImageContent)
        assert info["pdfVersion"] == ("" if name == "notes.txt" else "1.7")
    # The CLI reads them alike.
    assert "after spaces" in _cli_text(root / "spaces.pdf")
    assert "named as Word" in _cli_text(root / "named.docx")
    # One wording of why a file cannot be read, MuPDF's own reason, everywhere.
    cli = _cli_error(root / "unreadable.pdf")
    assert cli == (
        f"{root / 'unreadable.pdf'}: not a document siftui can read "
        "(MuPDF cannot open it as a PDF: expected object number)"
    )
    assert got["read_pdf"] == got["pdf_info"] == got["pdf_open"] == cli
    word = f"{root / 'letter.docx'}: a Word document; read it with read_docx"
    assert {got[f"word {tool}"] for tool in ("read_pdf", "pdf_info", "pdf_open")} == {word}


def test_with_the_evidence_tools_alone_no_absent_tool_is_named(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    said: list[str] = []

    async def body(session: ClientSession) -> None:
        for tool in ("pdf_info", "pdf_open"):
            said.append(error_of(await session.call_tool(tool, {"path": "letter.docx"})))
        opened = await session.call_tool("pdf_open", {"path": "named.docx"})
        assert not opened.is_error, opened

    run_server(["--root", root, "--tools", "evidence"], body, tmp_path / "stderr")
    assert (
        said
        == [
            f"{root / 'letter.docx'}: a Word document, not a PDF "
            "(this server serves no tool that reads it)"
        ]
        * 2
    )


def test_a_page_drawn_stays_within_the_pixel_cap_or_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    got: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        for name in ("wide.pdf", "huge.pdf"):
            document = _json(await session.call_tool("pdf_open", {"path": name}))["documentId"]
            got[name] = await session.call_tool(
                "pdf_page_render", {"documentId": document, "page": 1, "dpi": 300}
            )

    run_server(["--root", root, "--tools", "evidence"], body, tmp_path / "stderr")
    wide = _json(got["wide.pdf"])
    assert wide["dpiLowered"] is True and 1 <= wide["dpi"] < 300
    assert wide["width"] * wide["height"] <= MAX_PIXELS
    image = got["wide.pdf"].content[0]
    assert isinstance(image, ImageContent)
    assert error_of(got["huge.pdf"]) == (
        "page 1 is too large to draw (1000000 x 1000000 pt is over 4000000 pixels even at 1 dpi)"
    )


@pytest.mark.parametrize("start", [0, 1100, 4096, 4097], ids=lambda start: f"at-{start}")
def test_a_pdf_header_counts_where_mupdf_recognizes_one(start: int) -> None:
    """siftui's rule of where a PDF's header counts is MuPDF's own, by content alone
    (no name to go by), so both call the same bytes a PDF."""
    data = b"\x00" * start + _pdf_bytes("x")
    try:
        document = pymupdf.open(stream=data)
        mupdf = bool(document.is_pdf)
        document.close()
    except Exception:  # MuPDF does not know the bytes by their content
        mupdf = False
    assert is_pdf_head(data) is mupdf is (start <= 4096)
