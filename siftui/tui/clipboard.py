"""Putting the exact answer on a clipboard, and saying honestly what worked.

Two ways can reach a user: the terminal's clipboard through OSC 52 (works over
SSH and in tmux, but the terminal never answers, so it cannot be confirmed) and
the system clipboard through pyperclip (xclip, wl-copy, pbcopy, ...), which is
confirmed by reading the text back.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Literal

from siftui.sources.output import encode_utf8

# Many terminals drop OSC 52 payloads past roughly this many base64 bytes
# (xterm's and several emulators' defaults sit around 100 kB).
OSC52_SAFE_BYTES = 100_000


def osc52_too_large(text: str) -> bool:
    return (len(encode_utf8(text)) + 2) // 3 * 4 > OSC52_SAFE_BYTES


SYSTEM_SECONDS = 20.0
"""How long the system clipboard may take to take the text and give it back."""

READ_BACK_PAUSES = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)
"""Waits before reading the clipboard again when it did not give the text back: xclip and
wl-copy serve the text from a process they fork, which may hold the selection only a
moment after the copy has returned (xclip takes it before forking, but Xlib sends that
request at the child's next call), so a loaded machine's first read-back can find the old
text or none. About 3 s in all, within SYSTEM_SECONDS."""


def copy_system(text: str, seconds: float = SYSTEM_SECONDS) -> str | None:
    """Copy with pyperclip and read it back: None when confirmed, else why not.

    What is copied is what ``siftui render`` prints: a lone surrogate (not
    encodable) becomes U+FFFD, one for one, as in :func:`siftui.sources.output.encode_utf8`.
    pyperclip waits on its helper (xclip, wl-copy, ...) without a limit: a clipboard that
    has not answered within ``seconds`` is said to, and the copy is left to finish or not
    in a thread of its own, so the notice never waits on it.
    """
    outcome: list[str | None] = []
    thread = threading.Thread(
        target=lambda: outcome.append(_copy_and_read_back(text)),
        name="siftui-clipboard",
        daemon=True,
    )
    thread.start()
    thread.join(seconds)
    if not outcome:
        return f"the system clipboard did not answer within {seconds:g} s"
    return outcome[0]


def _copy_and_read_back(text: str) -> str | None:
    import pyperclip  # at the first copy, not at the start (with ctypes: about 3 ms)

    text = encode_utf8(text).decode("utf-8")
    try:
        pyperclip.copy(text)
        back = pyperclip.paste()
        for pause in READ_BACK_PAUSES:
            if back == text:
                break
            time.sleep(pause)
            back = pyperclip.paste()
    except pyperclip.PyperclipException as error:
        return _first_line(str(error)) or "no system clipboard"
    except (OSError, UnicodeError) as error:
        return _first_line(str(error)) or type(error).__name__
    if back != text:
        return "the system clipboard did not give the text back unchanged"
    return None


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0].split(". ", 1)[0]


@dataclass(frozen=True)
class CopyReport:
    """What a copy attempt achieved, and the one notification to show for it."""

    what: str
    runes: int  # the text's length in code points
    osc52_sent: bool
    osc52_too_large: bool
    system_error: str | None
    save_hint: str = "Press s to save it to a file."  # the key that saves what was copied
    utf8_bytes: int | None = None  # its length in UTF-8 bytes, said instead of runes when
    # the answer's OutCap counts bytes (a notice in runes beside a budget in bytes misleads)

    @property
    def confirmed(self) -> bool:
        return self.system_error is None

    @property
    def reached(self) -> bool:
        return self.confirmed or self.osc52_sent

    @property
    def severity(self) -> Literal["information", "warning", "error"]:
        if self.confirmed and not (self.osc52_sent and self.osc52_too_large):
            return "information"
        return "warning" if self.reached else "error"

    def message(self) -> str:
        size = f"{self.runes:,} runes" if self.utf8_bytes is None else f"{self.utf8_bytes:,} bytes"
        osc = "terminal clipboard (OSC 52, sent; terminals do not confirm)"
        large = (
            " This is larger than many terminals accept over OSC 52; the terminal may drop it."
            if self.osc52_sent and self.osc52_too_large
            else ""
        )
        if self.confirmed:
            ways = "system clipboard (checked)" + (f" and {osc}" if self.osc52_sent else "")
            return f"Copied {self.what}, {size}, to the {ways}.{large}"
        if self.osc52_sent:
            return (
                f"Sent {self.what}, {size}, to the {osc}; not confirmed. {self.save_hint}"
                f"{large} System clipboard: {self.system_error}."
            )
        return f"Not copied: no clipboard could be reached. {self.save_hint} ({self.system_error})"
