"""The command line, run as a real subprocess: stdout bytes, exit codes, one-line errors."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_support import TIMEOUT, siftui
from support.pdfs import (
    CJK_TEXT,
    CORPUS,
    CORPUS_MANIFEST,
    CORPUS_PASSWORDS,
    USER_PASSWORD,
    CorpusDocs,
    make_cbz,
    make_encrypted_pdf,
    make_pdf,
    make_rich_pdf,
    make_zero_page_pdf,
    needs_corpus,
)

from siftui.core.doc import Doc
from siftui.core.docjson import doc_from_json, doc_to_json
from siftui.core.outcap import INVALID_MESSAGE
from siftui.core.render import Options, render
from siftui.sources.extract import extract
from siftui.sources.output import encode_utf8, write_new_file

BAD_OUTCAP = f"argument --outcap: {INVALID_MESSAGE}, not "


def expected(doc: Doc, options: Options) -> bytes:
    return render(doc, options).content.encode("utf-8")


def one_line_error(result: subprocess.CompletedProcess[bytes], code: int) -> str:
    """The single stderr line of a failed run, after checking the exit code."""
    assert result.returncode == code, result.stderr
    assert result.stdout == b""
    err = result.stderr.decode("utf-8")
    assert b"Traceback" not in result.stderr
    assert err.endswith("\n")
    assert err.count("\n") == 1, err
    assert err.startswith("siftui: error: ")
    return err[len("siftui: error: ") : -1]


@pytest.fixture(scope="module")
def rich(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_rich_pdf(tmp_path_factory.mktemp("rich") / "rich.pdf")


@pytest.fixture(scope="module")
def rich_json(rich: Path) -> Path:
    """rich.pdf's Doc JSON: the same answers, without PyMuPDF's 0.3 s import per run."""
    path = rich.with_name("rich.json")
    path.write_text(doc_to_json(extract(rich)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def big_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Doc JSON whose full text is about 1.5 million characters: fast to load."""
    doc = Doc("Big", 1500, tuple(f"page {i} " + "x" * 1000 for i in range(1, 1501)))
    path = tmp_path_factory.mktemp("big") / "big.json"
    path.write_text(doc_to_json(doc), encoding="utf-8")
    return path


# --------------------------------------------------------------------------
# stdout is the contract's string, byte for byte


CORPUS_OPTIONS = [
    pytest.param(("--outcap", "20000"), Options(out_cap=20_000), id="outcap20k"),
    pytest.param(("--outcap", "100000"), Options(out_cap=100_000), id="outcap100k"),
    pytest.param(("--grep", "the|的"), Options(grep="the|的"), id="grep"),
]


@needs_corpus
@pytest.mark.parametrize("name", [row["file"] for row in CORPUS_MANIFEST])
@pytest.mark.parametrize(("flags", "options"), CORPUS_OPTIONS)
def test_corpus_stdout_is_render_content(
    corpus: CorpusDocs, name: str, flags: tuple[str, ...], options: Options
) -> None:
    password = CORPUS_PASSWORDS.get(name)
    extra = ("--password", password) if password else ()
    result = siftui("render", CORPUS / name, *flags, *extra)
    assert result.returncode == 0, result.stderr
    # Only pages without text (an image-only scan) are said on stderr, never anything else.
    said = result.stderr.decode().splitlines()
    assert all("has no text" in line or "have no text" in line for line in said), said
    if name == "c03-29.pdf" and not options.grep:  # a scan: its one page has no text
        assert said and "page 1 has no text" in said[0]
    assert result.stdout == expected(corpus[name], options)


def test_defaults_and_options(rich: Path, rich_json: Path) -> None:
    doc = extract(rich)
    assert siftui("render", rich).stdout == expected(doc, Options())
    for flags, options in [
        ((), Options()),
        (("--outcap", "60"), Options(out_cap=60)),
        (("--outcap", "1"), Options(out_cap=1)),
        (("--pages", "2-3"), Options(pages="2-3")),
        (("--pages", " 3- "), Options(pages=" 3- ")),
        (("--grep", "PAGE"), Options(grep="PAGE")),
        (("--grep", "page", "--pages", "2"), Options(grep="page", pages="2")),
        (("--grep", "no such words"), Options(grep="no such words")),
        # argparse before 3.12.7 dropped a value that is exactly "--" (the map was printed)
        (("--grep=--",), Options(grep="--")),
        (("--grep=--", "--pages=2-3"), Options(grep="--", pages="2-3")),
    ]:
        result = siftui("render", rich_json, *flags)
        assert result.returncode == 0, (flags, result.stderr)
        assert result.stdout == expected(doc, options), flags


