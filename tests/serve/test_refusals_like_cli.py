"""The server refuses what `siftui render` refuses, in the same words, over stdio (raw
JSON-RPC, see mcp_wire.py): an option holding a control character is one line, its
value escaped; a file is a Word document or a PDF by its bytes, not its name; a path
the OS would not open as given is not opened; `siftui mcp`'s numeric options are
checked at start."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from support.docx_build import p, t, write_docx
from support.mcp_wire import Wire, content_of, message_of
from support.pdfs import make_pdf

from siftui.serve.access import Refused, Roots, Unopenable

TIMEOUT = 60
FLAGS = {"pages": "--pages", "grep": "--grep", "range": "--range", "anchor": "--anchor"}


def _siftui(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "siftui", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        check=False,
    )


def _cli_error(root: Path, arguments: dict[str, Any]) -> str:
    """What `siftui render` says after "siftui: error: " for the same path and options."""
    options = [f"--{key}={value}" for key, value in arguments.items() if key != "path"]
    done = _siftui("render", arguments["path"], *options, cwd=root)
    assert done.returncode in (1, 2), done
    [line] = done.stderr.splitlines()
    return line.removeprefix("siftui: error: ")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    make_pdf(folder / "a.pdf", ["alpha", "beta", "gamma"])
    write_docx(folder / "w.docx", p(t("First.")) + p(t("Second.")))
    (folder / "sub").mkdir()
    return folder.resolve()


REFUSED_OPTIONS = [
    ("read_pdf", {"path": "a.pdf", "pages": "3\n-5"}),
    ("read_pdf", {"path": "a.pdf", "pages": "1\t-2"}),
    ("read_pdf", {"path": "a.pdf", "grep": "a\nb("}),
    ("read_docx", {"path": "w.docx", "range": "P1\n..P2x"}),
    ("read_docx", {"path": "w.docx", "anchor": "P1\n#zz"}),
    ("read_docx", {"path": "w.docx", "scope": "x\ny"}),
    ("read_docx", {"path": "w.docx", "grep": "(\n"}),
]


def test_refused_options_are_the_cli_line(root: Path, tmp_path: Path) -> None:
    with Wire(["--root", root], tmp_path / "stderr") as wire:
        served = [
            message_of(wire.call(arguments, tool=tool)) for tool, arguments in REFUSED_OPTIONS
        ]
    for message, (_, arguments) in zip(served, REFUSED_OPTIONS, strict=True):
        assert "\n" not in message and "\t" not in message, message
        assert message == _cli_error(root, arguments)
    assert served[0] == 'invalid pages "3\\n-5": use "a-b", "a" or "a-"'


@pytest.mark.parametrize("command", ["mcp", "session"])
def test_a_negative_cache_is_a_usage_error(root: Path, command: str) -> None:
    """Both servers share the option, and its check."""
    done = _siftui(command, "--root", root, "--cache-bytes", "-5")
    assert done.returncode == 2, done
    assert done.stderr == "siftui: error: --cache-bytes must be >= 0, not -5\n"


def test_the_bytes_decide_the_kind_not_the_name(root: Path, tmp_path: Path) -> None:
    """A Word package named .pdf is refused by read_pdf as a .docx is; a PDF named .docx
    is read by read_pdf as `siftui render` reads it, and refused by read_docx as a .pdf is."""
    (root / "word.pdf").write_bytes((root / "w.docx").read_bytes())
    (root / "pdf.docx").write_bytes((root / "a.pdf").read_bytes())
    with Wire(["--root", root], tmp_path / "stderr") as wire:
        word_as_pdf = message_of(wire.call({"path": "word.pdf"}))
        word = message_of(wire.call({"path": "w.docx"}))
        pdf_as_word = content_of(wire.call({"path": "pdf.docx", "pages": "2"}))
        docx_of_pdf_bytes = message_of(wire.call({"path": "pdf.docx"}, tool="read_docx"))
        docx_of_pdf = message_of(wire.call({"path": "a.pdf"}, tool="read_docx"))
        read_as_word = content_of(wire.call({"path": "word.pdf"}, tool="read_docx"))
    assert word_as_pdf == f"{root / 'word.pdf'}: a Word document; read it with read_docx"
    assert word == f"{root / 'w.docx'}: a Word document; read it with read_docx"
    assert pdf_as_word == _siftui("render", root / "pdf.docx", "--pages", "2").stdout
    assert docx_of_pdf_bytes == docx_of_pdf.replace("a.pdf", "pdf.docx")
    assert "First." in read_as_word


def test_a_path_the_os_would_not_open_is_not_opened(root: Path, tmp_path: Path) -> None:
    """A trailing slash after a file, or ".." after a name that is missing or not a
    directory: the OS refuses them, and so does the server, in the CLI's words."""
    refused = ["a.pdf/", "a.pdf/.", "nope/../a.pdf", "a.pdf/../a.pdf", "sub/nope/../../a.pdf"]
    with Wire(["--root", root], tmp_path / "stderr") as wire:
        messages = [message_of(wire.call({"path": path})) for path in refused]
        served = content_of(wire.call({"path": "sub/../a.pdf"}))
    for message, path in zip(messages, refused, strict=True):
        assert message == _cli_error(root, {"path": path})
    assert served.startswith("--- page 1 ---\n\nalpha")


def test_a_way_out_and_back_is_refused_whatever_it_passes(root: Path, tmp_path: Path) -> None:
    """Outside the roots nothing is looked at: a path whose written form leaves them
    (a ".." taken outside a root) is refused in the same words whether what it passes
    outside is a folder, a symlink, a file or nothing (the answer used
    to tell a symlink outside from a folder); inside a root, a path the OS would not
    open as written is not opened."""
    outside = tmp_path / "elsewhere"
    (outside / "plain").mkdir(parents=True)
    deep = tmp_path / "far" / "a" / "b"
    deep.mkdir(parents=True)
    (outside / "lnk").symlink_to(deep)
    (outside / "file.txt").write_text("x\n")
    roots = Roots([root])
    messages = []
    for passed in ("plain", "lnk", "file.txt", "missing"):
        for path in (
            f"{outside}/{passed}/../../root/a.pdf",
            f"../elsewhere/{passed}/../../root/a.pdf",
        ):
            with pytest.raises(Refused) as refused:
                roots.open(path)
            messages.append(str(refused.value).replace(path, "PATH"))
    assert set(messages) == {f"PATH is outside the allowed roots ({root})"}
    for path in (f"{root}/../root/a.pdf", "../root/a.pdf"):  # out of the root and back
        with pytest.raises(Refused, match="outside the allowed roots"):
            roots.open(path)
    opened = roots.open("sub/../a.pdf")  # a ".." taken inside the root is the OS's
    opened.close()
    assert opened.real == root / "a.pdf"
    (root / "file.txt").write_text("x\n")
    for path in ("file.txt/../a.pdf", "a.pdf/", "missing/../a.pdf"):
        with pytest.raises(Unopenable, match=r"Not a directory|no such file"):
            roots.open(path)
