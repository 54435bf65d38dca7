"""The real app in a real terminal: a private tmux server per test (its own socket,
no config file, ``set-clipboard on``, so the OSC 52 sequence the app writes on ``c``
becomes a tmux paste buffer), driven by keys and read from the screen. Used by the
end-to-end tests in tests/e2e/ (their fixture ``tmux_app`` is in its conftest.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

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
                raise AssertionError(
                    f"no {what} after {timeout:.0f} s ({self.describe()}); the screen:\n{screen}"
                )
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
        """The pane's state, and the app process's threads (what each waits on) and its
        children's (a clipboard helper, say), for failure messages."""
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
            [
                "ps",
                "-L",
                "-o",
                "pid,ppid,lwp,stat,wchan:30,etime,args",
                "-p",
                pid,
                "--ppid",
                pid,
            ],
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

    def ask_pages(self, pages: str, *shown: str) -> str:
        """p, type the range, wait for its answer (its title, and ``shown``: the view's
        title and the counter are widgets of their own, which may be painted in
        different frames), escape back to the view."""
        self.keys("p")
        # The pages input has focus once the footer drops the app's letter keys.
        self.wait_for(lambda s: COPY_FOOTER not in s, "the pages input focused", STEP_TIMEOUT)
        self.type(pages)
        screen = self.wait_text(f"what the agent receives · pages {pages}", *shown)
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
