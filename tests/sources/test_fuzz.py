"""Fuzzing: the CLI and the JSON round trip under Hypothesis, and extract() on damaged bytes.

tests/core/test_properties.py compares render() with the reference; here the same
docs and options go through the layers around it: Doc JSON on disk, `siftui
render` (in-process for hundreds of examples, as a real process for a few),
and extract() on seeded random mutations of corpus and generated PDFs, in a
child process so that a hang is caught and MuPDF's stderr is seen.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.doc_strategies import cases
from support.hostile import CORPUS

from siftui import cli
from siftui.core.doc import Doc
from siftui.core.docjson import doc_from_json, doc_to_json
from siftui.core.messages import quoted
from siftui.core.outcap import invalid_outcap
from siftui.core.render import (
    BadGrep,
    BadPages,
    Options,
    Rendered,
    render,
    reversed_pages_hint,
)
from siftui.core.textless import answer_textless, textless_warning
from siftui.sources.load import load_doc_report
from siftui.sources.output import encode_utf8, rendered_json

HERE = Path(__file__).resolve().parents[1]  # tests/, where hostile.py lives


def _outcome(doc: Doc, options: Options) -> Rendered | str:
    try:
        return render(doc, options)
    except (BadPages, BadGrep) as error:
        return str(error)
    except ValueError:
        return f"argument --outcap: {invalid_outcap(str(options.out_cap))}"


def _flags(options: Options) -> list[str]:
    # "--pages=..." keeps a value that starts with "-" a value, not an option
    return [f"--pages={options.pages}", f"--grep={options.grep}", f"--outcap={options.out_cap}"]


class _Kept(io.BytesIO):
    """A BytesIO that survives its TextIOWrapper being closed or collected."""

    def close(self) -> None:
        pass


@contextlib.contextmanager
def _captured() -> Iterator[tuple[io.BytesIO, io.StringIO]]:
    out, err = _Kept(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8")
    sys.stderr = err
    try:
        yield out, err
    finally:
        sys.stdout, sys.stderr = saved


def run_cli(args: Sequence[str]) -> tuple[int, bytes, str]:
    with _captured() as (out, err):
        code = cli.main(list(args))
        sys.stdout.flush()
    return code, out.getvalue(), err.getvalue()


def check_cli_answer(doc: Doc, options: Options, code: int, out: bytes, err: str) -> None:
    """What `siftui render` must print for a doc and options, as bytes."""
    expected = _outcome(doc, options)
    if isinstance(expected, str):
        # a bad option: exit 2, one line, the message as render gives it (escaped), and
        # for a reversed range the CLI's own hint after it (R3's message stays whole)
        hint = reversed_pages_hint(options.pages)
        if expected.startswith("pages out of range") and hint is not None:
            expected += f": {hint}"
        assert (code, out) == (2, b""), (code, err)
        assert err == f"siftui: error: {quoted(expected)}\n"
        return
    # pages the answer shows that have no text are named on stderr, in one line
    empty = answer_textless(doc, expected)
    said = f"{textless_warning(empty, 'OCR with --ocr')}" if empty else ""
    assert code == 0, err
    assert (err.count("\n"), said in err) == ((1, True) if empty else (0, True)), err
    assert out == encode_utf8(expected.content)


def write_json(doc: Doc, folder: Path) -> Path:
    path = folder / "doc.json"
    path.write_bytes(encode_utf8(doc_to_json(doc)))
    return path


def _cli_property(case: tuple[Doc, Options]) -> None:
    doc, options = case
    with tempfile.TemporaryDirectory() as folder:
        path = write_json(doc, Path(folder))
        loaded = load_doc_report(path).doc
        # Doc JSON on disk: the same Doc, but for lone surrogates (U+FFFD, one for one)
        assert loaded == doc_from_json(encode_utf8(doc_to_json(doc)).decode("utf-8"))
        assert [len(p) for p in loaded.pages] == [len(p) for p in doc.pages]
        # rendering the Doc read back gives the bytes rendering the original gives
        original, back = _outcome(doc, options), _outcome(loaded, options)
        if isinstance(original, str) or isinstance(back, str):
            assert original == back
        else:
            assert encode_utf8(back.content) == encode_utf8(original.content)
            assert (back.map, back.first, back.last, back.grep_hits) == (
                original.map,
                original.first,
                original.last,
                original.grep_hits,
            )
        code, out, err = run_cli(["render", str(path), *_flags(options)])
        check_cli_answer(loaded, options, code, out, err)
        if code == 0:
            code, out, json_err = run_cli(["render", str(path), "--json", *_flags(options)])
            assert (code, json_err) == (0, err)
            answer = render(loaded, options)
            assert json.loads(out) == json.loads(encode_utf8(rendered_json(answer)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_cli_render_of_doc_json(case: tuple[Doc, Options]) -> None:
    _cli_property(case)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_cli_render_of_doc_json_10000(case: tuple[Doc, Options]) -> None:
    _cli_property(case)


def _in_argv(text: str) -> bool:
    """Whether ``text`` can be a process's argument: bytes the OS holds (a lone surrogate
    outside surrogateescape's range has none; the in-process runs check those)."""
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        return False
    return True


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_cli_as_a_real_process(case: tuple[Doc, Options]) -> None:
    """A few examples through a real `python -m siftui`: the same bytes and exit codes."""
    doc, options = case
    assume("\x00" not in options.pages + options.grep)  # argv cannot hold a NUL
    assume(all(_in_argv(text) for text in (options.pages, options.grep)))
    with tempfile.TemporaryDirectory() as folder:
        path = write_json(doc, Path(folder))
        done = subprocess.run(
            [sys.executable, "-m", "siftui", "render", str(path), *_flags(options)],
            capture_output=True,
            timeout=60,
            check=False,
        )
        check_cli_answer(
            load_doc_report(path).doc, options, done.returncode, done.stdout, done.stderr.decode()
        )


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_any_text_as_a_doc_json_file(text: str) -> None:
    """Whatever a .json file holds: a Doc or one line on stderr with exit 1, no traceback."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.json"
        path.write_bytes(encode_utf8(text))
        code, out, err = run_cli(["render", str(path)])
        if code == 0:
            assert out == encode_utf8(render(load_doc_report(path).doc, Options()).content)
        else:
            assert code == 1 and out == b""
            assert err.startswith("siftui: error: ") and err.count("\n") == 1


# --------------------------------------------------------------------------
# extract() on mutated bytes, in a child process


_RUNNER = r"""
import json, os, sys, time, traceback, random
sys.path.insert(0, sys.argv[1])
from support.hostile import check_doc, check_renders, mutate
from siftui.sources.extract import ExtractError, extract
budget, seed, count, folder = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
sources = json.loads(sys.argv[6])
datas = [(name, open(path, "rb").read(), password) for name, path, password in sources]
rng = random.Random(seed)
tally, bugs, tried = {}, [], 0
deadline = time.monotonic() + budget
target = os.path.join(folder, "mutant.pdf")
while tried < count and time.monotonic() < deadline:
    name, data, password = datas[tried % len(datas)]
    kind, mutant = mutate(data, rng)
    with open(target, "wb") as handle:
        handle.write(mutant)
    with open(os.path.join(folder, "current"), "w") as handle:
        handle.write(f"{name} {kind} attempt {tried} seed {seed}")
    try:
        doc = extract(target, password=password)
        check_doc(doc)
        check_renders(doc)
        result = "doc"
    except ExtractError as error:
        message = str(error)
        result = type(error).__name__
        if "\n" in message or not message.startswith(target + ": "):
            bugs.append(f"{name} {kind} #{tried}: bad message {message!r}")
    except Exception as error:
        result = "BUG " + type(error).__name__
        lines = traceback.format_exc().strip().splitlines()
        bugs.append(f"{name} {kind} #{tried}: {type(error).__name__}: {error} at {lines[-3:]}")
    key = f"{name}|{kind}|{result}"
    tally[key] = tally.get(key, 0) + 1
    tried += 1
