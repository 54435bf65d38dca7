"""The call log records the unit OutCap counted in (``siftui mcp --unit``) per call, and
the call read back is the call made: rendering its options gives the logged bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from support.tui_support import long_doc, write_doc

from siftui.core.render import Options, render
from siftui.serve.access import Roots
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import ServedOptions
from siftui.sources.log.calllog import CallLog, LogError
from siftui.sources.log.reading import read_log


def served_log(folder: Path, unit: str) -> Path:
    write_doc(long_doc(), folder, "doc.json")
    log = folder / f"calls-{unit}.jsonl"
    tool = ToolHost(Roots([folder]), ServedOptions(out_cap=1_000, unit=unit), log=CallLog(log))
    try:
        for pages in ("7", "8-9"):
            assert tool.call({"path": "doc.json", "pages": pages}).rendered is not None
        assert tool.call({"path": "doc.json", "pages": "99"}).rendered is None  # refused
    finally:
        tool.shutdown()
        assert tool.log is not None
        tool.log.close()
    return log


@pytest.mark.parametrize("unit", ["chars", "bytes"])
def test_each_call_records_its_unit_and_reads_back_as_the_call_made(
    tmp_path: Path, unit: str
) -> None:
    log = served_log(tmp_path, unit)
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert [line["unit"] for line in lines] == [unit] * 3
    entries = read_log(log)
    assert [entry.unit for entry in entries] == [unit] * 3
    for entry in entries[:2]:
        assert entry.options == Options(pages=entry.pages, out_cap=1_000, unit=unit)
        assert render(long_doc(), entry.options) == entry.rendered


def test_a_bytes_call_is_not_the_chars_call(tmp_path: Path) -> None:
    """Page 7 holds CJK text: cut to 1,000 bytes it is shorter than cut to 1,000 runes,
    so a replay that dropped the unit would not give the logged bytes."""
    [page_7, *_] = read_log(served_log(tmp_path, "bytes"))
    assert page_7.rendered is not None
    assert len(page_7.rendered.content.encode()) <= 1_000
    assert page_7.rendered != render(long_doc(), Options(pages="7", out_cap=1_000))


def test_a_log_without_the_unit_counted_code_points_and_a_bad_unit_is_named(
    tmp_path: Path,
) -> None:
    log = served_log(tmp_path, "chars")
    lines = log.read_text("utf-8").splitlines()
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join(line.replace('"unit": "chars", ', "") for line in lines) + "\n")
    assert '"unit"' not in old.read_text("utf-8")
    assert [entry.unit for entry in read_log(old)] == ["chars"] * 3
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0].replace('"unit": "chars"', '"unit": "runes"') + "\n")
    with pytest.raises(LogError, match='line 1: key "unit": expected "chars" or "bytes"'):
        read_log(bad)
