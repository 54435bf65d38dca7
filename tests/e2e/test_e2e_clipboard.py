"""The real clipboard: the app in tmux under Xvfb, `c`, then `xclip -o` and the tmux buffer.

Each test starts its own Xvfb (a free display found with -displayfd) and its
own tmux server. The X clipboard must hold exactly the bytes of `siftui
render` for the same options; with `set-clipboard on`, so must the tmux
buffer the OSC 52 sequence made. Without DISPLAY and with OSC 52 off, the app
must not claim a copy and must offer to save.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.hostile import emoji_doc, megabyte_doc
from support.tmux_app import (
    COPY_FOOTER,
    KSP,
    LSHORT,
    START_TIMEOUT,
    STEP_TIMEOUT,
    TmuxApp,
    corpus_file,
    render_bytes,
)

from siftui.core.docjson import doc_to_json
from siftui.sources.output import encode_utf8

MISSING = [tool for tool in ("tmux", "Xvfb", "xclip") if shutil.which(tool) is None]
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,  # the real app in tmux: run by `pytest -m slow` (CI runs it)
    pytest.mark.skipif(bool(MISSING), reason=f"not on PATH: {', '.join(MISSING)}"),
]


@pytest.fixture
def display() -> Iterator[str]:
    """A private X server; its display name (":N")."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "320x200x24"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read, "rb") as pipe:
            number = pipe.readline().strip().decode()
        if not number.isdigit():
            pytest.skip("Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


class ClipApp(TmuxApp):
    def start_with(self, path: Path, *, osc52: bool) -> None:
        done = self.tmux(
            *("set-option", "-g", "set-clipboard", "on" if osc52 else "off", ";"),
            *("set-option", "-g", "default-terminal", "xterm-256color", ";"),
            *("set-option", "-g", "remain-on-exit", "on", ";"),
            *("new-session", "-d", "-s", "siftui", "-x", "120", "-y", "40"),
            *("-c", str(self.workdir), "-P", "-F", "#{pane_id}"),
            *(sys.executable, "-m", "siftui", str(path)),
        )
        self.pane = done.stdout.decode().strip()

    def xclip(self) -> bytes:
        done = subprocess.run(
            ["xclip", "-selection", "clipboard", "-o"],
            capture_output=True,
            env=self.env,
            timeout=30,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def copy_both(self) -> tuple[bytes, bytes | None]:
        """c; the X clipboard once the app reports the copy, and the new tmux buffer."""
        self.wait_text(COPY_FOOTER)
        before = set(self.buffers())
        seen = len(self.screens)
        self.keys("c")
        try:
            self.wait_text("Copied", timeout=60)
        except AssertionError as failure:
            raise AssertionError(f"{failure}\n{self.notices_since(seen)}") from None
        deadline = time.monotonic() + 5
        new: list[str] = []
        while not new and time.monotonic() < deadline:
            new = [b for b in self.buffers() if b not in before]
            time.sleep(0.05)
        buffer = self.tmux("show-buffer", "-b", new[0]).stdout if new else None
        return self.xclip(), buffer

    def notices_since(self, seen: int) -> str:
        """Each notice on the screens captured since ``seen``, whole: a copy's notice shows
        for 8 s, so a wait that missed "Copied" may have passed another one."""
        notices: list[str] = []
        for screen in self.screens[seen:]:
            # A notice is drawn at the right, each of its lines after a "▌".
            lines = [line.partition("▌")[2].strip(" │─╭╮╰╯") for line in screen.splitlines()]
            text = " ".join(line for line in lines if line)
            if text and text not in notices:
                notices.append(text)
        shown = "\n".join(notices) or "(none)"
        return f"notices seen in {len(self.screens) - seen} screens since c:\n{shown}"

    def set_outcap(self, value: int) -> None:
        """Tab from the pages input to the OutCap number, type it, Enter."""
        self.keys("p")
        self.wait_for(lambda s: COPY_FOOTER not in s, "the pages input focused", STEP_TIMEOUT)
        for _ in range(3):  # grep, slider, the exact number
            self.keys("Tab")
            time.sleep(0.2)
        # End arrives as an escape sequence; a split one reads as Escape: BSpace only
        self.keys(*["BSpace"] * len("100000"))  # the input starts at the default
        self.wait_for(lambda s: " 100000" not in s, "the OutCap input emptied", STEP_TIMEOUT)
        self.type(str(value))
        self.wait_text(f" {value}", timeout=STEP_TIMEOUT)
        self.keys("Enter")
        self.wait_text(f"/ {value:,} runes", timeout=60)
        self.keys("Escape")


@pytest.fixture
def clip_app(tmp_path: Path, display: str) -> Iterator[ClipApp]:
    app = ClipApp(f"siftui-clip-{os.getpid()}-{uuid.uuid4().hex[:10]}", tmp_path)
    app.env["DISPLAY"] = display
    try:
        yield app
    finally:
        app.kill()


def test_ascii_and_chinese(clip_app: ClipApp) -> None:
    path = corpus_file(KSP)
    expected = render_bytes(path)
    clip_app.start_with(path, osc52=True)
    clip_app.wait_text("--- page 1 ---", COPY_FOOTER, timeout=START_TIMEOUT)
    x_clip, buffer = clip_app.copy_both()
    assert x_clip == expected
    assert buffer == expected
    clip_app.quit()


def test_chinese_pages(clip_app: ClipApp) -> None:
    path = corpus_file(LSHORT)
    expected = render_bytes(path, "--pages", "5-6")
    clip_app.start_with(path, osc52=True)
    clip_app.wait_text(COPY_FOOTER, timeout=START_TIMEOUT)
    clip_app.ask_pages("5-6")
    x_clip, buffer = clip_app.copy_both()
    assert "英文版致谢" in x_clip.decode("utf-8")
    assert x_clip == expected
    assert buffer == expected
    clip_app.quit()


def test_emoji(clip_app: ClipApp, tmp_path: Path) -> None:
    path = tmp_path / "emoji.json"
    path.write_bytes(encode_utf8(doc_to_json(emoji_doc())))
    expected = render_bytes(path)
    clip_app.start_with(path, osc52=True)
    clip_app.wait_text(COPY_FOOTER, timeout=START_TIMEOUT)
    x_clip, buffer = clip_app.copy_both()
    assert "👨‍👩‍👧‍👦" in x_clip.decode("utf-8")
    assert x_clip == expected
    assert buffer == expected
    clip_app.quit()


def test_one_megabyte(clip_app: ClipApp, tmp_path: Path) -> None:
    """~1 MB: the X clipboard holds it all. tmux 3.3a drops an OSC 52 this large (its
    input buffer stops at 1 MiB of escape sequence), so its buffer is only reported."""
    path = tmp_path / "mega.json"
    path.write_bytes(encode_utf8(doc_to_json(megabyte_doc())))
    expected = render_bytes(path, "--outcap", "1000000")
    assert len(expected) > 900_000
    clip_app.start_with(path, osc52=True)
    clip_app.wait_text(COPY_FOOTER, timeout=START_TIMEOUT)
    clip_app.set_outcap(1_000_000)
    x_clip, buffer = clip_app.copy_both()
    assert x_clip == expected
    print(
        f"1 MB copy: {len(expected)} bytes; tmux buffer: {None if buffer is None else len(buffer)}"
    )
    if buffer is not None:  # a terminal that took it must have taken it exactly
        assert buffer == expected
    clip_app.quit()


def test_no_clipboard_reachable_says_so(tmp_path: Path) -> None:
    """No DISPLAY, OSC 52 ignored by the terminal: never "Copied", and an offer to save."""
    path = corpus_file(KSP)
    app = ClipApp(f"siftui-noclip-{os.getpid()}-{uuid.uuid4().hex[:10]}", tmp_path)
    try:
        app.start_with(path, osc52=False)
        app.wait_text(COPY_FOOTER, timeout=START_TIMEOUT)
        before = set(app.buffers())
        app.keys("c")
        screen = app.wait_text("save", timeout=STEP_TIMEOUT)
        assert "Copied" not in screen
        time.sleep(0.5)
        screen = app.capture()
        assert "Copied" not in screen and "save" in screen
        assert set(app.buffers()) == before  # set-clipboard off: no buffer
        app.quit()
    finally:
        app.kill()
