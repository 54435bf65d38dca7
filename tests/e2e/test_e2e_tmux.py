"""End to end: the real app in a real terminal (tmux), and its copy landing in tmux.

Each test runs a private tmux server (its own socket, no config file) with
``set-clipboard on``, so the OSC 52 sequence the app writes on ``c`` becomes a
tmux paste buffer. The buffer's bytes must equal ``siftui render`` stdout exactly.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest
from support.tmux_app import (
    COPY_FOOTER,
    CORPUS,
    KSP,
    LSHORT,
    POLL,
    START_TIMEOUT,
    STEP_TIMEOUT,
    TmuxApp,
    corpus_file,
    render_bytes,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,  # the real app in tmux: run by `pytest -m slow` (CI runs it)
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not on PATH"),
]


def counter_line(content: bytes, out_cap: int = 100_000) -> str:
    return f"{len(content.decode('utf-8')):,} / {out_cap:,} runes"


def test_ksp_thesis_view_copy_pages_quit(tmux_app: TmuxApp) -> None:
    path = corpus_file(KSP)
    full = render_bytes(path)
    pages = render_bytes(path, "--pages", "3-4")
    assert full.startswith(b"--- page 1 ---\n")

    tmux_app.start(path)
    screen = tmux_app.wait_text(
        "--- page 1 ---", "The ksp-thesis class", COPY_FOOTER, timeout=START_TIMEOUT
    )
    assert "siftui — ksp-thesis.pdf" in screen
    assert "OutCap" in screen
    assert counter_line(full) in screen
    assert "what the agent receives · full text" in screen
    assert "q Quit" in screen

    assert tmux_app.copy() == full

    screen = tmux_app.ask_pages("3-4", counter_line(pages))
    assert "--- page 3 ---" in screen
    assert counter_line(pages) in screen
    assert tmux_app.copy() == pages

    tmux_app.quit()


def test_cjk_map_and_pages_copy(tmux_app: TmuxApp) -> None:
    path = corpus_file(LSHORT)
    the_map = render_bytes(path)
    pages = render_bytes(path, "--pages", "5-6")
    title = "# The Short Introduction to LaTeX2e (Chinese Simplified)"
    assert the_map.decode("utf-8").startswith(title + "\n")
    assert re.search("[\u4e00-\u9fff]", pages.decode("utf-8")), "expected CJK in pages 5-6"

    tmux_app.start(path)
    screen = tmux_app.wait_text(title, COPY_FOOTER, timeout=START_TIMEOUT)
    assert "what the agent receives · map" in screen
    assert counter_line(the_map) in screen
    assert tmux_app.copy() == the_map

    screen = tmux_app.ask_pages("5-6", counter_line(pages))
    assert "--- page 5 ---" in screen
    assert "英文版致谢" in screen
    assert counter_line(pages) in screen
    assert tmux_app.copy() == pages

    tmux_app.quit()


SIGCONF = CORPUS / "sample-sigconf.pdf"


def test_open_another_file_then_save_is_that_files_answer(tmux_app: TmuxApp) -> None:
    """o + a new file, then s: the file holds exactly `siftui render NEWFILE --outcap <cap>`."""
    first, other = corpus_file(KSP), corpus_file(SIGCONF)
    expected = render_bytes(other, "--outcap", "60000")

    tmux_app.start(first)
    tmux_app.wait_text("--- page 1 ---", COPY_FOOTER, timeout=START_TIMEOUT)
    tmux_app.keys("[", "[")  # OutCap 100,000 -> 80,000 -> 60,000: kept across the open
    tmux_app.wait_text("/ 60,000 runes")
    tmux_app.ask_pages("3-4")  # pages and grep are cleared by the open
    tmux_app.keys("o")
    here = tmux_app.workdir.name + "/"
    tmux_app.wait_text("Open a document", here)  # the dialog starts in the current directory
    tmux_app.keys("C-u")
    tmux_app.wait_for(lambda s: here not in s, "the input cleared", STEP_TIMEOUT)
    tmux_app.type(str(other))
    tmux_app.wait_text(other.name)
    tmux_app.keys("Enter")
    screen = tmux_app.wait_text(
        "siftui — sample-sigconf.pdf", COPY_FOOTER, "/ 60,000 runes", timeout=START_TIMEOUT
    )
    assert counter_line(expected, 60_000) in screen
    assert "3-4" not in screen.split("\n")[1]  # the Pages input is empty again
    tmux_app.keys("s")
    tmux_app.wait_text("Save the answer of sample-sigconf.pdf")
    tmux_app.keys("Enter")
    saved = tmux_app.workdir / "sample-sigconf.agent-view.txt"
    deadline = time.monotonic() + STEP_TIMEOUT
    while not saved.exists() and time.monotonic() < deadline:
        time.sleep(POLL)
    assert saved.read_bytes() == expected
    tmux_app.quit()


def test_keys_typed_at_launch_reach_the_app(tmux_app: TmuxApp) -> None:
    """Keys typed before the app has drawn anything act as keys, never as Pages text."""
    path = corpus_file(KSP)
    tmux_app.start(path)
    tmux_app.keys("]")
    tmux_app.type("xy")
    screen = tmux_app.wait_text("--- page 1 ---", "/ 120,000 runes", timeout=START_TIMEOUT)
    request_line = next(line for line in screen.split("\n") if "Pages" in line)
    assert "xy" not in request_line and "]" not in request_line
    assert "invalid pages" not in screen
    tmux_app.quit()


def test_word_document_range_and_anchor_copy(tmux_app: TmuxApp) -> None:
    """A real third-party .docx in the real app: its first answer, a typed range and the
    window Enter asks for copy exactly what `siftui render FILE.docx` prints."""
    path = corpus_file(CORPUS.parent / "corpus-docx" / "stress018.docx")
    first = render_bytes(path)
    ranged = render_bytes(path, "--range", "P40..P60")

    tmux_app.start(path)
    screen = tmux_app.wait_text("Range", "Anchor", "Scope", COPY_FOOTER, timeout=START_TIMEOUT)
    assert "Pages a-b" not in screen and "siftui — stress018.docx" in screen
    assert counter_line(first) in screen
    assert tmux_app.copy() == first

    tmux_app.keys("p")
    tmux_app.wait_for(lambda s: COPY_FOOTER not in s, "the range input focused", STEP_TIMEOUT)
    tmux_app.type("P40..P60")
    screen = tmux_app.wait_text("what the agent receives · range P40..P60", counter_line(ranged))
    assert counter_line(ranged) in screen
    tmux_app.keys("Escape")
    tmux_app.wait_text(COPY_FOOTER)
    assert tmux_app.copy() == ranged

    # Enter in the view asks for the window of the first anchor in view.
    tmux_app.keys("Enter")
    screen = tmux_app.wait_text("what the agent receives · window of P")
    anchor = screen.split("window of ", 1)[1].split()[0]
    assert re.fullmatch(r"P[0-9]+#[0-9a-f]{4}", anchor), anchor
    assert tmux_app.copy() == render_bytes(path, "--anchor", anchor)
    tmux_app.quit()


PGF = CORPUS / "pgfmanual.pdf"


def extraction_processes(cache: Path) -> list[int]:
    """The extraction processes (and their helpers) started with ``cache`` as theirs."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
            environment = (entry / "environ").read_bytes()
        except OSError:
            continue
        if b"siftui.sources." in command and f"XDG_CACHE_HOME={cache}".encode() in environment:
            found.append(int(entry.name))
    return found


