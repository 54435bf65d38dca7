"""End to end: `siftui reader` in a real terminal (tmux) and an agent over Streamable HTTP.

The agent is the official MCP client (tests/support/http_host.py), reaching the
reader through its reader file. It reads, searches, highlights what it found and
asks to save; the dialog on screen decides only on y / n: a declined save leaves
the file as it was, an approved one writes the highlight, which PyMuPDF and
poppler both read back from the file.
"""

# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial)

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from support.pdfs import make_pdf

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,  # the real reader in tmux: run by `pytest -m slow` (CI runs it)
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not on PATH"),
]

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 120, 40
START_TIMEOUT = 90.0
STEP_TIMEOUT = 60.0
TEXT = ["Field notes on entropy\nThe first measurements were taken at dawn.", "Second page"]


class Pane:
    """The reader in one pane of a private tmux server."""

    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.socket = f"siftui-reader-{uuid.uuid4().hex[:8]}"
        self.workdir = workdir
        self.env = env

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            env=self.env,
            cwd=self.workdir,
            timeout=10,
            check=True,
        )
        return done.stdout.decode("utf-8", "replace")

    def start(self, *command: str) -> None:
        self.tmux(
            *("set-option", "-g", "default-terminal", "xterm-256color", ";"),
            *("set-option", "-g", "remain-on-exit", "on", ";"),
            *("new-session", "-d", "-s", "reader", "-x", str(WIDTH), "-y", str(HEIGHT)),
            *(sys.executable, "-m", "siftui", *command),
        )

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "reader")

    def wait_text(self, text: str, timeout: float = STEP_TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if text in shown:
                return shown
            assert "Traceback" not in shown, shown
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on screen in {timeout:g} s:\n{shown}")
            time.sleep(0.2)

    def press(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "reader", *keys)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


@pytest.fixture
def reader(tmp_path: Path) -> Iterator[tuple[Pane, Path, Path]]:
    root = tmp_path / "papers"
    root.mkdir()
    yield from reading(tmp_path, make_pdf(root / "notes.pdf", TEXT, stable=True))


def reading(tmp_path: Path, pdf: Path) -> Iterator[tuple[Pane, Path, Path]]:
    """The reader in tmux on ``pdf`` (its folder the root), its reader files' folder."""
    root = pdf.parent
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "TMUX_PANE", "COLUMNS", "LINES")
    }
    env.update(
        TERM="xterm-256color",
        XDG_RUNTIME_DIR=str(runtime),
        XDG_STATE_HOME=str(tmp_path / "state"),
        PYTHONPATH=str(REPO),
    )
    pane = Pane(tmp_path, env)
    pane.start("reader", str(pdf), "--root", str(root), "--log", str(tmp_path / "calls.jsonl"))
    try:
        yield pane, pdf, runtime / "siftui"
    finally:
        pane.kill()


class Address:
    def __init__(self, folder: Path) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while not list(folder.glob("reader-*.json")):
            assert time.monotonic() < deadline, "the reader wrote no reader file"
            time.sleep(0.2)
        [found] = folder.glob("reader-*.json")
        data = json.loads(found.read_text(encoding="utf-8"))
        self.url, self.token = data["url"], data["token"]


def agent(address: Address, saves: int) -> Callable[[], list[list[str]]]:
    """Runs an agent in a thread: reads, searches, highlights, then asks ``saves`` times
    to save; what it received, call by call, when joined."""
    # Imported here: every test of this module is slow, and everyday collection need
    # not import the MCP client.
    from support.http_host import client, result_lines

    received: list[list[str]] = []

    async def session() -> None:
        async with client(address) as mcp:  # type: ignore[arg-type]

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                lines = result_lines(await mcp.call_tool(tool, arguments))
                received.append(lines)
                return None if lines[-1].startswith("error: ") else json.loads(lines[-1])

            doc = (await call("pdf_open", {"path": "notes.pdf"}))["documentId"]
            await call("pdf_page_read", {"documentId": doc, "page": 1})
            found = await call("pdf_keyword_search", {"documentId": doc, "query": "measurements"})
            target = {"kind": "reference", "refId": found["hits"][0]["refId"]}
            made = await call(
                "pdf_annotation_create",
                {
                    "documentId": doc,
                    "expectedRevision": 0,
                    "subtype": "Highlight",
                    "target": target,
                    "comment": "taken at dawn",
                },
            )
            for _ in range(saves):
                await call("pdf_save", {"documentId": doc, "expectedRevision": made["revision"]})

    thread = threading.Thread(target=lambda: asyncio.run(session()), daemon=True)
    thread.start()

    def joined() -> list[list[str]]:
        thread.join(STEP_TIMEOUT)
        assert not thread.is_alive(), "the agent is still waiting"
        return received

    return joined


