"""Optional after-work gives way to a result the user waits for: the
page token counts pause between pages while the evidence preview makes its call."""

from __future__ import annotations

import threading

from siftui.core.doc import Doc
from siftui.sources.tokens import count_pages, load_encoding
from siftui.tui.give_way import GiveWay


def test_a_pause_waits_while_a_call_is_made_and_not_otherwise() -> None:
    gate = GiveWay()
    gate.pause()  # nothing waited for: at once
    passed = threading.Event()

    def after_work() -> None:
        gate.pause()
        passed.set()

    with gate.waiting():
        worker = threading.Thread(target=after_work)
        worker.start()
        assert not passed.wait(0.3)  # held while the call is made
    assert passed.wait(5)  # and let go at its end
    worker.join()


def test_nested_calls_hold_until_the_last_ends() -> None:
    gate = GiveWay()
    passed = threading.Event()
    with gate.waiting():
        with gate.waiting():
            pass

        def after_work() -> None:
            gate.pause()
            passed.set()

        worker = threading.Thread(target=after_work)
        worker.start()
        assert not passed.wait(0.2)
    assert passed.wait(5)
    worker.join()


def test_page_counts_pause_before_each_page_they_count() -> None:
    # Texts no other test counts (the counts are cached by text).
    pages = tuple(f"page {n} of the document that gives way" for n in range(7))
    paused: list[int] = []
    load_encoding("o200k_base")  # built first: its build pauses too (tests/sources/test_tokens)
    counts = count_pages(Doc("Gate", 7, pages, ()), "o200k_base", lambda: paused.append(1))
    assert len(counts) == 7 and all(count > 0 for count in counts)
    assert len(paused) == 7
