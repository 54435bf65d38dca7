"""What reaches a terminal: a document's or a log's escape sequences
and bidi controls are shown, never obeyed; a pipe still gets the exact bytes."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from support.pdfs import make_pdf

from siftui.core.messages import quoted
from siftui.core.terminal import terminal_text

HOSTILE = "title\x1b]0;pwned\x07 \x1b[2J \x9b31m \u202eevil\ttab\nnext"


def test_terminal_text_keeps_lines_and_tabs_and_shows_the_rest() -> None:
    shown = terminal_text(HOSTILE)
    assert shown == "title␛]0;pwned␇ ␛[2J <U+009B>31m <U+202E>evil\ttab\nnext"
    assert terminal_text("plain\ntext\t") == "plain\ntext\t"


def test_quoted_escapes_c1_and_bidi_as_well_as_c0() -> None:
    assert quoted("a\x1bb\x9bc\u202ed\ne") == "a\\x1bb\\x9bc\\u202ed\\ne"


def _on_a_terminal(*args: str) -> bytes:
    """stdout of `python -m siftui ARGS` written to a pseudo-terminal."""
    controller, terminal = pty.openpty()
    done = subprocess.run(
        [sys.executable, "-m", "siftui", *args],
        stdout=terminal,
        stderr=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    os.close(terminal)
    out = b""
    try:
        while chunk := os.read(controller, 1 << 16):
            out += chunk
    except OSError:  # the terminal's other end is closed: all was read
        pass
    os.close(controller)
    assert done.returncode == 0
    return out


def test_render_shows_a_pages_escape_sequences_on_a_terminal_only(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "hostile.pdf", ["before \x1b]52;c;Y3VybA==\x07 after"])
    piped = subprocess.run(
        [sys.executable, "-m", "siftui", "render", str(pdf)],
        capture_output=True,
        timeout=120,
        check=True,
    ).stdout
    shown = _on_a_terminal("render", str(pdf))
    assert b"\x1b]52;c;Y3VybA==\x07" in piped  # the agent's bytes, exactly
    assert b"\x1b" not in shown and b"\x07" not in shown
    assert "␛]52;c;Y3VybA==␇".encode() in shown