def test_an_agent_highlights_and_only_y_saves(reader: tuple[Pane, Path, Path]) -> None:
    pane, pdf, folder = reader
    before = pdf.read_bytes()
    pane.wait_text("page 1 of 2", START_TIMEOUT)
    done = agent(Address(folder), saves=2)
    # The first save: keys meant for something else decide nothing; n declines.
    shown = pane.wait_text("asks to save")
    assert "added   Highlight siftui-1-1 by siftui agent" in shown
    pane.press("Enter", "Space", "q", "Y")
    time.sleep(1.0)
    assert "asks to save" in pane.screen()
    assert pdf.read_bytes() == before
    pane.press("n")
    # The second: y approves.
    pane.wait_text("Declined")
    pane.wait_text("asks to save")
    pane.press("y")
    received = done()
    assert received[-2] == ["error: the save was declined in the reader (the draft is kept)"]
    saved = json.loads(received[-1][-1])
    assert saved["saved"] is True and saved["revision"] == 2
    pane.wait_text("no unsaved changes")
    # The file on disk holds the highlight: MuPDF reads it, poppler opens the file.
    document = pymupdf.open(pdf)
    page = document[0]  # held: an annotation needs its page alive
    [highlight] = list(page.annots())
    assert highlight.info["title"] == "siftui agent"
    assert highlight.info["content"] == "taken at dawn"
    under = page.get_textbox(highlight.rect).strip()
    assert "measurements" in under
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, check=True, timeout=30)
        assert any(line.split() == [b"Pages:", b"2"] for line in info.stdout.splitlines())
    pane.press("q")


def bridged_agent(env: dict[str, str], calls: Callable[[Any], Any]) -> Callable[[], None]:
    """Runs ``calls(call)`` in a thread as an agent of the official stdio client through
    `siftui mcp --reader` (the bridge, started as a host starts a stdio server)."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from support.http_host import result_lines

    failed: list[BaseException] = []

    async def session() -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "siftui", "mcp", "--reader"], env=env
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
            await mcp.initialize()

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                lines = result_lines(await mcp.call_tool(tool, arguments))
                return lines[-1] if lines[-1].startswith("error: ") else json.loads(lines[-1])

            await calls(call)

    def run() -> None:
        try:
            asyncio.run(session())
        except BaseException as error:  # told to the test when it joins
            failed.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def joined() -> None:
        thread.join(STEP_TIMEOUT)
        assert not thread.is_alive(), "the agent is still waiting"
        assert not failed, failed

    return joined


def test_a_killed_reader_offers_the_draft_back_and_the_bridge_saves_it(
    reader: tuple[Pane, Path, Path],
) -> None:
    """An agent reaches the reader over the bridge and highlights; the reader is killed
    (SIGKILL: no chance to clean up); started again on the file, it restores the draft
    and says so, and a new agent's save approved with y writes the highlight."""
    pane, pdf, folder = reader
    before = pdf.read_bytes()
    pane.wait_text("page 1 of 2", START_TIMEOUT)
    Address(folder)  # the reader file is written: the bridge can find the reader
    env = dict(pane.env)

    async def highlight(call: Any) -> None:
        doc = (await call("pdf_open", {"path": "notes.pdf"}))["documentId"]
        found = await call("pdf_keyword_search", {"documentId": doc, "query": "dawn"})
        target = {"kind": "reference", "refId": found["hits"][0]["refId"]}
        arguments = {"documentId": doc, "expectedRevision": 0, "subtype": "Highlight"}
        made = await call("pdf_annotation_create", {**arguments, "target": target})
        assert made["revision"] == 1, made

    bridged_agent(env, highlight)()
    pane.wait_text("unsaved")
    pid = int(pane.tmux("display-message", "-p", "-t", "reader", "#{pane_pid}").strip())
    os.kill(pid, 9)
    deadline = time.monotonic() + STEP_TIMEOUT
    while pane.tmux("display-message", "-p", "-t", "reader", "#{pane_dead}").strip() != "1":
        assert time.monotonic() < deadline, "the reader did not die"
        time.sleep(0.2)
    assert pdf.read_bytes() == before  # the draft never touched the file
    for stale in folder.glob("reader-*.json"):
        stale.unlink()  # a killed reader cannot remove its file; the next writes its own
    pane.tmux(
        "respawn-pane", "-k", "-t", "reader", sys.executable, "-m", "siftui", "reader",
        str(pdf), "--root", str(pdf.parent),
    )  # fmt: skip
    shown = pane.wait_text("restored the draft", START_TIMEOUT)
    assert "at revision 1 (1 change not saved)" in shown.replace("\n", "")
    Address(folder)

    async def save(call: Any) -> None:
        doc = (await call("pdf_open", {"path": "notes.pdf"}))["documentId"]
        status = await call("pdf_status", {"documentId": doc})
        assert (status["revision"], status["unsaved"]) == (1, True), status
        saved = await call("pdf_save", {"documentId": doc, "expectedRevision": 1})
        assert saved["saved"] is True, saved

    done = bridged_agent(env, save)
    pane.wait_text("asks to save")
    pane.press("y")
    done()
    with pymupdf.open(pdf) as document:
        page = document[0]
        [highlight_made] = list(page.annots())
        assert "dawn" in page.get_textbox(highlight_made.rect)
    pane.press("q")


