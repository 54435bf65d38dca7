"""`--unit bytes` over the wire: the real `siftui mcp --tools read,evidence --unit bytes`,
called by the official MCP client, keeps every evidence result within OutCap UTF-8
bytes (following every continuation to its end), and `siftui session --unit bytes`
prints the same text blocks for the same calls, byte for byte."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import ClientSession
from mcp.types import CallToolResult, ImageContent, TextContent
from support.mcp_client import TIMEOUT, run_server
from support.pdfs import make_pdf

from siftui.core.evidence.script import call_line

PAGES = [
    "Déjà vu: 文字の検索 beta\ncafé 日本語 beta\n終わり beta",
    "Second page: 漢字 beta と ひらがな\nété beta",
]
SESSION = (sys.executable, "-m", "siftui", "session")
TOC = [(1, "Chapitre un — 第一章", 1), (1, "Chapitre deux — 第二章", 2)]


def _document(root: Path) -> None:
    root.mkdir(exist_ok=True)
    make_pdf(root / "résumé.pdf", PAGES, title="Un titre — 題名", toc=TOC, fontname="china-s")


def _line(result: CallToolResult) -> list[str]:
    """What `siftui session` prints for one result."""
    if result.is_error:
        [block] = result.content
        assert isinstance(block, TextContent)
        return [f"error: {block.text}"]
    lines = []
    for block in result.content:
        if isinstance(block, ImageContent):
            png = base64.b64decode(block.data)
            size = f"{int.from_bytes(png[16:20], 'big')}x{int.from_bytes(png[20:24], 'big')}"
            lines.append(f"image: {size} png {hashlib.sha256(png).hexdigest()}")
        else:
            assert isinstance(block, TextContent)
            lines.append(block.text)
    return lines


async def _follow(
    session: ClientSession, calls: list[tuple[str, dict[str, Any]]], lines: list[str]
) -> None:
    """Every evidence tool, each continuation followed to its end."""

    async def call(tool: str, arguments: dict[str, Any]) -> Any:
        calls.append((tool, arguments))
        got = _line(await session.call_tool(tool, arguments))
        lines.extend(got)
        return None if got[-1].startswith("error: ") else json.loads(got[-1])

    await call("pdf_info", {"path": "résumé.pdf"})
    if await call("pdf_open", {"path": "résumé.pdf"}) is None:
        return
    await call("pdf_current", {})
    await call("pdf_status", {"documentId": "doc-1"})
    read = await call("pdf_page_read", {"documentId": "doc-1", "page": 1, "lastPage": 2})
    while read is not None and read["next"] is not None:
        position = read["next"]
        read = await call(
            "pdf_page_read",
            {"documentId": "doc-1", "page": position["page"], "lastPage": 2, **position},
        )
    found = await call(
        "pdf_keyword_search", {"documentId": "doc-1", "query": "BETA", "match": "normalized"}
    )
    while found is not None and found["hasMore"]:
        found = await call("pdf_keyword_search", {"searchId": found["searchId"]})
    listing = await call("pdf_bookmark_list", {"documentId": "doc-1", "limit": 1})
    while listing is not None and listing["nextCursor"] is not None:
        listing = await call(
            "pdf_bookmark_list", {"documentId": "doc-1", "cursor": listing["nextCursor"]}
        )
    await call("pdf_evidence_read", {"documentId": "doc-1", "refId": "ref-1"})
    await call(
        "pdf_evidence_read",
        {
            "documentId": "doc-1",
            "range": {
                "start": {"page": 1, "quote": "Déjà"},
                "end": {"page": 2, "quote": "ひらがな"},
            },
        },
    )
    image = await call("pdf_page_render", {"documentId": "doc-1", "page": 1, "dpi": 36})
    if image is not None:
        await call("ocr_recognize", {"imageHandle": image["imageHandle"], "maxChars": 40})
    await call("pdf_close", {"documentId": "doc-1"})


def _check(root: Path, out_cap: int, err: Path) -> list[str]:
    """Serves every evidence tool at ``out_cap`` bytes to the official client, checks
    each result's bytes, and that `siftui session` prints the same lines."""
    calls: list[tuple[str, dict[str, Any]]] = []
    served: list[str] = []
    options: list[str | Path] = ["--root", root, "--tools", "read,evidence", "--unit", "bytes"]

    async def body(session: ClientSession) -> None:
        await _follow(session, calls, served)

    run_server([*options, "--outcap", str(out_cap)], body, err)
    for line in served:
        if not line.startswith(("error: ", "image: ")):
            assert len(line.encode("utf-8")) <= out_cap, (out_cap, line)
    # The only refusals: a result too big for the cap, and the identities it never issued.
    too_small = f"error: OutCap {out_cap} is too small for this result"
    for line in served:
        assert not line.startswith("error: ") or line.startswith((too_small, "error: unknown "))
    done = subprocess.run(
        [*SESSION, "--root", str(root), "--unit", "bytes", "--outcap", str(out_cap)],
        input="\n".join(call_line(tool, arguments) for tool, arguments in calls).encode(),
        capture_output=True,
        timeout=TIMEOUT * 2,
        check=True,
    )
    assert done.stdout.decode("utf-8").splitlines() == served
    return served


def test_a_page_read_that_fits_in_code_points_is_cut_to_fit_in_bytes(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    _document(root)
    served = _check(root, 300, tmp_path / "err.txt")
    answers = [json.loads(line) for line in served if line.startswith("{")]
    reads = [answer for answer in answers if "next" in answer]
    text = "".join(piece["text"] for read in reads for piece in read["pages"])
    assert len(reads) == 2 and reads[0]["next"] is not None
    assert text == "".join(page + "\n" for page in PAGES)
    # The same read counted in code points is one answer: the bytes made the cut.
    in_chars = subprocess.run(
        [*SESSION, "--root", str(root), "--outcap", "300"],
        input=(
            call_line("pdf_open", {"path": "résumé.pdf"})
            + "\n"
            + call_line("pdf_page_read", {"documentId": "doc-1", "page": 1, "lastPage": 2})
        ).encode(),
        capture_output=True,
        timeout=TIMEOUT * 2,
        check=True,
    )
    whole = json.loads(in_chars.stdout.decode("utf-8").splitlines()[1])
    assert whole["next"] is None and len(whole["pages"]) == 2


@pytest.mark.slow
@given(st.integers(60, 1200))
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_every_evidence_result_is_within_outcap_bytes_and_session_prints_the_same(
    tmp_path: Path, out_cap: int
) -> None:
    root = tmp_path / "docs"
    _document(root)
    _check(root, out_cap, tmp_path / "err.txt")
