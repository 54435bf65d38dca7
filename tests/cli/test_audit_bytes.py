"""`siftui audit --unit bytes`: each document's record from the library's walk and
unreachable tail at an OutCap counted in UTF-8 bytes."""

from __future__ import annotations

from pathlib import Path

from support.cli_support import siftui

from siftui.core.budget import BYTES, utf8_size
from siftui.core.doc import Doc
from siftui.core.docjson import doc_to_json
from siftui.core.kinds import PDF
from siftui.core.render import Options, render
from siftui.sources.audit.store import read_records

# 1,200 characters of 3 bytes: page 1 fits 2,000 code points, not 2,000 bytes.
DOC = Doc("尾", 2, ("预" * 1_200, "end"), ())


def _audit(path: Path, out: Path, *unit: str) -> bytes:
    done = siftui("audit", path, "--outcap", "2000", *unit, "--out", out, "--no-cache")
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def test_audit_in_bytes_counts_what_the_library_counts_in_bytes(tmp_path: Path) -> None:
    path = tmp_path / "zh.json"
    path.write_text(doc_to_json(DOC), encoding="utf-8")
    chars_out, bytes_out = tmp_path / "chars.jsonl", tmp_path / "bytes.jsonl"
    _audit(path, chars_out)
    summary = _audit(path, bytes_out, "--unit", "bytes")
    (chars,) = read_records(str(chars_out))
    (record,) = read_records(str(bytes_out))
    assert "unit" not in chars and chars["unreachable_pages"] == []
    options = Options(out_cap=2_000, unit="bytes")
    calls = PDF.walk(DOC, options)
    left_out = PDF.unreachable(DOC, 2_000, unit=BYTES)
    assert record["unit"] == "bytes" and record["out_cap"] == 2_000
    assert record["unreachable_pages"] == [1] == [page.page for page in left_out.pages]
    assert record["unreachable_runes"] == left_out.runes > 0
    assert record["first_call_bytes"] == utf8_size(render(DOC, options).content) <= 2_000
    assert record["calls"] == len(calls)
    assert record["calls_bytes"] == sum(utf8_size(call.answer.content) for call in calls)
    assert b"2,000 bytes" in summary


def test_a_bad_unit_is_one_line(tmp_path: Path) -> None:
    done = siftui("audit", tmp_path, "--unit", "tokens")
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "--unit" in lines[0]
