"""Hostile inputs in the library and the CLI: a one-line error or a correct view, never
a traceback, a hang or a second stderr line. Every input is made here (tests/hostile.py).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from support import cli_support
from support.damaged import cut_pdf, page_tree_pdf
from support.hostile import (
    CONTROL_TEXT,
    CORPUS,
    OSC52,
    PDF_CONTROL_TEXT,
    big_page_doc,
    big_page_pdf,
    check_doc,
    check_renders,
    control_doc,
    control_pdf,
    cyclic_child_pdf,
    cyclic_siblings_pdf,
    deep_outline_pdf,
    encrypted_pdf,
    flipped,
    missing_object_target_pdf,
    past_last_page_pdf,
    random_behind_header,
    sample_pdf,
    truncations,
    zero_page_pdf,
)

from siftui.core.doc import Doc
from siftui.core.docjson import doc_to_json
from siftui.core.messages import quoted
from siftui.core.render import Options, render
from siftui.core.textless import answer_textless, textless_warning
from siftui.core.unreadable import describe
from siftui.sources.extract import extract
from siftui.sources.load import LoadError, load_doc_report
from siftui.sources.load_options import LoadOptions
from siftui.sources.output import encode_utf8, rendered_json
from siftui.sources.pdf_open import ExtractError

KSP = CORPUS / "ksp-thesis.pdf"


def _corpus_bytes(path: Path) -> bytes:
    if not path.is_file():
        pytest.skip(f"corpus file missing: {path}")
    return path.read_bytes()  # read in place; only damaged copies are written


def _ksp_cut(fraction: float) -> bytes:
    data = _corpus_bytes(KSP)
    return data[: int(len(data) * fraction)]


def _ksp_flipped(seed: int) -> bytes:
    return flipped(_corpus_bytes(KSP), seed, flips=[8, 64, 512, 4096][seed])


# name -> bytes of a file named <name>.pdf
FILES: dict[str, Callable[[], bytes]] = {
    "empty": lambda: b"",
    "text-named-pdf": lambda: b"just some text\nnot a PDF at all\n",
    "zero-pages": zero_page_pdf,
    "header-only": lambda: b"%PDF-1.7\n",
    "cut-half": cut_pdf,
    "page-tree-cycle": lambda: page_tree_pdf(2, {2}),
    "control-text": control_pdf,
    "deep-outline-200": lambda: deep_outline_pdf(200),
    "cyclic-siblings": cyclic_siblings_pdf,
    "cyclic-child": cyclic_child_pdf,
    "past-last-page": past_last_page_pdf,
    "missing-target": missing_object_target_pdf,
    **{f"random-{seed}": functools.partial(random_behind_header, seed) for seed in range(3)},
    **{
        f"sample-{name}": functools.partial(bytes, cut)
        for name, cut in truncations(sample_pdf()).items()
    },
    **{
        f"ksp-{fraction}": functools.partial(_ksp_cut, fraction)
        for fraction in (0.01, 0.3, 0.7, 0.99)
    },
    **{f"ksp-flipped-{seed}": functools.partial(_ksp_flipped, seed) for seed in range(4)},
}


# Exactly what some inputs must give (the others: an error or a valid Doc).
EXPECTED_ERROR = {
    "empty": "empty file, not a document",
    "text-named-pdf": "not a document siftui can read (",
    "zero-pages": "the document has no pages",
    "cut-half": "damaged or truncated: MuPDF repaired it and found no pages",
    "header-only": "not a document siftui can read (",
}


def make(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(FILES[name]())
    return path


def outcome(path: Path, password: str | None = None) -> Doc | str:
    """load_doc_report's Doc, or its one-line error message (checked to be one line)."""
    try:
        doc = load_doc_report(path, LoadOptions(password=password)).doc
    except LoadError as error:
        message = str(error)
        assert message and "\n" not in message and "\r" not in message
        assert message.startswith(quoted(path) + ": ")
        assert "Traceback" not in message
        return message
    check_doc(doc)
    check_renders(doc)
    return doc


