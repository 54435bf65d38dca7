"""A save's wait for the person's decision (E19): progress every 5 s, then the timeout."""

from __future__ import annotations

from concurrent.futures import CancelledError, Future

from siftui.serve.worker import Progress

PROGRESS_SECONDS = 5.0
DEFAULT_APPROVAL_TIMEOUT = 300.0
DECLINED = "the save was declined in the reader (the draft is kept)"
CLOSED = "the reader has closed (the draft is kept)"


def waited_out(timeout: float) -> str:
    return f"no decision in the reader within {timeout:g} s (the draft is kept)"


def await_decision(
    decision: Future[bool],
    timeout: float,
    progress: Progress | None,
    every: float = PROGRESS_SECONDS,
) -> str | None:
    """None once the person approved; else the line the call answers (declined, no
    decision within ``timeout`` seconds: the request is then withdrawn, or the reader
    withdrew it). ``progress`` is told the seconds waited every ``every`` seconds."""
    waited = 0.0
    while True:
        step = min(every, timeout - waited)
        try:
            approved = decision.result(timeout=max(step, 0.0))
        except CancelledError:
            return CLOSED
        except TimeoutError:
            waited += step
            if waited < timeout:
                if progress is not None:
                    shown = f"waiting for the person's decision: {waited:g} of {timeout:g} s"
                    progress(round(waited), round(timeout), shown)
                continue
            if decision.cancel():
                return waited_out(timeout)
            try:  # decided at the last moment
                approved = decision.result(timeout=0)
            except (CancelledError, TimeoutError):
                return waited_out(timeout)
        return None if approved else DECLINED