FORM_FILLS: dict[str, dict[int, list[dict[str, Any]]]] = {
    # Every field type of qpdf's field-types.pdf (labels as pdf_form_inspect gives them).
    "field-types.pdf": {
        1: [
            {"label": "F1", "value": "hello"},  # text
            {"label": "F4", "value": "3"},  # radio r1
            {"label": "F5", "value": True},  # checkbox
            {"label": "F11", "value": "pommes ÷ frites"},
            {"label": "F12", "value": "any text"},  # editable combobox
            {"label": "F13", "value": ["seven"]},  # listbox
            {"label": "F14", "value": "elephant"},  # fixed combobox
        ]
    },
    # qpdf's form on two pages, filled page by page.
    "fields-two-pages.pdf": {
        2: [{"label": "F1", "value": "xyz"}, {"label": "F7", "value": True}],
        1: [{"label": "F1", "value": "first"}, {"label": "F5", "value": "3"}],
    },
}


@pytest.mark.parametrize("name", sorted(FORM_FILLS))
def test_an_agent_fills_a_form_and_y_saves_it(tmp_path: Path, name: str) -> None:
    from support.forms import CORPUS_EDIT
    from support.http_host import client, result_lines

    root = tmp_path / "papers"
    root.mkdir()
    pdf = Path(shutil.copyfile(CORPUS_EDIT / name, root / name))
    received: list[list[str]] = []

    async def session(address: Address) -> None:
        async with client(address) as mcp:  # type: ignore[arg-type]

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                lines = result_lines(await mcp.call_tool(tool, arguments))
                received.append(lines)
                return json.loads(lines[-1])

            doc = (await call("pdf_open", {"path": name}))["documentId"]
            revision = 0
            inspected = {
                page: await call("pdf_form_inspect", {"documentId": doc, "page": page})
                for page in FORM_FILLS[name]
            }
            for page, fields in FORM_FILLS[name].items():
                arguments = {
                    "inspectionId": inspected[page]["inspectionId"],
                    "expectedRevision": revision,
                    "fields": fields,
                }
                revision = (await call("pdf_form_fill", arguments))["revision"]
            await call("pdf_save", {"documentId": doc, "expectedRevision": revision})

    for pane, _, folder in reading(tmp_path, pdf):
        pane.wait_text("of ", START_TIMEOUT)
        address = Address(folder)
        thread = threading.Thread(target=asyncio.run, args=(session(address),), daemon=True)
        thread.start()
        shown = pane.wait_text("asks to save")
        first = FORM_FILLS[name][next(iter(FORM_FILLS[name]))][0]["value"]
        assert f'-> "{first}"' in shown  # the dialog lists the fields, old -> new
        pane.press("y")
        thread.join(STEP_TIMEOUT)
        assert not thread.is_alive(), "the agent is still waiting"
        assert json.loads(received[-1][-1])["saved"] is True
        pane.wait_text("no unsaved changes")
        pane.press("q")
    # Each fill answered its values read back from the draft.
    answers = [json.loads(lines[-1]) for lines in received]
    fills = [got for got in answers if "fields" in got and "inspectionId" not in got]
    wanted = list(FORM_FILLS[name].values())
    assert [[f["value"] for f in got["fields"]] for got in fills] == [
        [f["value"] for f in fields] for fields in wanted
    ]
    # MuPDF and poppler read the saved file; poppler shows the text values.
    with pymupdf.open(pdf) as document:
        values = {w.field_name: w.field_value for page in document for w in page.widgets()}
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert "AcroForm" in info.stdout
    if name == "field-types.pdf":
        assert values["text"] == "hello" and values["drop1"] == "elephant"
        assert values["checkbox1"] == "Yes"
        for shown_value in ("hello", "pommes ÷ frites", "any text", "elephant"):
            assert shown_value in text, shown_value
    else:
        assert values["Text Box 1"] == "first" and values["text"] == "xyz"
        assert "first" in text and "xyz" in text


