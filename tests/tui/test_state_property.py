"""Property: whatever a user does, once the app is idle, everything on screen and
everything it copies or saves (c, j, s) is ``render(extract(current file), current Options)``,
or for a Word document ``render_docx(read(current file), current DocxOptions)``.

Random sequences of typed pages, ranges, anchors, windows, scopes and patterns,
slider moves, keys (n, b, f, m, Enter), strip clicks, and opens of another file
(PDF or Word), some of them slow (the load held until the end of the sequence,
so the other actions happen while it runs).
The default run is small; ``-m slow`` runs a long one.
The evidence preview has its own: tests/tui/test_state_property_evidence.py.
"""

from __future__ import annotations

import asyncio
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.docx_build import notes, p, read, t, tbl, write_docx
from support.pdfs import make_pdf
from support.tui_support import RecordingApp, idle, open_with_o, wait_until
from textual.widgets import Input, Static

from siftui.core.doc import Doc
from siftui.core.layout import layout_of
from siftui.core.render import BadGrep, BadPages, Options, Rendered, render
from siftui.core.word.layout import docx_layout_of
from siftui.core.word.model import DocxDoc
from siftui.core.word.render import BadOption, DocxOptions, render_docx
from siftui.sources.load import load_doc_report
from siftui.sources.output import encode_utf8, rendered_json
from siftui.sources.word.load import load_docx
from siftui.tui.preload import load_any
from siftui.tui.screens import PathScreen
from siftui.tui.strip_model import docx_facts_of, facts_of, page_kinds
from siftui.tui.widgets.outcap import OutCapControl
from siftui.tui.widgets.pagestrip import PageStrip
from siftui.tui.widgets.request_bar import RequestBar
from siftui.tui.widgets.view import ContentView

PAGES = ["", "2", "3-5", "1-", "9-2", "x", "0" * 40 + "2", "40", "2-3"]
GREPS = ["", "page", "Line 1", "(", "中", "z+", "line [0-9]"]
RANGES = ["", "P2", "P3..P9", "P5..", "P9..P2", "3-5", "P" + "0" * 40 + "2", "P400"]
WINDOWS = ["", "0", "1", "51", "9" * 60]
SCOPES = ["", "body", "footnotes", "margins", "comments"]
CAPS = [300, 2_000, 20_000, 100_000, 1_000_000]

Action = tuple[str, Any]
actions = st.one_of(
    st.tuples(st.just("pages"), st.sampled_from(PAGES)),
    st.tuples(st.just("grep"), st.sampled_from(GREPS)),
    st.tuples(st.just("outcap"), st.sampled_from(CAPS)),
    st.tuples(st.just("key"), st.sampled_from(["n", "b", "f", "m", "left_square_bracket"])),
    st.tuples(st.just("enter"), st.none()),
    st.tuples(st.just("strip"), st.integers(1, 12)),
    st.tuples(st.just("range"), st.sampled_from(RANGES)),
    st.tuples(st.just("anchor"), st.integers(0, 14)),
    st.tuples(st.just("window"), st.sampled_from(WINDOWS)),
    st.tuples(st.just("scope"), st.sampled_from(SCOPES)),
    st.tuples(st.just("open"), st.tuples(st.integers(0, 3), st.booleans())),
)


def word_body() -> str:
    """A Word body: headings, 12 clauses with a footnote reference, a table."""
    parts = [p("Terms", style="Heading1")]
    for n in range(1, 13):
        parts.append(p(f"Line {n} page clause 中文", '<w:r><w:footnoteReference w:id="1"/></w:r>'))
        if n == 6:
            parts.append(p("Fees", style="Heading2") + tbl(["Item", "Line 1"], ["Fee", "10"]))
    return "".join(parts)


WORD_NOTES = notes("footnote", (1, p(t("Line 1 of the footnote: page law."))))


def anchor_of(number: int) -> str:
    """P<n>#<hash> of the Word file's body paragraph n; an out-of-range or stale one for 0."""
    if number == 0:
        return "P3#0000"
    story = read(word_body(), footnotes=WORD_NOTES).body
    if number > story.count:
        return f"P{number}#abcd"
    return f"P{number}#{story.paragraphs[number - 1].hash}"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("property")
    return [
        make_pdf(
            folder / f"doc{k}.pdf",
            [
                f"page {n} of doc {k}\n" + "\n".join(f"Line {i} 中文" for i in range(n * 3))
                for n in range(1, pages + 1)
            ],
        )
        for k, pages in enumerate((5, 12, 3))
    ] + [write_docx(folder / "doc3.docx", word_body(), footnotes=WORD_NOTES)]


