"""End to end: the real app in a real terminal (tmux), and its copy landing in tmux.

Each test runs a private tmux server (its own socket, no config file) with
``set-clipboard on``, so the OSC 52 sequence the app writes on ``c`` becomes a
tmux paste buffer. The buffer's bytes must equal ``siftui render`` stdout exactly.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,  # the real app in tmux: run by `pytest -m slow` (CI runs it)
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not on PATH"),
]

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
KSP = CORPUS / "ksp-thesis.pdf"
LSHORT = CORPUS / "lshort-zh-cn.pdf"

WIDTH, HEIGHT = 120, 40
START_TIMEOUT = 30.0
STEP_TIMEOUT = 15.0
POLL = 0.05
COPY_FOOTER = "c Copy"  # the footer shows the app's keys only while the view has focus


def corpus_file(path: Path) -> Path:
    if not path.is_file():
        pytest.skip(f"corpus file missing: {path} (shared/ must sit beside the repo)")
    return path


def app_env() -> dict[str, str]:
    """The test's environment for the tmux server and the app, made hermetic.

    No DISPLAY / WAYLAND_DISPLAY, so pyperclip cannot touch the user's real
    clipboard; no TMUX, so running the tests inside tmux does not matter; no
    COLUMNS / LINES (pytest-xdist workers carry 80 / 24), which Textual would
    believe over the pane's real size.
    """
    env = dict(os.environ)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "TMUX_PANE", "COLUMNS", "LINES"):
        env.pop(name, None)
    env["TERM"] = "xterm-256color"
    return env


def render_bytes(path: Path, *args: str) -> bytes:
    """What ``siftui render`` prints: the exact bytes the copy must hold."""
    done = subprocess.run(
        [sys.executable, "-m", "siftui", "render", str(path), *args],
        capture_output=True,
        env=app_env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert done.stdout, "siftui render printed nothing"
    return done.stdout


class TmuxApp:
    """siftui running in one pane of a private tmux server."""

    def __init__(self, socket: str, workdir: Path) -> None:
        self.socket = socket
        self.workdir = workdir
        self.env = app_env()
        self.pane = ""
        self.screens: list[str] = []  # every capture, to look for tracebacks

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            env=self.env,
            cwd=self.workdir,
            timeout=10,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"tmux {' '.join(args)} failed ({done.returncode}): "
                + done.stderr.decode("utf-8", "replace")
            )
        return done

    def start(self, path: Path | str, *more: str) -> None:
        """``siftui PATH MORE...`` in the pane. One command list: the options are set on
        the new server before the session (and so the app) starts."""
        done = self.tmux(
            *("set-option", "-g", "set-clipboard", "on", ";"),
            *("set-option", "-g", "default-terminal", "xterm-256color", ";"),
            *("set-option", "-g", "remain-on-exit", "on", ";"),
            *("set-option", "-g", "history-limit", "5000", ";"),
            *("new-session", "-d", "-s", "siftui", "-x", str(WIDTH), "-y", str(HEIGHT)),
            *("-c", str(self.workdir), "-P", "-F", "#{pane_id}"),
            *(sys.executable, "-m", "siftui", str(path), *more),
        )
        self.pane = done.stdout.decode().strip()
        assert self.pane.startswith("%"), done.stdout
        assert self.tmux("show-options", "-gv", "set-clipboard").stdout.strip() == b"on"

    def kill(self) -> None:
        self.tmux("kill-server", check=False)

    # ------------------------------------------------------------- looking

    def capture(self, history: bool = False) -> str:
        args = ["capture-pane", "-p", "-J", "-t", self.pane]
        if history:
            args += ["-S", "-"]
        screen = self.tmux(*args).stdout.decode("utf-8", "replace")
        self.screens.append(screen)
        return screen

    def wait_for(self, ready: Callable[[str], bool], what: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.capture()
            assert "Traceback" not in screen, screen
            if ready(screen):
                return screen
            if self.dead():
                raise AssertionError(f"the app exited while waiting for {what}:\n{screen}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} after {timeout:.0f} s; the screen:\n{screen}")
            time.sleep(POLL)

    def wait_text(self, *texts: str, timeout: float = STEP_TIMEOUT) -> str:
        return self.wait_for(lambda s: all(t in s for t in texts), repr(texts), timeout)

    def pane_state(self) -> tuple[bool, str | None]:
        """Whether the pane is dead, and how the app ended ("status N", "signal N")."""
        out = self.tmux(
            "display-message",
            "-p",
            "-t",
            self.pane,
            "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}",
        )
        dead, status, signal_number = out.stdout.decode().strip().split("|")
        if status:
            return dead == "1", f"status {status}"
        if signal_number:
            return dead == "1", f"signal {signal_number}"
        return dead == "1", None

    def dead(self) -> bool:
        return self.pane_state()[0]

    def exit_status(self, timeout: float) -> str:
        """How the app ended, once tmux knows.

        tmux marks the pane dead when the pty closes and learns the status when
        it reaps the process on SIGCHLD. Debian's tmux (libutempter) can miss that
        SIGCHLD when the child exits while utempter's own handler is installed,
        leaving the app a zombie and the status empty for good (tmux issue #311;
        seen here with tmux 3.3a even for ``sleep``). The known workaround: send
        SIGCHLD to our own private server so it runs its waitpid loop again.
        """
        server = int(self.tmux("display-message", "-p", "#{pid}").stdout.decode().strip())
        deadline = time.monotonic() + timeout
        nudge = time.monotonic() + 0.5
        while (how := self.pane_state()[1]) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"no exit status from tmux ({self.describe()})")
            if time.monotonic() > nudge:
                os.kill(server, signal.SIGCHLD)
                nudge = time.monotonic() + 0.5
            time.sleep(POLL)
        return how

    def describe(self) -> str:
        """The pane's state and the app process, for failure messages."""
        out = (
            self.tmux(
                "display-message",
                "-p",
                "-t",
                self.pane,
                "pane_dead=#{pane_dead} status=#{pane_dead_status} pid=#{pane_pid}",
            )
            .stdout.decode()
            .strip()
        )
        pid = out.rpartition("pid=")[2]
        ps = subprocess.run(
            ["ps", "-L", "-o", "pid,ppid,lwp,stat,wchan:30,etime,args", "-p", pid],
            capture_output=True,
            check=False,
        )
        return out + "\n" + ps.stdout.decode("utf-8", "replace")

    # -------------------------------------------------------------- acting

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.pane, *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.pane, "-l", text)

    def buffers(self) -> list[str]:
        out = self.tmux("list-buffers", "-F", "#{buffer_name}", check=False)
        return out.stdout.decode().split()

    def copy(self) -> bytes:
        """Press c; the bytes of the paste buffer the app's OSC 52 created."""
        self.wait_text(COPY_FOOTER)  # the view has focus: c is the copy key
        before = set(self.buffers())
        self.keys("c")
        deadline = time.monotonic() + STEP_TIMEOUT
        while not (new := [b for b in self.buffers() if b not in before]):
            if time.monotonic() > deadline:
                screen = self.capture()
                raise AssertionError(f"c made no tmux paste buffer (OSC 52 lost):\n{screen}")
            time.sleep(POLL)
        assert len(new) == 1, f"one c, several buffers: {new}"
        return self.tmux("show-buffer", "-b", new[0]).stdout

    def ask_pages(self, pages: str) -> str:
        """p, type the range, wait for its answer, escape back to the view."""
        self.keys("p")
        # The pages input has focus once the footer drops the app's letter keys.
        self.wait_for(lambda s: COPY_FOOTER not in s, "the pages input focused", STEP_TIMEOUT)
        self.type(pages)
        screen = self.wait_text(f"what the agent receives · pages {pages}")
        self.keys("Escape")
        self.wait_text(COPY_FOOTER)
        return screen

    def quit(self) -> None:
        """q; the pane must die with status 0 and no traceback anywhere."""
        self.keys("q")
        deadline = time.monotonic() + STEP_TIMEOUT
        while not self.dead():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"q did not end the app ({self.describe()}):\n{self.capture()}"
                )
            time.sleep(POLL)
        status = self.exit_status(STEP_TIMEOUT)
        after = self.capture(history=True)
        assert status == "status 0", f"the app ended with {status}:\n{after}"
        for screen in self.screens:
            assert "Traceback" not in screen, screen


@pytest.fixture
def tmux_app(tmp_path: Path) -> Iterator[TmuxApp]:
    app = TmuxApp(f"siftui-e2e-{os.getpid()}-{uuid.uuid4().hex[:10]}", tmp_path)
    try:
        yield app
    finally:
        app.kill()


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

    screen = tmux_app.ask_pages("3-4")
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

    screen = tmux_app.ask_pages("5-6")
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
    screen = tmux_app.wait_text("what the agent receives · range P40..P60")
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