def test_other_formats(tmp_path: Path) -> None:
    """Whatever PyMuPDF opens goes through the same path: a comic book, a text file."""
    comic = make_cbz(tmp_path / "comic.cbz", 2)
    result = siftui("render", comic)
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"--- page 1 ---\n\n\n\n--- page 2 ---\n\n"
    notes = tmp_path / "notes.txt"
    notes.write_text("plain words\n", encoding="utf-8")
    assert siftui("render", notes).stdout == expected(extract(notes), Options())


def test_max_pages(rich: Path) -> None:
    doc = extract(rich, max_pages=2)
    result = siftui("render", rich, "--max-pages", "2", "--outcap", "80")
    assert result.stdout == expected(doc, Options(out_cap=80))
    assert b"pages 1-2 extracted" in result.stdout


def test_no_trailing_newline(rich: Path) -> None:
    for flags in [(), ("--outcap", "100"), ("--grep", "line")]:
        out = siftui("render", rich, *flags).stdout
        assert out
        assert not out.endswith(b"\n"), flags
    assert siftui("render", rich, "--grep", "line").stdout.endswith(b"\n--")


def test_extract_then_render_json_is_identical(rich: Path, tmp_path: Path) -> None:
    out = tmp_path / "doc.json"
    made = siftui("extract", rich, "-o", out)
    assert made.returncode == 0, made.stderr
    assert made.stdout == b"" and made.stderr == b""
    assert doc_from_json(out.read_text("utf-8")) == extract(rich)
    source = json.loads(out.read_text("utf-8"))["source"]
    assert source["path"] == str(rich)
    assert source["size"] == rich.stat().st_size
    assert len(source["sha256"]) == 64
    for flags in [(), ("--outcap", "120"), ("--pages", "3"), ("--grep", "[文页]|page")]:
        direct = siftui("render", rich, *flags)
        saved = siftui("render", out, *flags)
        assert direct.returncode == saved.returncode == 0
        assert direct.stdout == saved.stdout, flags
    assert CJK_TEXT.encode("utf-8") in siftui("render", out).stdout


def test_extract_to_stdout(rich: Path) -> None:
    result = siftui("extract", rich, "--max-pages", "3")
    assert result.returncode == 0, result.stderr
    doc = doc_from_json(result.stdout.decode("utf-8"))
    assert doc == extract(rich, max_pages=3)
    assert "source" in json.loads(result.stdout)


@needs_corpus
def test_extract_then_render_corpus_chinese(corpus: CorpusDocs, tmp_path: Path) -> None:
    name = "lshort-zh-cn.pdf"
    out = tmp_path / "zh.json"
    assert siftui("extract", CORPUS / name, "-o", out).returncode == 0
    assert doc_from_json(out.read_text("utf-8")) == corpus[name]
    result = siftui("render", out, "--pages", "10-12")
    assert result.stdout == expected(corpus[name], Options(pages="10-12"))


def test_new_output_file_gets_ordinary_permissions(rich: Path, tmp_path: Path) -> None:
    out = tmp_path / "doc.json"
    assert siftui("extract", rich, "-o", out).returncode == 0
    umask = os.umask(0o022)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask
    assert [path.name for path in tmp_path.iterdir()] == ["doc.json"]  # no temporary left


def test_existing_output_needs_force(rich: Path, tmp_path: Path) -> None:
    out = tmp_path / "doc.json"
    out.write_bytes(b"precious")
    error = one_line_error(siftui("extract", rich, "-o", out), 1)
    assert error == f"{out}: exists already; use --force to overwrite"
    assert out.read_bytes() == b"precious"
    forced = siftui("extract", rich, "-o", out, "--force")
    assert forced.returncode == 0, forced.stderr
    assert doc_from_json(out.read_text("utf-8")) == extract(rich)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["doc.json"]