def siftui(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return cli_support.siftui(*args, env=dict(os.environ, PYTHONIOENCODING="utf-8"))


def check_cli(
    result: subprocess.CompletedProcess[bytes], expected: Doc | str, path: Path | None = None
) -> None:
    """The CLI agrees with the library: the same bytes, or the same one-line error
    (and for a Doc of ``path``, the warning line naming its unreadable pages, if any)."""
    assert b"Traceback" not in result.stderr
    if isinstance(expected, str):
        assert result.returncode == 1, result
        assert result.stdout == b""
        assert result.stderr.decode("utf-8") == f"siftui: error: {expected}\n"
    else:
        assert result.returncode == 0, result.stderr
        assert result.stderr.decode("utf-8") == _warning(path)


def _warning(path: Path | None, options: Options | None = None) -> str:
    """The warning lines the CLI prints for ``path``: its unreadable pages, then the
    pages of the answer with no text ("" when neither)."""
    if path is None:
        return ""
    found = load_doc_report(path)
    said = ""
    if found.unreadable:
        said += f"siftui: warning: {quoted(path)}: {describe(found.unreadable)}\n"
    damaged = {page.page for page in found.unreadable}
    answer = render(found.doc, options or Options(out_cap=5000))
    empty = [page for page in answer_textless(found.doc, answer) if page not in damaged]
    if empty:
        warning = f"{quoted(path)}: {textless_warning(empty, 'OCR with --ocr')}"
        said += f"siftui: warning: {quoted(warning)}\n"
    return said


# --------------------------------------------------------------------------
# Damaged and odd files, library and CLI


@pytest.mark.parametrize("name", list(FILES))
def test_library_and_cli_agree(tmp_path: Path, name: str) -> None:
    path = make(tmp_path, name)
    got = outcome(path)
    if name in EXPECTED_ERROR:
        assert isinstance(got, str), got
        assert got.startswith(f"{path}: {EXPECTED_ERROR[name]}")
    # extract() raises the same family (load_doc_report only re-labels it)
    try:
        direct: Doc | str = extract(path)
    except ExtractError as error:
        direct = str(error)
    assert direct == got
    result = siftui("render", path, "--outcap", "5000")
    check_cli(result, got, path)
    if isinstance(got, Doc):
        assert result.stdout == encode_utf8(render(got, Options(out_cap=5000)).content)


@pytest.mark.parametrize("command", ["extract", "walk"])
@pytest.mark.parametrize("name", ["empty", "zero-pages", "random-0", "sample-cut@9"])
def test_other_commands_give_the_same_error(tmp_path: Path, name: str, command: str) -> None:
    path = make(tmp_path, name)
    got = outcome(path)
    assert isinstance(got, str)
    check_cli(siftui(command, path), got)


def test_control_characters_in_a_pdf_reach_the_doc_unchanged(tmp_path: Path) -> None:
    """The agent's tool does no cleanup, so neither does extract; the CLI prints it as is."""
    path = tmp_path / "control.pdf"
    path.write_bytes(control_pdf())
    doc = extract(path)
    assert doc.pages[0].startswith(PDF_CONTROL_TEXT)
    assert OSC52 in doc.pages[0]
    result = siftui("render", path)
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout == encode_utf8(render(doc, Options()).content)
    assert OSC52.encode() in result.stdout


def test_deep_outline_200_levels(tmp_path: Path) -> None:
    path = tmp_path / "deep.pdf"
    path.write_bytes(deep_outline_pdf(200))
    doc = extract(path)
    assert [item.level for item in doc.outline] == list(range(1, 201))
    answer = render(doc, Options(out_cap=2000))
    assert not answer.map  # the text is short: no outline shown at all
    the_map = render(Doc(doc.title, 2, (doc.pages[0] + "x" * 400_000,), doc.outline), Options())
    assert the_map.map and "  " * 199 + "- Level 200 (p. 1)" in the_map.content


def test_very_deep_outline_does_not_make_the_text_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "deeper.pdf"
    path.write_bytes(deep_outline_pdf(1200))
    doc = extract(path)
    assert doc.pages[0].startswith("deep outline")


def test_cyclic_and_broken_outlines_do_not_hang(tmp_path: Path) -> None:
    for name, data in [
        ("siblings", cyclic_siblings_pdf()),
        ("child", cyclic_child_pdf()),
        ("past", past_last_page_pdf()),
        ("missing", missing_object_target_pdf()),
    ]:
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(data)
        doc = extract(path)
        check_doc(doc)
        assert doc.pages[0] == "Page 1 text\n"
        # PyMuPDF drops an outline it cannot follow; whatever it keeps renders
        for item in doc.outline:
            assert item.page <= doc.page_count
        check_renders(doc)


def test_password_pdf(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    path.write_bytes(encrypted_pdf())
    assert outcome(path) == f"{path}: needs a password (use --password)"
    assert outcome(path, "") == f"{path}: wrong password"
    assert outcome(path, "wrong") == f"{path}: wrong password"
    assert outcome(path, "\x00\x1b[2J") == f"{path}: wrong password"
    opened = outcome(path, "user-pw")
    assert isinstance(opened, Doc) and opened.pages == ("secret text\n",)
    owner = outcome(path, "owner-pw")
    assert isinstance(owner, Doc) and owner.pages == opened.pages
    check_cli(siftui("render", path), f"{path}: needs a password (use --password)")
    check_cli(siftui("render", path, "--password", ""), f"{path}: wrong password")
    check_cli(siftui("walk", path, "--password", "x"), f"{path}: wrong password")


def test_directory_fifo_and_missing(tmp_path: Path) -> None:
    folder = tmp_path / "folder.pdf"
    folder.mkdir()
    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)  # nobody ever writes to it: opening it for reading would hang
    missing = tmp_path / "missing.pdf"
    cases = [
        (folder, "is a directory, not a file"),
        (fifo, "not a regular file"),
        (missing, "no such file"),
        (tmp_path / "fifo.json", "not a regular file"),
    ]
    os.mkfifo(tmp_path / "fifo.json")
    for path, reason in cases:
        assert outcome(path) == f"{path}: {reason}"
        for command in ("render", "extract"):
            check_cli(siftui(command, path), f"{path}: {reason}")


def test_no_read_permission(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Root reads anything; os.access is what the check asks, so it stands in for mode 000."""
    path = tmp_path / "private.pdf"
    path.write_bytes(sample_pdf())
    real_access = os.access

    def no_read(target: object, mode: int, *args: object, **kwargs: object) -> bool:
        if Path(str(target)) == path and mode & os.R_OK:
            return False
        return real_access(target, mode, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", no_read)
    assert outcome(path) == f"{path}: permission denied"


def test_no_read_permission_cli(tmp_path: Path) -> None:
    path = tmp_path / "private.pdf"
    path.write_bytes(sample_pdf())
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: mode 000 does not stop this user")
        check_cli(siftui("render", path), f"{path}: permission denied")
    finally:
        path.chmod(0o600)


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
def test_big_page_pdf(tmp_path: Path) -> None:
    """One page with 2 MB of text: extracted whole, and every answer stays in the budget."""
    path = tmp_path / "big.pdf"
    path.write_bytes(big_page_pdf())
    doc = extract(path)
    assert len(doc.pages) == 1 and len(doc.pages[0]) > 2_000_000
    default = render(doc, Options())
    assert default.map and len(default.content) <= 100_000
    page = render(doc, Options(pages="1"))
    assert page.note.startswith("page 1 cut to 100000 of ")
    result = siftui("render", path, "--pages", "1")
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout == encode_utf8(page.content)


# --------------------------------------------------------------------------
# Hostile Doc JSON


def write_json(tmp_path: Path, doc: Doc, name: str = "doc.json") -> Path:
    path = tmp_path / name
    path.write_bytes(encode_utf8(doc_to_json(doc)))
    return path


@pytest.mark.parametrize(
    "doc",
    [control_doc(), big_page_doc()],
    ids=["controls-surrogates", "2MB-page"],
)
def test_hostile_doc_json(tmp_path: Path, doc: Doc) -> None:
    path = write_json(tmp_path, doc)
    loaded = load_doc_report(path).doc
    # surrogates cannot be written as UTF-8: they come back as U+FFFD, one for one
    assert [len(page) for page in loaded.pages] == [len(page) for page in doc.pages]
    check_renders(loaded)
    for options, flags in [
        (Options(), []),
        (Options(pages="1-3", out_cap=700), ["--pages", "1-3", "--outcap", "700"]),
        (Options(grep="\\x1b|\ufffd|lorem"), ["--grep", "\\x1b|\ufffd|lorem"]),
        (Options(out_cap=1_000_000), ["--outcap", "1000000"]),
    ]:
        expected = render(doc, options)
        assert encode_utf8(render(loaded, options).content) == encode_utf8(expected.content)
        result = siftui("render", path, *flags)
        assert result.returncode == 0 and result.stderr == b"", result.stderr
        assert result.stdout == encode_utf8(expected.content)
    answer = json.loads(siftui("render", path, "--json", "--outcap", "3000").stdout)
    assert answer == json.loads(encode_utf8(rendered_json(render(loaded, Options(out_cap=3000)))))


def test_control_characters_reach_stdout_unchanged(tmp_path: Path) -> None:
    """stdout is data: the exact string, control characters included (the TUI escapes them)."""
    path = write_json(tmp_path, Doc("t", 1, (CONTROL_TEXT,)))
    result = siftui("render", path)
    assert result.stdout == encode_utf8("--- page 1 ---\n\n" + CONTROL_TEXT.strip())


@pytest.mark.parametrize(
    ("content", "first_wrong"),
    [
        (b'{"page_count": 1, "pages": ["\\u0000\\u001b]52;c;aGk=\\u0007"]}', None),
        (b'{"page_count": 1, "pages": ["a\\udc80b"], "title": "\\ud800"}', None),
        (b'{"page_count": 1, "pages": ["\xff\xfe bad utf-8"]}', "not UTF-8 text"),
        (b'{"page_count": 1e400, "pages": []}', 'key "page_count"'),
        (b'{"page_count": 1, "pages": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}", None),
        (b'{"page_count": -1, "pages": []}', 'key "page_count"'),
        (b'{"page_count": 2, "pages": ["a", "b", "c"]}', 'key "pages"'),
        (b'{"page_count": 1, "pages": ["x"], "outline": [{"level": 1e9999}]}', "outline[0]"),
        (b"\x00\x1b]52;c;aGk=\x07{", "not valid JSON"),
        (b"{" * 50_000, "not valid JSON"),
    ],
    ids=[
        "controls",
        "surrogates",
        "bad-utf8",
        "float-inf",
        "deep-nesting",
        "negative",
        "too-many-pages",
        "inf-level",
        "controls-before-brace",
        "deep-braces",
    ],
)
def test_hostile_json_files(tmp_path: Path, content: bytes, first_wrong: str | None) -> None:
    path = tmp_path / "odd.json"
    path.write_bytes(content)
    got = outcome(path)
    if first_wrong is None:
        if isinstance(got, str):  # the deep nesting: an error, in one line
            assert "pages[0]" in got or "not valid JSON" in got, got
    else:
        assert isinstance(got, str) and first_wrong in got, got
    result = siftui("render", path)
    check_cli(result, got)
