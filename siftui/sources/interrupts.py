"""What Ctrl-C does while siftui waits on code that would take it wrongly: one place that
puts a handler for SIGINT in and takes it out again, and the two uses of it.

- :func:`interrupt_after`: the hidden-text inspection draws each page through a device
  written in Python, which MuPDF calls back into (PyMuPDF's bindings: SWIG directors). A
  KeyboardInterrupt raised inside such a callback never reaches siftui: the bindings catch
  it, print their own traceback on stderr and turn it into a MuPDF error, so `siftui
  inspect` interrupted said a page "cannot be inspected", with that traceback, and exited
  1. Noted while MuPDF runs and raised once it has returned, the interruption is Python's
  own again.
- :func:`interrupted_as_our_own`: distributed's ``sync()`` answers a KeyboardInterrupt by
  scheduling a cancel of the future its coroutine makes, which can run before that
  coroutine has made it: a NameError that tornado logs with its traceback (one Ctrl-C in
  many). It lets any other exception through untouched, so a Dask audit waiting on its
  client is interrupted with :class:`Interrupted` instead.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["Interrupted", "interrupt_after", "interrupted_as_our_own"]

_Handler = Callable[[int, Any], None]


class Interrupted(BaseException):
    """Ctrl-C raised instead of KeyboardInterrupt (:func:`interrupted_as_our_own`); a
    BaseException, so that no ``except Exception`` on the way takes it for an error."""


@contextlib.contextmanager
def _sigint_handled_by(handler: _Handler) -> Iterator[Any]:
    """Within: ``handler`` answers SIGINT; yields the handler that was in place, put back
    on leaving. Only the main thread receives signals: in any other thread nothing changes
    (and None is yielded)."""
    if threading.current_thread() is not threading.main_thread():
        yield None
        return
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield previous
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def interrupt_after() -> Iterator[None]:
    """Within: a Ctrl-C is noted, not raised; on leaving, it goes to the handler that was
    in place before (Python's own raises KeyboardInterrupt; the default ends the process;
    an ignored one stays ignored)."""
    noted: list[int] = []
    try:
        with _sigint_handled_by(lambda signum, frame: noted.append(signum)) as previous:
            yield
    finally:  # the handler put back first; an error of the body's gives way to Ctrl-C
        if noted and callable(previous):
            previous(signal.SIGINT, None)
        elif noted and previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


@contextlib.contextmanager
def interrupted_as_our_own() -> Iterator[None]:
    """Within: Ctrl-C raises :class:`Interrupted` (a second one, after, is Python's own)."""

    def interrupt(signum: int, frame: Any) -> None:
        raise Interrupted

    with _sigint_handled_by(interrupt):
        yield