def test_the_document_read_is_never_the_output(rich: Path, tmp_path: Path) -> None:
    """With --force, `-o` named the PDF itself (or a link to it) and its JSON replaced it."""
    document = tmp_path / "thesis.pdf"
    document.write_bytes(rich.read_bytes())
    (tmp_path / "link.pdf").symlink_to(document)
    os.link(document, tmp_path / "hard.pdf")
    dotted = f"{tmp_path}/./thesis.pdf"
    for out in (document, tmp_path / "link.pdf", tmp_path / "hard.pdf", dotted):
        error = one_line_error(siftui("extract", document, "-o", out, "--force"), 1)
        assert error == f"{out}: is the document read: never written over"
        assert document.read_bytes() == rich.read_bytes()


def test_output_into_missing_directory(rich: Path, tmp_path: Path) -> None:
    out = tmp_path / "nowhere" / "doc.json"
    error = one_line_error(siftui("extract", rich, "-o", out), 1)
    assert error == f"{out.parent}: no such directory"
    assert not out.parent.exists()


def test_output_is_a_directory(rich: Path, tmp_path: Path) -> None:
    error = one_line_error(siftui("extract", rich, "-o", tmp_path, "--force"), 1)
    assert error == f"{tmp_path}: is a directory"


def test_write_new_file_never_clobbers(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    write_new_file(target, b"first")
    assert target.read_bytes() == b"first"
    with pytest.raises(FileExistsError):
        write_new_file(target, b"second")
    assert target.read_bytes() == b"first"
    write_new_file(target, b"third", overwrite=True)
    assert target.read_bytes() == b"third"
    dangling = tmp_path / "link.json"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileExistsError):
        write_new_file(dangling, b"x")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.json", "out.json"]


