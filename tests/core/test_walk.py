"""Following the notes as an agent would: next_call and walk."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.pdfs import CorpusDocs

from siftui.core.doc import Doc
from siftui.core.docindex import page_block
from siftui.core.docjson import doc_to_json
from siftui.core.render import INSTRUCTION, Options, Rendered, estimated_tokens, marker, render
from siftui.core.walk import Call, next_call, walk, walk_report, walk_text
from siftui.sources.tokens import count_tokens


def pages_doc(sizes: list[int], page_count: int | None = None) -> Doc:
    pages = tuple(f"p{i} " + "x" * max(0, size - 3) for i, size in enumerate(sizes, 1))
    return Doc("T", page_count or len(sizes), pages)


def assert_reads_every_page_once(doc: Doc, out_cap: int) -> None:
    """Each page is read once, by the map when it shows the page whole, else by a
    pages= call (which may cut it to the OutCap)."""
    calls = walk(doc, out_cap)
    seen: list[int] = []
    for number, call in enumerate(calls, 1):
        assert render(doc, call.options) == call.answer
        assert len(call.answer.content) <= out_cap
        assert call.options.out_cap == out_cap and call.options.grep == ""
        if call.answer.map:
            later = calls[number].options.pages if number < len(calls) else f"{doc.extracted + 1}-"
            seen.extend(range(1, int(later.split("-")[0])))
        elif call.answer.first:
            seen.extend(range(call.answer.first, call.answer.last + 1))
    assert seen == list(range(1, doc.extracted + 1))
    assert calls[0].options == Options(out_cap=out_cap)


def runes_read(doc: Doc, calls: list[Call]) -> list[int]:
    """Per page, the most runes of its R1 block that one of ``calls`` holds."""
    seen = [0] * doc.extracted
    for call in calls:
        content, first = call.answer.content, call.answer.first
        if call.answer.map:
            at = content.find("\n\n" + INSTRUCTION + "\n\n")
            if at < 0:
                continue
            content = content[at + len(INSTRUCTION) + 4 :]
        if not first:
            continue
        offset = 0
        for page in range(first, call.answer.last + 1):
            block = page_block(page, doc.pages[page - 1])
            part = content[offset : offset + len(block)]
            assert block.startswith(part)
            seen[page - 1] = max(seen[page - 1], len(part))
            offset += len(block) + 2
    return seen


def test_a_doc_that_fits_is_one_call() -> None:
    doc = pages_doc([10, 10])
    calls = walk(doc, 1000)
    assert [c.options for c in calls] == [Options(out_cap=1000)]
    assert not calls[0].answer.map


def test_map_then_the_rest_then_each_note() -> None:
    doc = pages_doc([100] * 30)
    calls = walk(doc, 1000)
    assert calls[0].answer.map
    k = calls[0].answer.last
    assert calls[1].options.pages == f"{k + 1}-"
    for before, after in pairwise(calls[1:]):
        assert (
            before.answer.note
            == f'cut at page {before.answer.last}; ask for pages="{after.options.pages}"'
        )
    assert calls[-1].answer.note == ""
    assert_reads_every_page_once(doc, 1000)


def test_a_page_cut_to_fit_counts_as_seen() -> None:
    doc = pages_doc([50, 5000, 50, 5000, 5000])
    assert_reads_every_page_once(doc, 1000)
    notes = [call.answer.note for call in walk(doc, 1000)]
    assert 'page 2 cut to 1000 of 5016 characters; ask for pages="3-5"' in notes
    assert notes[-1] == "page 5 cut to 1000 of 5016 characters"


def test_page_one_cut_in_the_map() -> None:
    # Page 1 is longer than the OutCap: the map shows a quarter of the OutCap of
    # it, pages="1-" the OutCap, and the rest is unreachable.
    doc = pages_doc([9000, 10, 10], page_count=7)
    calls = walk(doc, 2000)
    assert calls[0].answer.map and calls[0].answer.last == 1
    assert [c.options.pages for c in calls[1:]] == ["1-", "2-3"]
    assert calls[1].answer.note == 'page 1 cut to 2000 of 9016 characters; ask for pages="2-3"'
    assert_reads_every_page_once(doc, 2000)


def test_a_page_the_map_cut_is_read_whole_when_it_fits() -> None:
    # ksp-thesis at 2,000: page 1 (1,447 runes) fits the OutCap but not the
    # map's quarter of it; the walk used to go on at page 2.
    doc = pages_doc([1447, 1139, 1850, 60], page_count=4)
    calls = walk(doc, 2000)
    assert calls[0].answer.map and calls[0].answer.last == 1
    assert [c.options.pages for c in calls[1:]] == ["1-", "2-4", "3-4"]
    assert calls[1].answer.content == page_block(1, doc.pages[0])
    assert runes_read(doc, calls) == [len(page_block(p, t)) for p, t in enumerate(doc.pages, 1)]


def test_a_map_cut_at_the_outcap_goes_on_at_its_first_cut_page() -> None:
    # A tiny OutCap cuts the map itself, leading pages and all.
    doc = pages_doc([30, 30, 30, 30, 30, 30, 30, 30])
    answer = render(doc, Options(out_cap=100))
    assert answer.map and INSTRUCTION not in answer.content
    assert next_call(Options(out_cap=100), answer, doc) == Options(pages="1-", out_cap=100)


@settings(max_examples=300, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=8),
    first=st.integers(min_value=0, max_value=6000),
    out_cap=st.integers(min_value=1, max_value=4000),
    extra=st.integers(min_value=0, max_value=3),
)
def test_following_the_walk_reads_every_page_that_fits(
    sizes: list[int], first: int, out_cap: int, extra: int
) -> None:
    # Brute force on generated documents, many of them with a page 1 the map cuts:
    # every rune of every page whose block fits the OutCap is read by some call, a
    # longer page's first OutCap runes; and no call is asked twice.
    doc = pages_doc([first, *sizes], page_count=len(sizes) + 1 + extra)
    calls = walk(doc, out_cap)
    blocks = [page_block(p, text) for p, text in enumerate(doc.pages, 1)]
    assert runes_read(doc, calls) == [min(len(block), out_cap) for block in blocks]
    asked = [call.options for call in calls]
    assert len(asked) == len(set(asked))


@pytest.mark.parametrize("out_cap", [1, 7, 100, 333, 4000])
def test_small_budgets_still_read_every_page(out_cap: int) -> None:
    assert_reads_every_page_once(pages_doc([120, 0, 300, 40, 2500, 1, 77]), out_cap)


def test_next_call_is_none_for_grep_and_full_answers() -> None:
    doc = pages_doc([100] * 3)
    assert next_call(Options(out_cap=10_000), render(doc, Options(out_cap=10_000)), doc) is None
    grep = Options(grep="p", out_cap=40)
    assert next_call(grep, render(doc, grep), doc) is None
    odd = Rendered("x", False, 2, 3, 0, 'cut at page 3; ask for pages="4-9"')
    nine = pages_doc([10] * 9)
    assert next_call(Options(out_cap=5), odd, nine) == Options(pages="4-9", out_cap=5)


@pytest.mark.parametrize(
    "name", ["ksp-thesis.pdf", "sample-sigconf.pdf", "lshort-zh-cn.pdf", "beameruserguide.pdf"]
)
@pytest.mark.parametrize("out_cap", [2_000, 20_000, 200_000])
def test_walk_on_corpus_files(corpus: CorpusDocs, name: str, out_cap: int) -> None:
    assert_reads_every_page_once(corpus[name], out_cap)


def test_walk_report_and_text() -> None:
    doc = pages_doc([100] * 30)
    calls = walk(doc, 1000)
    report = walk_report(calls, lambda text: {"runes/4": estimated_tokens(len(text))})
    assert [entry["pages"] for entry in report["calls"]] == [c.options.pages for c in calls]
    assert report["total_runes"] == sum(len(c.answer.content) for c in calls)
    assert report["calls"][0]["tokens"] == {"runes/4": len(calls[0].answer.content) // 4}
    assert report["total_tokens"]["runes/4"] == sum(len(c.answer.content) // 4 for c in calls)
    text = walk_text(report, 1000)
    lines = text.splitlines()
    assert len(lines) == len(calls) + 1
    assert lines[0].split()[:3] == ["1", "(no", "options)"]
    assert f'pages="{calls[1].options.pages}"' in lines[1]
    assert lines[-1].startswith(f"total: {len(calls)} calls at OutCap 1,000, ")


def test_cli_walk_matches_the_library(tmp_path: Path) -> None:
    doc = pages_doc([100] * 30, page_count=33)
    path = tmp_path / "doc.json"
    path.write_text(doc_to_json(doc), encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "siftui",
            "walk",
            str(path),
            "--outcap",
            "900",
            "--json",
            "--tokens",
        ],
        capture_output=True,
        check=True,
    )
    report = json.loads(done.stdout)
    calls = walk(doc, 900)
    assert [(e["first"], e["last"], e["note"]) for e in report["calls"]] == [
        (c.answer.first, c.answer.last, c.answer.note) for c in calls
    ]
    assert report["total_runes"] == sum(len(c.answer.content) for c in calls)
    assert set(report["calls"][0]["tokens"]) == {"runes/4", "o200k_base", "cl100k_base"}
    first = calls[0].answer.content
    assert report["calls"][0]["tokens"]["o200k_base"] == count_tokens(first, "o200k_base")
    text = subprocess.run(
        [sys.executable, "-m", "siftui", "walk", str(path), "--outcap", "900"],
        capture_output=True,
        check=True,
    )
    lines = text.stdout.decode().split("\n")
    # One line a call, the totals, then what no pages= call reaches (nothing here).
    assert len(lines) == len(calls) + 4 and lines[-1] == ""
    assert lines[-3] == "unreachable by pages= at OutCap 900: nothing"
    largest = max(range(1, 31), key=lambda p: (len(marker(p) + doc.pages[p - 1].strip()), -p))
    biggest = len(marker(largest)) + 2 + len(doc.pages[largest - 1].strip())
    assert lines[-2] == (
        f"nothing is unreachable from OutCap {biggest} up: the largest page block (page {largest})"
    )
    bad = subprocess.run(
        [sys.executable, "-m", "siftui", "walk", str(path), "--outcap", "0"], capture_output=True
    )
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1