json.dump({"tried": tried, "tally": tally, "bugs": bugs}, sys.stdout)
"""


def _sources(folder: Path) -> list[tuple[str, str, str | None]]:
    from support.hostile import control_pdf, past_last_page_pdf, sample_pdf

    made: list[tuple[str, str, str | None]] = []
    for name, data in [
        ("sample", sample_pdf()),
        ("control", control_pdf()),
        ("outline", past_last_page_pdf()),
    ]:
        path = folder / f"{name}.pdf"
        path.write_bytes(data)
        made.append((name, str(path), None))
    passwords = {"libreoffice-writer-password.pdf": "openpassword"}
    for name in ("ksp-thesis.pdf", "sample-sigconf.pdf", "libreoffice-writer-password.pdf"):
        if (CORPUS / name).is_file():  # read in place by the child
            made.append((name, str(CORPUS / name), passwords.get(name)))
    return made


def byte_fuzz(folder: Path, seed: int, budget: float, count: int) -> dict[str, object]:
    sources = _sources(folder)
    work = folder / "work"
    work.mkdir()
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                _RUNNER,
                str(HERE),
                str(budget),
                str(seed),
                str(count),
                str(work),
                json.dumps(sources),
            ],
            capture_output=True,
            timeout=budget + 90,
            check=False,
            env=dict(os.environ, SIFTUI_CACHE_MAX_BYTES="0"),
        )
    except subprocess.TimeoutExpired:
        current = (work / "current").read_text()
        pytest.fail(f"extract() hung on a mutated PDF: {current} (kept in {work})")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-3000:]
    # MuPDF's own warnings are off (extract's quiet_pymupdf): nothing else may be said
    assert done.stderr == b"", done.stderr.decode("utf-8", "replace")[-3000:]
    report: dict[str, object] = json.loads(done.stdout)
    assert report["bugs"] == [], report["bugs"]
    print(json.dumps(report, indent=1))  # the tally, for the closing note (pytest -s)
    return report


def test_extract_on_mutated_pdfs(tmp_path: Path) -> None:
    """About 4 s of seeded mutations: an ExtractError with a one-line message or a valid Doc
    (the long runs are test_extract_on_mutated_pdfs_long)."""
    report = byte_fuzz(tmp_path, seed=20240601, budget=4.0, count=100_000)
    assert isinstance(report["tried"], int) and report["tried"] >= 20


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_extract_on_mutated_pdfs_long(tmp_path: Path, seed: int) -> None:
    report = byte_fuzz(tmp_path, seed=seed, budget=120.0, count=5_000)
    assert isinstance(report["tried"], int) and report["tried"] >= 100