def test_write_new_file_without_hard_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a file system that refuses link() (FAT, some FUSE), the file is still made."""

    def refuse(source: object, target: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", refuse)
    target = tmp_path / "out.json"
    write_new_file(target, b"data")
    assert target.read_bytes() == b"data"
    with pytest.raises(FileExistsError):
        write_new_file(target, b"other")
    assert [path.name for path in tmp_path.iterdir()] == ["out.json"]


def test_write_new_file_leaves_no_temporary_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        write_new_file(tmp_path / "out.json", b"data")
    assert list(tmp_path.iterdir()) == []


def test_encode_utf8() -> None:
    assert encode_utf8("中文 ·") == "中文 ·".encode()
    assert encode_utf8("a\ud800b\udfff") == "a\ufffdb\ufffd".encode()
    assert len(encode_utf8("\ud83d\ude00").decode("utf-8")) == 2  # one for one


def test_json_output(rich: Path, rich_json: Path) -> None:
    doc = extract(rich)
    for flags, options in [
        ((), Options()),
        (("--outcap", "200"), Options(out_cap=200)),
        (("--grep", "Page"), Options(grep="Page")),
        (("--pages", "2-", "--outcap", "40"), Options(pages="2-", out_cap=40)),
    ]:
        result = siftui("render", rich_json, "--json", *flags)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout.decode("utf-8")) == dataclasses.asdict(render(doc, options))
        assert not result.stdout.endswith(b"\n")
    whole = siftui("render", rich, "--json").stdout
    assert CJK_TEXT.encode("utf-8") in whole  # not escaped as \\uXXXX


# --------------------------------------------------------------------------
# Encodings and pipes


@pytest.mark.parametrize(
    "env_change",
    [
        {"PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"},
        {"PYTHONIOENCODING": "latin-1"},
        {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0"},
    ],
    ids=["ascii", "latin1", "C-locale"],
)
def test_stdout_is_utf8_whatever_the_locale(rich: Path, env_change: dict[str, str]) -> None:
    env = {**os.environ, **env_change}
    doc = extract(rich)
    result = siftui("render", rich, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected(doc, Options())
    assert CJK_TEXT.encode("utf-8") in result.stdout
    as_json = siftui("render", rich, "--json", env=env)
    assert CJK_TEXT.encode("utf-8") in as_json.stdout
    extracted = siftui("extract", rich, env=env)
    assert doc_from_json(extracted.stdout.decode("utf-8")) == doc


def test_error_message_in_ascii_locale(tmp_path: Path) -> None:
    missing = tmp_path / "文档.pdf"
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"}
    result = siftui("render", missing, env=env)
    assert result.returncode == 1
    assert b"Traceback" not in result.stderr
    assert result.stderr.count(b"\n") == 1
    assert b"no such file" in result.stderr


def test_lone_surrogate_in_a_doc_json(tmp_path: Path) -> None:
    """Invalid text (a lone surrogate from a broken PDF) still leaves as valid UTF-8."""
    path = tmp_path / "odd.json"
    path.write_text('{"page_count": 1, "pages": ["a\\ud800b"]}', encoding="utf-8")
    result = siftui("render", path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "--- page 1 ---\n\na\ufffdb".encode()


def _read_then_close(args: list[str | Path]) -> subprocess.CompletedProcess[bytes]:
    """Like `siftui ... | head -c 10`: read ten bytes, then close the pipe."""
    process = subprocess.Popen(
        [sys.executable, "-m", "siftui", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    head = process.stdout.read(10)
    process.stdout.close()
    err = process.stderr.read()
    code = process.wait(timeout=TIMEOUT)
    return subprocess.CompletedProcess(args, code, head, err)


@pytest.mark.parametrize("flags", [(), ("--json",), ("--grep", "x")], ids=["text", "json", "grep"])
def test_broken_pipe(big_json: Path, flags: tuple[str, ...]) -> None:
    result = _read_then_close(["render", big_json, "--outcap", "1000000", *flags])
    assert len(result.stdout) == 10
    assert result.stderr == b""
    assert result.returncode == 0


@needs_corpus
def test_broken_pipe_real_pdf() -> None:
    result = _read_then_close(["render", CORPUS / "beameruserguide.pdf", "--outcap", "1000000"])
    assert result.stdout == b"--- page 1"  # 665k characters fit: the whole text
    assert result.stderr == b""
    assert result.returncode == 0


def test_broken_pipe_extract(big_json: Path, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "many.pdf", [f"page {i} " + "y" * 80 for i in range(1, 800)])
    result = _read_then_close(["extract", pdf])
    assert len(result.stdout) == 10
    assert result.stdout.startswith(b"{")
    assert result.stderr == b""
    assert result.returncode == 0


# --------------------------------------------------------------------------
# Errors: exit 1 for a document, 2 for an option, one line on stderr


def test_the_tui_on_a_missing_file_is_one_line_and_exit_1(tmp_path: Path) -> None:
    # As `siftui render` says it, and without Textual: no screen is drawn, none is left.
    missing = tmp_path / "missing.pdf"
    assert one_line_error(siftui(missing), 1) == f"{missing}: no such file"
    assert one_line_error(siftui(tmp_path), 1) == f"{tmp_path}: is a directory, not a file"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "siftui", str(missing)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1 and b"textual" not in done.stderr


def test_document_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pdf"
    assert one_line_error(siftui("render", missing), 1) == f"{missing}: no such file"
    assert one_line_error(siftui("extract", missing), 1) == f"{missing}: no such file"
    assert one_line_error(siftui("render", tmp_path), 1) == (
        f"{tmp_path}: is a directory, not a file"
    )
    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)
    assert one_line_error(siftui("render", fifo), 1) == f"{fifo}: not a regular file"
    assert one_line_error(siftui("extract", fifo), 1) == f"{fifo}: not a regular file"
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    assert one_line_error(siftui("render", empty), 1) == f"{empty}: empty file, not a document"
    text = tmp_path / "text.pdf"
    text.write_text("just text\n", encoding="utf-8")
    assert one_line_error(siftui("render", text), 1).startswith(
        f"{text}: not a document siftui can read ("
    )
    noise = tmp_path / "noise.pdf"
    noise.write_bytes(b"%PDF-1.5\n" + bytes(range(256)) * 40)
    assert "not a document siftui can read" in one_line_error(siftui("render", noise), 1)
    zero = make_zero_page_pdf(tmp_path / "zero.pdf")
    assert one_line_error(siftui("render", zero), 1) == f"{zero}: the document has no pages"


def test_control_characters_never_break_the_line(rich_json: Path, tmp_path: Path) -> None:
    odd = tmp_path / "two\nlines.pdf"
    assert one_line_error(siftui("render", odd), 1) == f"{tmp_path}/two\\nlines.pdf: no such file"
    assert one_line_error(siftui("render", rich_json, "--pages", "1\n2"), 2) == (
        'invalid pages "1\\n2": use "a-b", "a" or "a-"'
    )
    out = tmp_path / "no\rdir" / "x.json"
    assert one_line_error(siftui("extract", rich_json, "-o", out), 1).endswith(
        "no\\rdir: no such directory"
    )


def test_unreadable_file(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "private.pdf", ["x"])
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("this user (root?) can read a file with mode 000")
        assert one_line_error(siftui("render", path), 1) == f"{path}: permission denied"
    finally:
        path.chmod(0o600)


def test_password_errors(tmp_path: Path) -> None:
    locked = make_encrypted_pdf(tmp_path / "locked.pdf", "the secret")
    assert one_line_error(siftui("render", locked), 1) == (
        f"{locked}: needs a password (use --password)"
    )
    assert one_line_error(siftui("render", locked, "--password", "no"), 1) == (
        f"{locked}: wrong password"
    )
    assert one_line_error(siftui("extract", locked, "--password", ""), 1) == (
        f"{locked}: wrong password"
    )
    opened = siftui("render", locked, "--password", USER_PASSWORD)
    assert opened.stdout == b"--- page 1 ---\n\nthe secret"


def test_bad_doc_json_is_a_document_error(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text('{"title": "x", "page_count": "many", "pages": []}', encoding="utf-8")
    assert one_line_error(siftui("render", path), 1) == (
        f'{path}: key "page_count": expected a whole number >= 0'
    )
    path.write_text("[]", encoding="utf-8")
    assert one_line_error(siftui("render", path), 1) == (
        f"{path}: not a Doc: expected a JSON object"
    )
    path.write_text("{oops", encoding="utf-8")
    assert one_line_error(siftui("render", path), 1).startswith(f"{path}: not valid JSON: ")


def test_extract_of_a_doc_json(rich: Path, tmp_path: Path) -> None:
    saved = tmp_path / "doc.json"
    saved.write_text(doc_to_json(extract(rich)), encoding="utf-8")
    assert "already a Doc JSON" in one_line_error(siftui("extract", saved), 1)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--pages", "x"), 'invalid pages "x": use "a-b", "a" or "a-"'),
        (("--pages", "1-2-3"), 'invalid pages "1-2-3": use "a-b", "a" or "a-"'),
        (("--pages", "٣"), 'invalid pages "٣": use "a-b", "a" or "a-"'),
        (("--pages", "9"), "pages out of range (1-5)"),
        (("--pages", "0-2"), "pages out of range (1-5)"),
        (
            ("--pages", "4-2"),
            'pages out of range (1-5): "4-2" is reversed: did you mean "2-4"?',
        ),
        (("--grep", "("), "invalid grep: missing ): ("),
        (("--grep", "a" * 201), "pattern longer than 200 bytes"),
        (("--pages", "x", "--grep", "("), 'invalid pages "x": use "a-b", "a" or "a-"'),
        (
            ("--outcap", "0"),
            BAD_OUTCAP + "'0'",
        ),
        (
            ("--outcap", "-5"),
            BAD_OUTCAP + "'-5'",
        ),
        (
            ("--outcap", "abc"),
            BAD_OUTCAP + "'abc'",
        ),
        (
            ("--outcap", "1e3"),
            BAD_OUTCAP + "'1e3'",
        ),
        (
            ("--outcap", "99999999999999999999"),
            BAD_OUTCAP + "'99999999999999999999'",
        ),
        (
            ("--outcap", "1000000001"),
            BAD_OUTCAP + "'1000000001'",
        ),
        (
            ("--outcap", "1.5G"),
            BAD_OUTCAP + "'1.5G'",
        ),
        (("--outcap",), "argument --outcap: expected one argument"),
        (("--max-pages", "-1"), "--max-pages must be >= 0, not -1"),
        (("--bogus",), "unrecognized arguments: --bogus"),
    ],
)
def test_render_option_errors(rich_json: Path, flags: tuple[str, ...], message: str) -> None:
    assert one_line_error(siftui("render", rich_json, *flags), 2) == message


def test_pages_out_of_range_from_a_pdf(rich: Path) -> None:
    assert one_line_error(siftui("render", rich, "--pages", "6-"), 2) == (
        "pages out of range (1-5)"
    )


@pytest.mark.parametrize(
    "flags",
    [("--grep", "("), ("--pages", "x"), ("--outcap", "0"), ("--grep", "é" * 101)],
)
def test_option_errors_come_before_the_document(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """A malformed option is reported (exit 2) without opening the document."""
    one_line_error(siftui("render", tmp_path / "missing.pdf", *flags), 2)


def test_missing_path() -> None:
    assert one_line_error(siftui("render"), 2) == "the following arguments are required: PATH"
    assert one_line_error(siftui("extract"), 2) == "the following arguments are required: PATH"
    assert one_line_error(siftui("render", "--outcap", "5"), 2) == (
        "the following arguments are required: PATH"
    )


def test_extract_option_errors(rich: Path) -> None:
    assert one_line_error(siftui("extract", rich, "--max-pages", "x"), 2) == (
        "argument --max-pages: not a whole number: 'x'"
    )
    assert one_line_error(siftui("extract", rich, "--max-pages", "-2"), 2) == (
        "--max-pages must be >= 0, not -2"
    )
    assert one_line_error(siftui("extract", rich, "--outcap", "5"), 2) == (
        "unrecognized arguments: --outcap 5"
    )


@pytest.mark.parametrize("command", ["render", "extract"])
def test_help(command: str) -> None:
    result = siftui(command, "--help")
    assert result.returncode == 0
    assert result.stderr == b""
    text = result.stdout.decode("utf-8")
    assert text.startswith(f"usage: siftui {command} ")
    assert "examples:" in text
    assert f"\n  siftui {command} thesis.pdf" in text


def test_top_level_help() -> None:
    result = siftui("--help")
    assert result.returncode == 0
    text = result.stdout.decode("utf-8")
    assert "siftui render FILE" in text and "examples:" in text


def test_pages_without_text_are_named_on_stderr(tmp_path: Path) -> None:
    doc = Doc("T", 4, ("one", "", "  \n ", "four"))
    path = tmp_path / "scan.json"
    path.write_text(doc_to_json(doc), encoding="utf-8")
    done = siftui("render", path)
    assert done.returncode == 0 and done.stdout == expected(doc, Options())
    assert done.stderr.decode() == (
        f"siftui: warning: {path}: pages 2, 3 have no text (they may be images; OCR with --ocr)\n"
    )
    one = siftui("render", path, "--pages", "3-4")
    assert one.stderr.decode() == (
        f"siftui: warning: {path}: page 3 has no text (it may be an image; OCR with --ocr)\n"
    )
    assert siftui("render", path, "--pages", "4").stderr == b""
    assert siftui("render", path, "--grep", "o").stderr == b""


@pytest.mark.skipif(not (CORPUS / "c03-29.pdf").is_file(), reason="corpus not present")
def test_an_image_only_page_of_the_corpus() -> None:
    done = siftui("render", CORPUS / "c03-29.pdf", "--no-cache")
    assert done.stdout == b"--- page 1 ---\n\n"
    assert done.stderr.decode() == (
        f"siftui: warning: {CORPUS / 'c03-29.pdf'}: page 1 has no text "
        "(it may be an image; OCR with --ocr)\n"
    )


@pytest.mark.parametrize(
    ("value", "shown"),
    [("1G", "'1G'"), ("-1", "'-1'"), ("1e9", "'1e9'"), ("9" * 5_000, "'" + "9" * 40 + "...'")],
    ids=["suffix", "negative", "float", "digits"],
)
@pytest.mark.parametrize("command", [["render"], [], ["mcp", "--root", "."]])
def test_a_cache_size_that_is_no_number_stops_the_command(
    rich: Path, value: str, shown: str, command: list[str]
) -> None:
    """SIFTUI_CACHE_MAX_BYTES=1G was taken as the default and -1 as no cache, silently:
    the user never learnt why the cache was not the size they set. Refused at start, in
    one line, by every command (the TUI's `siftui FILE` included)."""
    env = {**os.environ, "SIFTUI_CACHE_MAX_BYTES": value}
    done = siftui(*command, *([rich] if command != ["mcp", "--root", "."] else []), env=env)
    said = "SIFTUI_CACHE_MAX_BYTES must be a whole number of bytes (0 writes no cache), not "
    assert one_line_error(done, 2) == said + shown


@pytest.mark.parametrize("value", ["0", "1000", " 5000 ", ""])
def test_a_cache_size_in_bytes_is_taken(rich: Path, value: str) -> None:
    env = {**os.environ, "SIFTUI_CACHE_MAX_BYTES": value}
    done = siftui("render", rich, env=env)
    assert done.returncode == 0 and b"error" not in done.stderr, done.stderr