class Gate:
    """Holds every load (the load_any the loader calls: PDF or Word) while closed."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.open.set()
        self.real: Callable[..., Any] = load_any

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.open.wait(30)
        return self.real(*args, **kwargs)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    held = Gate()
    monkeypatch.setattr("siftui.tui.widgets.loader.load_any", held)
    try:
        yield held
    finally:
        held.open.set()


async def act(app: RecordingApp, pilot: Any, action: Action, files: list[Path], gate: Gate) -> None:
    kind, value = action
    if kind == "pages":
        app.query_one("#pages", Input).value = value
    elif kind in ("grep", "range", "window", "scope"):
        app.query_one(RequestBar).field(kind).value = value  # made at the first use
    elif kind == "anchor":
        app.query_one(RequestBar).field("anchor").value = anchor_of(value) if value else ""
    elif kind == "outcap":
        app.query_one(OutCapControl).value = value
    elif kind == "key":
        app.query_one(ContentView).focus()
        await pilot.press(value)
    elif kind == "enter":
        app.query_one("#grep", Input).focus()
        await pilot.press("enter")
    elif kind == "strip":
        strip = app.query_one(PageStrip)
        strip.post_message(PageStrip.Selected(strip, value, value))
    elif kind == "open":
        number, slow = value
        if slow:
            gate.open.clear()
        await open_with_o(app, pilot, files[number])
    await pilot.pause(0.02)


def typed_options(app: RecordingApp, word: bool) -> Options | DocxOptions:
    """The options the request bar shows, read the way a user reads them."""

    def field(name: str) -> str:
        return str(app.query_one(f"#{name}", Input).value)

    out_cap = app.query_one(OutCapControl).value
    if not word:
        return Options(pages=field("pages"), grep=field("grep"), out_cap=out_cap)
    window = field("window")
    return DocxOptions(
        range=field("range"),
        anchor=field("anchor"),
        window=6 if not window else int(window) if len(window) < 7 else -1,
        grep=field("grep"),
        scope=field("scope").strip() or "body",
        out_cap=out_cap,
    )


def expected_of(doc: Doc | DocxDoc, options: Options | DocxOptions) -> tuple[Rendered | None, str]:
    """What render (or render_docx) gives, or the one line it refuses with."""
    try:
        if isinstance(doc, DocxDoc):
            assert isinstance(options, DocxOptions)
            return render_docx(doc, options), ""
        assert isinstance(options, Options)
        return render(doc, options), ""
    except (BadPages, BadGrep, BadOption) as refused:
        return None, str(refused)


async def check(app: RecordingApp, pilot: Any, current: Path, copied: list[str]) -> None:
    """Everything agrees with render(extract(current), the Options the controls show)."""
    await wait_until(pilot, lambda: app.opening is None and app.answer is not None, 30)
    await idle(app, pilot)
    await pilot.pause(0.05)
    await idle(app, pilot)
    word = current.suffix == ".docx"
    doc: Doc | DocxDoc = load_docx(current) if word else load_doc_report(current).doc
    typed = typed_options(app, word)
    assert app.request.options == typed
    answer = app.answer
    assert answer is not None and answer.request.source is not None
    assert answer.request.source.path == current and app.sub_title == current.name
    assert app.doc == doc
    error = str(app.query_one("#request-error", Static).render())
    found, refused = expected_of(doc, typed)
    if found is None:
        assert error == refused
        found, _ = expected_of(doc, answer.options)  # the newest answerable request stays
    else:
        assert error == ""
        assert answer.options == typed
    assert found is not None
    expected = found
    assert answer.rendered == expected
    assert list(app.query_one(ContentView).lines) == (
        expected.content.split("\n") if expected.content else []
    )
    counter = str(app.query_one("#counter", Static).render())
    assert f"{len(expected.content):,} / {answer.options.out_cap:,} runes" in counter
    strip = app.query_one(PageStrip)
    if isinstance(doc, DocxDoc):
        options = answer.options
        assert isinstance(options, DocxOptions)
        assert f"doc: {doc.stories[options.scope].count:,} paragraph" in counter
        facts, layout = docx_facts_of(doc, options.scope), docx_layout_of(expected, options, doc)
    else:
        assert isinstance(answer.options, Options)
        assert f"doc: {doc.page_count:,} page" in counter
        facts, layout = facts_of(doc), layout_of(expected, answer.options, doc)
    assert strip.kinds == page_kinds(facts, layout)
    calls = str(app.query_one("#calls-line", Static).render())
    assert f"this answer {len(expected.content):,} runes" in calls
    app.query_one(ContentView).focus()
    before = len(copied)
    await pilot.press("c", "j")
    await wait_until(pilot, lambda: len(copied) == before + 2, 10)
    assert copied[-2:] == [expected.content, rendered_json(expected)]
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "answer.txt"
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, PathScreen))
        app.screen.query_one("#path", Input).value = str(target)
        await pilot.press("enter")
        await wait_until(pilot, target.exists, 10)
        assert target.read_bytes() == encode_utf8(expected.content)


def run_sequence(files: list[Path], gate: Gate, copied: list[str], steps: list[Action]) -> None:
    app = RecordingApp(files[0])

    async def main() -> None:
        async with app.run_test(size=(110, 34)) as pilot:
            current = files[0]
            await wait_until(pilot, lambda: app.answer is not None, 30)
            for action in steps:
                await act(app, pilot, action, files, gate)
                if action[0] == "open":
                    current = files[action[1][0]]
            gate.open.set()
            await check(app, pilot, current, copied)

    asyncio.run(main())


def profile(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@profile(3)
@given(st.lists(actions, min_size=1, max_size=7))
@example([("open", (3, True)), ("range", "P3..P9"), ("anchor", 4), ("window", "1")])
@example([("open", (3, False)), ("scope", "footnotes"), ("grep", "law")])
@example([("open", (3, False)), ("scope", "footnotes"), ("strip", 1)])
@example([("open", (3, False)), ("outcap", 300), ("key", "n"), ("open", (1, True))])
@example([("open", (3, True)), ("scope", "margins"), ("enter", None), ("strip", 11)])
def test_idle_app_agrees_with_render(
    files: list[Path], gate: Gate, clipboard: list[str], steps: list[Action]
) -> None:
    run_sequence(files, gate, clipboard, steps)


@pytest.mark.slow
@profile(80)
@given(st.lists(actions, min_size=1, max_size=14))
def test_idle_app_agrees_with_render_long(
    files: list[Path], gate: Gate, clipboard: list[str], steps: list[Action]
) -> None:
    run_sequence(files, gate, clipboard, steps)
