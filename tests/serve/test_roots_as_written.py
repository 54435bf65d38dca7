"""Roots read as written, over the wire: the real `siftui mcp --tools read,evidence`, called by
the official MCP client. A path whose written form leaves the roots is refused in the
same words whatever it passes outside them (a symlink there used to be told from a
folder: `outside/lnk/../../root/in.pdf` refused, `outside/plain/../../root/in.pdf`
served), a path the OS would not open as written is not opened, and a file with
several hard links is refused (another of its names may lie outside the roots)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession
from support.mcp_client import error_of, run_server, texts
from support.pdfs import make_pdf

PASSED = ("plain", "lnk", "file.txt", "missing")


def _tree(tmp_path: Path) -> Path:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    (outside / "plain").mkdir(parents=True)
    deep = tmp_path / "far" / "a" / "b"  # lnk/../.. is tmp_path/far, not tmp_path
    deep.mkdir(parents=True)
    (outside / "lnk").symlink_to(deep)
    (outside / "file.txt").write_text("outside\n")
    make_pdf(root / "in.pdf", ["inside text"])
    (root / "notes.txt").write_text("notes\n")
    make_pdf(outside / "secret.pdf", ["SECRET text"])
    os.link(outside / "secret.pdf", root / "linked.pdf")
    return root


def test_a_path_leaving_the_roots_as_written_is_refused_alike(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    answers: dict[tuple[str, str], str] = {}

    async def body(session: ClientSession) -> None:
        for tool in ("read_pdf", "pdf_open", "pdf_info"):
            for passed in PASSED:
                for path in (
                    f"../outside/{passed}/../../root/in.pdf",
                    f"{tmp_path}/outside/{passed}/../../root/in.pdf",
                ):
                    message = error_of(await session.call_tool(tool, {"path": path}))
                    answers[(tool, path)] = message.replace(path, "PATH")
            answers[(tool, "file.txt/..")] = error_of(
                await session.call_tool(tool, {"path": "notes.txt/../in.pdf"})
            )
            answers[(tool, "linked")] = error_of(
                await session.call_tool(tool, {"path": "linked.pdf"})
            )
        read = await session.call_tool("read_pdf", {"path": "in.pdf"})
        assert "inside text" in texts(read)[0]

    run_server(["--root", root, "--tools", "read,evidence"], body, tmp_path / "stderr")
    outside = {answers.pop((tool, "file.txt/..")) for tool in ("read_pdf", "pdf_open", "pdf_info")}
    assert outside == {"notes.txt/../in.pdf: Not a directory"}
    linked = {answers.pop((tool, "linked")) for tool in ("read_pdf", "pdf_open", "pdf_info")}
    assert linked == {
        f"{root}/linked.pdf: has 2 hard links, and another of its names may lie outside "
        "the allowed roots: not read (a copy of it under a root is)"
    }
    assert set(answers.values()) == {f"PATH is outside the allowed roots ({root})"}
    assert len(answers) == 3 * len(PASSED) * 2
