"""The document store and the call log without the server: caching per file version,
the byte bound, remembered failures, the worker's Doc, and log lines round-tripped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from siftui.serve.limits import StoreLimits

pytest.importorskip("mcp")

from support.pdfs import make_pdf

from siftui.core.doc import Doc
from siftui.core.render import Rendered
from siftui.serve.access import OpenedFile, Roots
from siftui.serve.docstore import DocStore, Failed, ServedDoc, doc_bytes
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import ServedOptions
from siftui.sources.filehash import file_sha256
from siftui.sources.load import LoadError, load_doc_report
from siftui.sources.log.calllog import CallLog, LogEntry, LogError, entry_to_line
from siftui.sources.log.reading import read_log


class CountingLoader:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(
        self, opened: OpenedFile, deadline: float, store: DocStore, kind: str, progress: object
    ) -> ServedDoc:
        self.calls += 1
        return ServedDoc(load_doc_report(opened.real).doc, file_sha256(opened.real))


def _get(store: DocStore, roots: Roots, name: str) -> ServedDoc:
    opened = roots.open(name)
    try:
        return store.get(opened)
    finally:
        opened.close()


def test_docs_are_cached_per_file_version(tmp_path: Path) -> None:
    loader = CountingLoader()
    store = DocStore(StoreLimits(max_bytes=10**6), loader=loader)
    roots = Roots([tmp_path])
    pdf = make_pdf(tmp_path / "a.pdf", ["one", "two"])
    first = _get(store, roots, "a.pdf")
    assert _get(store, roots, "a.pdf") is first and loader.calls == 1
    make_pdf(pdf, ["one", "two", "three"])
    second = _get(store, roots, "a.pdf")
    assert loader.calls == 2 and isinstance(second.doc, Doc) and second.doc.page_count == 3
    assert second.sha256 != first.sha256
    assert store.cached() == 1  # the stale version was dropped
    small = DocStore(StoreLimits(max_bytes=100), loader=loader)
    with pytest.raises(LoadError, match=r"over this server's limit of 100 bytes"):
        _get(small, roots, "a.pdf")
    assert loader.calls == 2


def test_the_cache_is_bounded_in_bytes(tmp_path: Path) -> None:
    roots = Roots([tmp_path])
    for number in range(4):
        (tmp_path / f"{number}.json").write_text(
            json.dumps({"title": "", "page_count": 1, "pages": [str(number) * 10_000]})
        )
    one = doc_bytes(Doc("", 1, ("0" * 10_000,)))
    store = DocStore(StoreLimits(cache_bytes=2 * one + 10), loader=CountingLoader())
    for number in range(4):
        _get(store, roots, f"{number}.json")
        assert store.cached_bytes() <= store.cache_bytes
    assert store.cached() == 2
    tiny = DocStore(StoreLimits(cache_bytes=10), loader=CountingLoader())  # answered, never kept
    tiny_doc = _get(tiny, roots, "0.json").doc
    assert isinstance(tiny_doc, Doc) and tiny_doc.pages == ("0" * 10_000,)
    assert tiny.cached() == 0


def test_failures_are_remembered(tmp_path: Path) -> None:
    calls = 0

    def failing(
        opened: OpenedFile, deadline: float, store: DocStore, kind: str, progress: object
    ) -> ServedDoc:
        nonlocal calls
        calls += 1
        raise Failed(f"{opened.real}: broken", "0" * 64)

    roots = Roots([tmp_path])
    make_pdf(tmp_path / "a.pdf", ["one"])
    store = DocStore(loader=failing)
    for _ in range(3):
        with pytest.raises(Failed, match="broken"):
            _get(store, roots, "a.pdf")
    assert calls == 1
    forgetful = DocStore(StoreLimits(failure_seconds=0), loader=failing)
    for _ in range(2):
        with pytest.raises(Failed):
            _get(forgetful, roots, "a.pdf")
    assert calls == 3


def test_tool_reports_size_limit_and_timeout(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["one"])
    roots = Roots([tmp_path])
    small = ToolHost(roots, ServedOptions(out_cap=100), store=DocStore(StoreLimits(max_bytes=10)))
    answer = small.call({"path": "a.pdf"})
    assert answer.rendered is None
    assert answer.message.endswith("over this server's limit of 10 bytes")
    # A fresh process cannot even start in a millisecond: it is stopped, not waited for.
    slow = ToolHost(roots, ServedOptions(out_cap=100), store=DocStore(StoreLimits(timeout=0.001)))
    answer = slow.call({"path": str(pdf)})
    assert answer.message == f"{pdf}: extraction took longer than 0.001 s; stopped"
    with pytest.raises(ValueError):
        ToolHost(roots, ServedOptions(out_cap=0))


def test_worker_returns_the_doc_load_doc_returns(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["alpha", "", "gamma"], title="T")
    roots = Roots([tmp_path])
    store = DocStore()
    loaded = _get(store, roots, "a.pdf")
    assert loaded.doc == load_doc_report(pdf).doc and loaded.sha256 == file_sha256(pdf)
    (tmp_path / "empty.pdf").write_bytes(b"")
    with pytest.raises(LoadError, match="empty file"):
        _get(store, roots, "empty.pdf")
    (tmp_path / "junk.pdf").write_bytes(b"not a pdf at all")
    with pytest.raises(LoadError) as caught:
        _get(store, roots, "junk.pdf")
    assert "\n" not in str(caught.value)


def test_log_round_trip_and_malformed_lines(tmp_path: Path) -> None:
    entries = [
        LogEntry(
            time="2025-01-01T00:00:00.000000Z",
            requested="a.pdf",
            path="/r/a.pdf",
            sha256="0" * 64,
            pages="1-2",
            grep="",
            out_cap=100,
            duration_ms=1.5,
            rendered=Rendered("--- page 1 ---\n\n中文", False, 1, 1, 0, 'ask for pages="2-2"'),
        ),
        LogEntry(
            time="2025-01-01T00:00:01.000000Z",
            requested="../x",
            path="/x",
            sha256=None,
            pages="",
            grep="(",
            out_cap=100,
            duration_ms=0,
            rendered=None,
            message="../x is outside the allowed roots (/r)",
        ),
    ]
    path = tmp_path / "calls.jsonl"
    log = CallLog(path)
    for entry in entries:
        log.append(entry)
    log.close()
    assert read_log(path) == entries
    assert entry_to_line(entries[0]).count("\n") == 1
    good = path.read_text("utf-8")
    for bad_line, reason in [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (good.splitlines()[0].replace('"first": 1', '"first": true'), 'key "first"'),
        (good.splitlines()[0].replace('"out_cap": 100, ', ""), 'key "out_cap": missing'),
        (good.splitlines()[1].replace('"error": true', '"error": 1'), 'key "error"'),
    ]:
        path.write_text(good + "\n" + bad_line + "\n", "utf-8")
        with pytest.raises(LogError) as caught:
            read_log(path)
        message = str(caught.value)
        assert message.startswith(f"{path}: line 4: "), message
        assert reason in message and "\n" not in message
    with pytest.raises(LogError, match="No such file or directory"):
        read_log(tmp_path / "absent.jsonl")
