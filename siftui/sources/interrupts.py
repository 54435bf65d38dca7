"""Ctrl-C while MuPDF runs siftui's own Python callbacks waits until MuPDF returns.

The hidden-text inspection draws each page through a device written in Python, which
MuPDF calls back into (PyMuPDF's bindings: SWIG directors). A KeyboardInterrupt raised
inside such a callback never reaches siftui: the bindings catch it, print their own
traceback on stderr and turn it into a MuPDF error, so `siftui inspect` interrupted
said a page "cannot be inspected", with that traceback, and exited 1. Noted while MuPDF
runs and raised once it has returned, the interruption is Python's own again.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

__all__ = ["interrupt_after"]


@contextlib.contextmanager
def interrupt_after() -> Iterator[None]:
    """Within: a Ctrl-C is noted, not raised; on leaving, it goes to the handler that was
    in place before (Python's own raises KeyboardInterrupt; the default ends the process;
    an ignored one stays ignored). Only the main thread receives signals: in any other
    thread nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if noted and callable(previous):
            previous(signal.SIGINT, None)
        elif noted and previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)