def test_a_cold_open_reads_in_its_own_process_then_copies_the_render_bytes(
    tmux_app: TmuxApp, tmp_path: Path
) -> None:
    """pgfmanual with an empty cache: the loader's line counts the pages read (in the
    extraction process), the first answer is `siftui render`'s bytes, and the cache
    holds the file once the pages are handed over."""
    path = corpus_file(PGF)
    expected = render_bytes(path)  # through the session's cache, not the app's
    cache = tmp_path / "cold-cache"
    tmux_app.env["XDG_CACHE_HOME"] = str(cache)
    tmux_app.start(path)
    tmux_app.wait_text("opening pgfmanual.pdf · page", " of 1,321 ", timeout=START_TIMEOUT)
    assert extraction_processes(cache)
    tmux_app.wait_text(COPY_FOOTER, "/ 100,000 runes", "what the agent receives · map")
    assert tmux_app.copy() == expected
    tmux_app.wait_for(lambda s: any(cache.glob("siftui/*.doc")), "the cache entry", 30)
    tmux_app.quit()


def test_q_during_a_cold_open_quits_and_stops_the_reading(
    tmux_app: TmuxApp, tmp_path: Path
) -> None:
    """q while pgfmanual opens: the app ends with status 0, its extraction process ends
    too without writing the cache (before, the app waited for the last page)."""
    path = corpus_file(PGF)
    cache = tmp_path / "cold-cache"
    tmux_app.env["XDG_CACHE_HOME"] = str(cache)
    tmux_app.start(path)
    tmux_app.wait_text("opening pgfmanual.pdf · page", timeout=START_TIMEOUT)
    tmux_app.quit()
    deadline = time.monotonic() + STEP_TIMEOUT
    while extraction_processes(cache):
        assert time.monotonic() < deadline, "the extraction process outlived the app"
        time.sleep(POLL)
    assert not any(cache.glob("siftui/*.doc"))
