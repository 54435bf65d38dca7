# mypy: disallow-untyped-calls=False
"""A first page range on a file the server has not extracted: answered from the pages
its answer reads while the worker goes on with the whole document, which later calls
(a map, a grep) wait for; every answer is the whole extraction's, byte for byte."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from siftui.serve.limits import StoreLimits
from siftui.sources.load_options import LoadOptions

pytest.importorskip("mcp")

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent
from support.damaged import page_tree_pdf
from support.pdfs import make_pdf

from siftui.core.doc import Doc
from siftui.core.render import Options, render
from siftui.serve.access import OpenedFile, Roots
from siftui.serve.docstore import DocStore, ServedDoc
from siftui.serve.loading import Early
from siftui.serve.worker import Progress
from siftui.sources.extract import extract_report
from siftui.sources.filehash import file_sha256
from siftui.sources.lazy import read_range
from siftui.sources.load import LoadError

OUTCAP = 3000
TIMEOUT = 120
PAGES = 300


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    texts = [f"page {n} of the big file\n" + "more words on it " * 20 for n in range(1, PAGES + 1)]
    return make_pdf(tmp_path_factory.mktemp("root") / "big.pdf", texts)


def get(store: DocStore, roots: Roots, name: str, options: Options | None = None) -> ServedDoc:
    opened = roots.open(name)
    try:
        return store.get(opened, answering=options)
    finally:
        opened.close()


def test_the_worker_sends_the_ranges_pages_first(
    big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # cold: nothing cached
    store = DocStore(StoreLimits(inspect_hidden=False))
    roots = Roots([big.parent])
    options = Options(pages="10-12", out_cap=OUTCAP)
    whole = extract_report(big, LoadOptions(workers=1)).doc
    try:
        first = get(store, roots, "big.pdf", options)
        assert first.partial and isinstance(first.doc, Doc)
        assert render(first.doc, options) == render(whole, options)
        assert first.sha256 == file_sha256(big)
        after = get(store, roots, "big.pdf")  # waits for the rest, then it is kept
        assert not after.partial and after.doc == whole
        assert get(store, roots, "big.pdf", options) is after
    finally:
        store.shutdown()


def test_a_store_that_inspects_hidden_text_reads_everything_first(
    big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    store = DocStore(StoreLimits(inspect_hidden=True))
    try:
        loaded = get(store, Roots([big.parent]), "big.pdf", Options(pages="2"))
        assert not loaded.partial
        # The answer does not wait for the findings, but they are of the whole document.
        assert loaded.later is not None and loaded.later.wait(TIMEOUT)
        assert loaded.findings()[0] is not None
    finally:
        store.shutdown()


def test_later_calls_wait_for_the_whole_document(tmp_path: Path) -> None:
    """The first call returns with the partial Doc while the rest is still being read;
    a map asked meanwhile waits for the whole one, which is then kept."""
    path = make_pdf(tmp_path / "doc.pdf", [f"page {n}" for n in range(1, 9)])
    rest = threading.Event()

    def ranges(
        opened: OpenedFile, deadline: float, store: DocStore, answering: Options, early: Early
    ) -> ServedDoc:
        sha = file_sha256(opened.real)
        early(ServedDoc(read_range(opened.real, answering).found.doc, sha, partial=True))
        assert rest.wait(TIMEOUT)
        return ServedDoc(extract_report(opened.real).doc, sha)

    def whole(
        opened: OpenedFile, deadline: float, store: DocStore, kind: str, progress: Progress | None
    ) -> ServedDoc:
        raise AssertionError("a range is read by the range loader")

    store = DocStore(StoreLimits(inspect_hidden=False), loader=whole, range_loader=ranges)
    roots = Roots([tmp_path])
    options = Options(pages="3-4")
    first = get(store, roots, "doc.pdf", options)
    assert first.partial and store.cached() == 0
    later: list[ServedDoc] = []
    waiting = threading.Thread(target=lambda: later.append(get(store, roots, "doc.pdf")))
    waiting.start()
    waiting.join(0.2)
    assert waiting.is_alive() and not later  # the map waits for the rest
    rest.set()
    waiting.join(TIMEOUT)
    [loaded] = later
    assert not loaded.partial and loaded.doc == extract_report(path).doc
    assert store.cached() == 1
    assert isinstance(first.doc, Doc) and isinstance(loaded.doc, Doc)
    assert render(first.doc, options) == render(loaded.doc, options)


def texts(result: CallToolResult) -> list[str]:
    blocks = []
    for block in result.content:
        assert isinstance(block, TextContent)
        blocks.append(block.text)
    return blocks


def test_a_real_server_answers_a_cold_range_then_a_map_exactly(big: Path, tmp_path: Path) -> None:
    damaged = big.parent / "damaged.pdf"
    damaged.write_bytes(page_tree_pdf(40, {11}))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    root = big.parent
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "siftui", "mcp", "--root", str(root), "--outcap", str(OUTCAP)],
        env=env,
    )
    calls: list[tuple[str, Options]] = [
        ("big.pdf", Options(pages="10-12", out_cap=OUTCAP)),  # cold: its pages only
        ("big.pdf", Options(out_cap=OUTCAP)),  # the map waits for the rest
        ("big.pdf", Options(grep="page 29[0-9] ", out_cap=OUTCAP)),
        ("big.pdf", Options(pages="299-", out_cap=OUTCAP)),
        ("damaged.pdf", Options(pages="10-12", out_cap=OUTCAP)),  # page 11 is damaged
        ("damaged.pdf", Options(pages="41", out_cap=OUTCAP)),  # out of range, from the count
    ]
    got: list[CallToolResult] = []

    async def main() -> None:
        with anyio.fail_after(TIMEOUT), open(tmp_path / "stderr", "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                for name, options in calls:
                    given: dict[str, Any] = {"path": name}
                    if options.pages:
                        given["pages"] = options.pages
                    if options.grep:
                        given["grep"] = options.grep
                    got.append(await session.call_tool("read_pdf", given))

    anyio.run(main)
    assert "Traceback" not in (tmp_path / "stderr").read_text()
    docs = {name: extract_report(root / name).doc for name in ("big.pdf", "damaged.pdf")}
    for (name, options), result in zip(calls[:-1], got[:-1], strict=True):
        assert not result.is_error, texts(result)
        answer = render(docs[name], options)
        assert texts(result)[0] == answer.content, (name, options)
        assert result.structured_content is not None
        assert result.structured_content["note"] == answer.note
        assert (result.structured_content["first"], result.structured_content["last"]) == (
            answer.first,
            answer.last,
        )
    assert got[-1].is_error and texts(got[-1]) == ["pages out of range (1-40)"]


def test_a_refused_document_is_refused_as_without_a_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "all.pdf").write_bytes(page_tree_pdf(3, {1, 2, 3}))
    roots = Roots([tmp_path])
    messages = []
    for options in (Options(pages="2"), None):
        store = DocStore(StoreLimits(inspect_hidden=False))
        try:
            with pytest.raises(LoadError) as refused:
                get(store, roots, "all.pdf", options)
            messages.append(str(refused.value))
            with pytest.raises(LoadError) as again:  # remembered: no new worker
                get(store, roots, "all.pdf", options)
            assert str(again.value) == messages[-1]
        finally:
            store.shutdown()
    assert messages[0] == messages[1]
    assert "none of its 3 pages can be read" in messages[0]
