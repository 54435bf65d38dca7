"""Peak RSS of the real TUI on a large PDF, measured with /usr/bin/time -v.

    python bench/tui_memory.py [PDF]

Runs `siftui PDF` in a private tmux server with an empty extraction cache,
waits for the view, steps OutCap, greps, opens the walk, quits; then prints
the TUI's maximum resident set size beside its memory bound: three times
(the text's size + a bare PyMuPDF process that opened the file). Needs tmux and
GNU time (Debian packages tmux, time). Run by hand.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def max_rss_kb(report: str) -> int:
    for line in report.splitlines():
        if "Maximum resident set size" in line:
            return int(line.rsplit(":", 1)[1])
    raise ValueError("no 'Maximum resident set size' in the report")


def main() -> None:
    pdf = Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS / "pgfmanual.pdf"
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "time.txt"
        socket = f"siftui-rss-{os.getpid()}"
        tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
        command = (
            f"env -u COLUMNS -u LINES XDG_CACHE_HOME={folder}/cache "
            f"/usr/bin/time -v -o {report} {sys.executable} -m siftui {pdf}"
        )
        subprocess.run([*tmux, "new-session", "-d", "-x", "140", "-y", "40", command], check=True)
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                screen = subprocess.run(
                    [*tmux, "capture-pane", "-p"], capture_output=True, text=True
                ).stdout
                if "what the agent receives" in screen and "runes" in screen:
                    break
                time.sleep(0.5)
            for keys in (["]"], ["/"], ["node"], ["Escape"], ["w"], ["Escape"], ["q"]):
                subprocess.run([*tmux, "send-keys", *keys], check=True)
                time.sleep(2)
            while not report.exists() or "Maximum resident" not in report.read_text():
                if time.monotonic() > deadline + 60:
                    raise TimeoutError("the TUI did not quit")
                time.sleep(0.5)
        finally:
            subprocess.run([*tmux, "kill-server"], capture_output=True)
        tui_kb = max_rss_kb(report.read_text())
    probe = (
        "import pymupdf, sys; d = pymupdf.open(sys.argv[1]); "
        "print(sum(len(p.get_text()) for p in d))"
    )
    bare = subprocess.run(
        ["/usr/bin/time", "-v", sys.executable, "-c", probe, str(pdf)],
        capture_output=True,
        text=True,
        check=True,
    )
    text_runes = int(bare.stdout.strip())
    bare_kb = max_rss_kb(bare.stderr)
    bound_kb = 3 * (text_runes // 1024 + bare_kb)
    print(f"{pdf.name}: text {text_runes:,} runes; load {os.getloadavg()}")
    print(f"TUI peak RSS (cold cache, OutCap step, grep, walk):   {tui_kb / 1024:7.1f} MiB")
    print(f"bare PyMuPDF process that read every page:            {bare_kb / 1024:7.1f} MiB")
    print(f"bound 3 x (text + PyMuPDF baseline):                   {bound_kb / 1024:7.1f} MiB")
    print(f"TUI / bound {tui_kb / bound_kb:.2f} (target < 1)")


if __name__ == "__main__":
    main()