def test_an_agent_edits_a_corpus_outline_and_y_saves_it(tmp_path: Path) -> None:
    """ksp-thesis.pdf (hyperref: GoTo actions to named destinations, two items closed):
    the agent renames, moves, adds and deletes bookmarks; the reader's outline marks
    them, its save dialog lists them, y saves; then every untouched item's title, page
    and destination are what they were, as MuPDF, pypdf and poppler read the file."""
    from support.http_host import client, result_lines
    from support.outlines import items_of, poppler_items, pypdf_items

    corpus = REPO / "../shared/corpus/ksp-thesis.pdf"
    if not corpus.exists():
        pytest.skip("no shared corpus")
    root = tmp_path / "papers"
    root.mkdir()
    pdf = Path(shutil.copyfile(corpus, root / "ksp-thesis.pdf"))  # saved over: a copy
    before, before_pypdf = items_of(pdf), pypdf_items(pdf)
    dests_before = _poppler_dests(pdf)
    received: list[list[str]] = []
    edited, looked = threading.Event(), threading.Event()
    order: list[str] = []
    drafted: list[tuple[int, str, int | None]] = []

    async def session(address: Address) -> None:
        async with client(address) as mcp:  # type: ignore[arg-type]

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                lines = result_lines(await mcp.call_tool(tool, arguments))
                received.append(lines)
                return json.loads(lines[-1])

            doc = (await call("pdf_open", {"path": pdf.name}))["documentId"]
            operations = [
                {"op": "outline-update", "outlineId": "ol-2", "title": "2 Installing"},
                {"op": "outline-move", "outlineId": "ol-8", "parentId": "ol-3", "index": 0},
                {"op": "outline-add", "title": "Appendix", "page": 8},
                {"op": "outline-delete", "outlineId": "ol-13"},
            ]
            arguments = {"documentId": doc, "expectedRevision": 0, "operations": operations}
            made = await call("pdf_bookmark_edit", arguments)
            listed = await call("pdf_bookmark_list", {"documentId": doc})
            order.extend(item["outlineId"] for item in listed["items"])
            drafted.extend((item["level"], item["title"], item["page"]) for item in listed["items"])
            edited.set()
            assert await asyncio.to_thread(looked.wait, STEP_TIMEOUT)  # the person looks first
            await call("pdf_save", {"documentId": doc, "expectedRevision": made["revision"]})

    for pane, _, folder in reading(tmp_path, pdf):
        pane.wait_text("page 1 of 8", START_TIMEOUT)
        thread = threading.Thread(target=asyncio.run, args=(session(Address(folder)),), daemon=True)
        thread.start()
        assert edited.wait(STEP_TIMEOUT)
        pane.press("l")
        for mark in ("[agent: renamed] 2 Installing", "[agent: added] Appendix", "[agent: moved]"):
            pane.wait_text(mark)
        looked.set()
        shown = pane.wait_text("asks to save")
        assert 'bookmark ol-2 "2 Installation" renamed to "2 Installing"' in shown
        assert 'bookmark deleted ol-13 "6 Version history"' in shown
        pane.press("y")
        thread.join(STEP_TIMEOUT)
        assert not thread.is_alive(), "the agent is still waiting"
        assert json.loads(received[-1][-1])["saved"] is True
        pane.wait_text("no unsaved changes")
        pane.press("q")
    after, after_pypdf = items_of(pdf), pypdf_items(pdf)
    assert len(after) == len(order) == 14
    old = {f"ol-{number}": item for number, item in enumerate(before, 1)}
    old_pypdf = {f"ol-{number}": item for number, item in enumerate(before_pypdf, 1)}
    new = dict(zip(order, after, strict=True))
    new_pypdf = dict(zip(order, after_pypdf, strict=True))
    untouched = set(old) - {"ol-2", "ol-8", "ol-9", "ol-10", "ol-11", "ol-13"}
    for outline_id in sorted(untouched):
        assert new[outline_id] == old[outline_id], outline_id
        assert new_pypdf[outline_id] == old_pypdf[outline_id], outline_id
    for outline_id in ("ol-2", "ol-8", "ol-9", "ol-10", "ol-11"):  # renamed or moved
        assert new[outline_id].destination == old[outline_id].destination
        assert new[outline_id].closed == old[outline_id].closed
    assert new["ol-2"].title == "2 Installing"
    assert _poppler_dests(pdf) == dests_before  # the named destinations stay
    if shutil.which("pdftohtml"):  # poppler reads the outline as edited
        assert poppler_items(pdf) == drafted


def _poppler_dests(pdf: Path) -> list[str]:
    """poppler's named destinations of the file (pdfinfo -dests), one line each."""
    if shutil.which("pdfinfo") is None:
        return []
    shown = subprocess.run(
        ["pdfinfo", "-dests", str(pdf)], capture_output=True, text=True, check=True, timeout=30
    ).stdout
    return [line for line in shown.splitlines() if line.strip()]
