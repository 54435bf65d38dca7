"""Property: whatever a user does in the evidence preview (``e``), once it is idle, every
result, the view, the calls line and ``c`` are the lines ``siftui session`` prints for
the session's calls.

Random typed calls (answered, refused, not JSON), ``n``, ``b``, ``f``, ``v``, Enter
on a reading row, and a trip back to read_pdf and again (the session is kept).
The calls run in the server's own host, through the CLI's factory.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.pdfs import make_pdf
from support.tui_support import RecordingApp, idle, wait_until
from textual.widgets import Input, Static, TextArea

Action = tuple[str, Any]


EVIDENCE_CALLS = [
    'pdf_page_read {"documentId": "doc-1", "page": 1, "lastPage": 3, "maxChars": 40}',
    'pdf_page_read {"documentId": "doc-1", "page": 9}',
    'pdf_keyword_search {"documentId": "doc-1", "query": "Line 1", "maxResults": 2}',
    'pdf_keyword_search {"documentId": "doc-1", "query": "中文", "match": "normalized"}',
    'pdf_bookmark_list {"documentId": "doc-1", "limit": 1}',
    'pdf_evidence_read {"documentId": "doc-1", "refId": "ref-1"}',
    'pdf_page_render {"documentId": "doc-1", "page": 2, "dpi": 36}',
    "pdf_current {}",
    "pdf_page_read {nope",
    'pdf_status {"documentId": "doc-9"}',
]
evidence_actions = st.one_of(
    st.tuples(st.just("call"), st.sampled_from(EVIDENCE_CALLS)),
    st.tuples(st.just("key"), st.sampled_from(["n", "b", "f", "v", "enter"])),
    st.tuples(st.just("away"), st.none()),  # e to read_pdf and e back: the session is kept
)


def session_of(folder: Path, made: list[tuple[str, Any]]) -> list[list[str]]:
    """The lines `siftui session --root FOLDER` prints for each call (its host, in-process)."""
    from siftui.serve.access import Roots
    from siftui.serve.evidence.script import answer_lines
    from siftui.serve.host import ToolHost

    host = ToolHost(Roots([folder]), families={"evidence"})
    try:
        return [answer_lines(host.call(arguments, tool)) for tool, arguments in made]
    finally:
        host.shutdown()


def calls_line(printed: list[list[str]], shown: int | None) -> str:
    """The calls line for calls that printed ``printed``: their texts' units and runes."""
    texts = [
        line.removeprefix("error: ")
        for lines in printed
        for line in lines
        if not line.startswith("image: ")
    ]
    units = sum(len(text.encode("utf-16-le")) // 2 for text in texts)
    runes = sum(len(text) for text in texts)
    count = len(printed)
    where = f" · showing call {shown + 1}" if shown is not None else ""
    noun = "call" if count == 1 else "calls"
    return f"Session: {count:,} {noun}, {units:,} UTF-16 units, {runes:,} runes returned{where}"


def run_evidence(pdf: Path, copied: list[str], steps: list[Action]) -> None:
    from siftui.cli.evidence_preview import preview_factory
    from siftui.tui.evidence.screen import EvidenceScreen

    app = RecordingApp(pdf, evidence=preview_factory)

    async def main() -> None:
        async with app.run_test(size=(110, 34)) as pilot:
            await wait_until(pilot, lambda: app.answer is not None, 30)
            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(app.screen, EvidenceScreen))
            screen = app.screen
            assert isinstance(screen, EvidenceScreen)
            for kind, value in steps:
                await wait_until(pilot, lambda: not screen.busy, 60)
                if kind == "call":
                    await pilot.press("colon")
                    screen.query_one("#ev-call", Input).value = value
                    await pilot.press("enter")
                elif kind == "key":
                    screen.action_focus_view()
                    await pilot.press(value)
                else:
                    await pilot.press("e")
                    await pilot.press("e")
                await pilot.pause(0.02)
            await wait_until(pilot, lambda: not screen.busy and bool(screen.session.made), 60)
            await idle(app, pilot)
            session = screen.session
            printed = session_of(pdf.parent, [(m.tool, m.arguments) for m in session.made])
            assert [list(m.result.lines) for m in session.made] == printed
            assert str(screen.query_one("#ev-calls", Static).render()) == calls_line(
                printed, session.shown
            )
            assert session.shown is not None  # pdf_open is answered
            shown = "\n".join(printed[session.shown])
            assert screen.query_one("#ev-view", TextArea).text == shown
            kind, value = steps[-1]
            error = str(screen.query_one("#ev-error", Static).render())
            if kind == "call" and value.endswith("{nope"):  # not sent: said why
                assert error.startswith("the arguments are not valid JSON")
            elif kind == "call":  # a refused call says its line; an answered one clears it
                assert error == session.made[-1].result.message
            screen.action_focus_view()
            before = len(copied)
            await pilot.press("c")
            await wait_until(pilot, lambda: len(copied) == before + 1, 10)
            assert copied[-1] == shown

    asyncio.run(main())


@pytest.fixture
def evidence_clipboard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from siftui.tui.evidence import exports

    copied: list[str] = []
    monkeypatch.setattr(exports, "copy_system", lambda text: copied.append(text))
    return copied


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("evidence-property")
    pages = [f"page {n}\n" + "\n".join(f"Line {i} 中文" for i in range(n * 3)) for n in range(1, 6)]
    return make_pdf(folder / "doc.pdf", pages)


@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(evidence_actions, min_size=1, max_size=6))
@example([("call", EVIDENCE_CALLS[0]), ("key", "n"), ("key", "b"), ("call", EVIDENCE_CALLS[1])])
@example([("call", EVIDENCE_CALLS[2]), ("key", "v"), ("key", "enter"), ("away", None)])
def test_idle_evidence_preview_agrees_with_session(
    pdf: Path, evidence_clipboard: list[str], steps: list[Action]
) -> None:
    run_evidence(pdf, evidence_clipboard, steps)
