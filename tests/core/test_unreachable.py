"""What no pages= call shows, checked against brute force over real calls and answers.

The pages= side renders every call an agent can make (every range, the map) and
records, per page, how much of its R1 block any answer holds. The grep side is
checked two ways: on generated documents by real grep calls (one pattern aimed
at every character of every line), and, for small OutCaps and the corpus, by
enumerating every grep block R4 can produce (each matching line, each window)
and keeping those that fit.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from support.pdfs import CORPUS, CorpusDocs, corpus_docs

from siftui.core.doc import Doc
from siftui.core.docjson import doc_to_json
from siftui.core.grep import LINE_WINDOW, match_block
from siftui.core.render import INSTRUCTION, Options, render
from siftui.core.unreachable import (
    GREP_HEADER_MIN,
    counter_line,
    unreachable,
    unreachable_json,
    unreachable_text,
)

ELLIPSIS = "…"


def block_of(page: int, text: str) -> str:
    return f"--- page {page} ---\n\n{text.strip()}"


# ---- brute force: pages= ----------------------------------------------------


def shown_by(doc: Doc, content: str, first: int, last: int, seen: list[int]) -> None:
    """Record, per page, how much of its block ``content`` holds from page ``first``."""
    offset = 0
    for page in range(first, last + 1):
        block = block_of(page, doc.pages[page - 1])
        part = content[offset : offset + len(block)]
        assert block.startswith(part), (page, part[:80])
        seen[page - 1] = max(seen[page - 1], len(part))
        offset += len(block) + 2


def pages_brute_force(doc: Doc, out_cap: int, every_range: bool) -> list[int]:
    """Per page, the runes of its block that no pages= call (nor the map) shows."""
    seen = [0] * doc.extracted
    answer = render(doc, Options(out_cap=out_cap))
    if answer.map:
        # Leading pages follow the instruction line (a tiny OutCap cuts both off).
        at = answer.content.find(INSTRUCTION)
        if at >= 0:
            shown_by(doc, answer.content[at + len(INSTRUCTION) + 2 :], 1, answer.last, seen)
    elif answer.last:
        shown_by(doc, answer.content, 1, answer.last, seen)
    for first in range(1, doc.extracted + 1):
        # Every range when asked; else "a" and "a-": any "a-b" answer is a
        # prefix of the "a-" answer (whole pages while they fit, or page a cut).
        ends = range(first, doc.extracted + 1) if every_range else (first, doc.extracted)
        for last in ends:
            answer = render(doc, Options(pages=f"{first}-{last}", out_cap=out_cap))
            shown_by(doc, answer.content, answer.first, answer.last, seen)
    blocks = [block_of(p, text) for p, text in enumerate(doc.pages, 1)]
    return [len(block) - shown for block, shown in zip(blocks, seen, strict=True)]


# ---- brute force: grep --------------------------------------------------------


def line_starts(text: str) -> list[int]:
    """Where each stripped line of ``text`` begins in ``text.strip()``."""
    lead = len(text) - len(text.lstrip())
    starts = []
    position = 0
    for line in text.split("\n"):
        starts.append(position + len(line) - len(line.lstrip()) - lead)
        position += len(line) + 1
    return starts


def displayed(line: str, begin: int) -> str:
    """R4's display of ``line`` from ``begin``: a 400-character window, … where cut."""
    if len(line) <= LINE_WINDOW:
        return line
    end = begin + LINE_WINDOW
    return (ELLIPSIS if begin else "") + line[begin:end] + (ELLIPSIS if end < len(line) else "")


def grep_blocks_brute_force(doc: Doc, page: int, out_cap: int) -> set[int]:
    """Positions of page ``page``'s block shown by some grep block that fits ``out_cap``.

    Every matching line, every window start R4 gives it (match starts 0..n-1),
    the block built by grep itself and kept when the shortest header and it fit.
    """
    text = doc.pages[page - 1]
    lines = tuple(line.strip() for line in text.split("\n"))
    offset = len(f"--- page {page} ---\n\n")
    starts = [offset + start for start in line_starts(text)]
    shown: set[int] = set()
    for at, line in enumerate(lines):
        windows = {
            max(0, min(m - LINE_WINDOW // 2, len(line) - LINE_WINDOW))
            for m in range(len(line) or 1)
        }
        for window in windows:
            block = match_block(page, lines, at, window + LINE_WINDOW // 2 if window else 0)
            if GREP_HEADER_MIN + 1 + len(block) > out_cap:
                continue
            rows = []  # (line shown, where it begins)
            if at > 0 and lines[at - 1]:
                rows.append((at - 1, 0))
            rows.append((at, window))
            if at + 1 < len(lines) and lines[at + 1]:
                rows.append((at + 1, 0))
            expected = [
                f"p. {page}{':' if where == at else '-'} {displayed(lines[where], begin)}"
                for where, begin in rows
            ]
            assert block.split("\n") == [*expected, "--"]
            for where, begin in rows:
                size = min(len(lines[where]), LINE_WINDOW)
                shown.update(range(starts[where] + begin, starts[where] + begin + size))
    return shown


def grep_calls_brute_force(doc: Doc, page: int, out_cap: int) -> set[int]:
    """Positions of page ``page``'s block that real grep calls show: for every
    character of every line, a literal pattern starting there (12 characters, or
    up to the line's end and anchored with $), searched in that page alone."""
    text = doc.pages[page - 1]
    block = block_of(page, text)
    shown: set[int] = set()
    for line in (line.strip() for line in text.split("\n")):
        for start in range(len(line)):
            piece = line[start : start + 12]
            pattern = piece + ("$" if start + 12 >= len(line) else "")
            if not piece.strip():
                continue
            answer = render(doc, Options(pages=str(page), grep=pattern, out_cap=out_cap))
            for row in answer.content.split("\n")[1:]:
                if row == "--":
                    continue
                displayed = row[len(f"p. {page}: ") :].strip(ELLIPSIS)
                found = block.find(displayed)
                assert found >= 0, (pattern, displayed[:60])
                while found >= 0:
                    shown.update(range(found, found + len(displayed)))
                    found = block.find(displayed, found + 1)
    return shown


def check(doc: Doc, out_cap: int, *, every_range: bool, real_grep: bool) -> None:
    found = unreachable(doc, out_cap)
    expected = pages_brute_force(doc, out_cap, every_range)
    by_page = {reach.page: reach for reach in found.pages}
    for page, runes in enumerate(expected, 1):
        block = block_of(page, doc.pages[page - 1])
        if runes == 0:
            assert page not in by_page
            continue
        reach = by_page[page]
        assert reach.runes == runes, (page, out_cap)
        assert reach.block_runes == len(block)
        shown = (grep_calls_brute_force if real_grep else grep_blocks_brute_force)(
            doc, page, out_cap
        )
        tail = sum(1 for position in shown if position >= len(block) - runes)
        assert reach.grep_reachable_runes == tail, (page, out_cap)
    assert found.runes == sum(expected)
    largest = max((len(block_of(p, t)) for p, t in enumerate(doc.pages, 1)), default=1)
    assert found.smallest_out_cap == largest
    if doc.extracted:
        assert not unreachable(doc, largest).pages
        assert largest == 1 or unreachable(doc, largest - 1).pages


# ---- generated documents -------------------------------------------------------


def words(rng: random.Random, size: int) -> str:
    """``size`` characters of random lower-case words: any 12 of them are unique."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    out: list[str] = []
    length = 0
    while length < size:
        word = "".join(rng.choice(letters) for _ in range(rng.randint(2, 9)))
        out.append(word)
        length += len(word) + 1
    return " ".join(out)[:size].strip() or "x"


def lines_of(rng: random.Random, count: int, low: int, high: int) -> str:
    return "\n".join(
        ("  " if rng.random() < 0.2 else "")
        + words(rng, rng.randint(low, high))
        + " " * rng.randint(0, 2)
        for _ in range(count)
    )


def sized(rng: random.Random, page: int, block_runes: int) -> str:
    """A page text whose R1 block is exactly ``block_runes`` long."""
    room = block_runes - len(f"--- page {page} ---\n\n")
    text = lines_of(rng, 40, 20, 90)
    while len(text.strip()) < room:
        text += "\n" + words(rng, 60)
    text = text.strip()[:room].strip()
    while len(text) < room:
        text += "z"
    assert len(block_of(page, text)) == block_runes
    return text


def generated(seed: int, out_cap: int) -> Doc:
    rng = random.Random(seed)
    pages = [
        lines_of(rng, 10, 10, 60),
        "\n\n" + lines_of(rng, 70, 5, 80) + "\n",  # one huge page
        "intro line\n" + words(rng, 2400) + "\nlast line",  # a huge line
        "",  # an empty page
    ]
    pages.append(sized(rng, len(pages) + 1, out_cap))  # exactly at the OutCap
    pages.append(sized(rng, len(pages) + 1, out_cap + 1))  # one rune over
    pages.append(sized(rng, len(pages) + 1, out_cap - 1))
    pages.append(lines_of(rng, 4, 380, 420) + "\n\n" + words(rng, 900))  # around 400
    return Doc("Generated", len(pages) + 2, tuple(pages))


@pytest.mark.parametrize("out_cap", [1500])
def test_generated_against_real_grep_calls(out_cap: int) -> None:
    """Above ~1,300 every grep block fits: real calls reach exactly what is computed."""
    check(generated(out_cap, out_cap), out_cap, every_range=True, real_grep=True)


@pytest.mark.parametrize("out_cap", [1, 20, 60, 200, 450, 800, 1000, 1300])
def test_generated_small_outcaps_against_every_grep_block(out_cap: int) -> None:
    check(generated(7 + out_cap, max(out_cap, 40)), out_cap, every_range=True, real_grep=False)


def test_a_page_exactly_at_the_outcap_is_reachable() -> None:
    doc = Doc("T", 2, ("a" * 100, "b" * 101))
    block = len(block_of(1, "a" * 100))
    found = unreachable(doc, block)
    assert [(r.page, r.runes) for r in found.pages] == [(2, 1)]
    assert found.smallest_out_cap == block + 1 and found.largest_block_page == 2


def test_a_huge_line_only_its_windows() -> None:
    """One 5,000-character line: grep shows every part of it, 400 at a time."""
    doc = Doc("T", 1, ("head\n" + "q" * 5000,))
    found = unreachable(doc, 2000)
    [reach] = found.pages
    assert reach.runes == len(block_of(1, doc.pages[0])) - 2000
    assert reach.grep_reachable_runes == reach.runes
    # Too small for a window with both ellipses, big enough for the end windows.
    base = GREP_HEADER_MIN + 1 + len("p. 1: ") + len("p. 1- head\n") + len("\n--")
    found = unreachable(doc, base + LINE_WINDOW + 1)
    [reach] = found.pages
    cut = base + LINE_WINDOW + 1 - len("--- page 1 ---\n\nhead\n")
    assert reach.grep_reachable_runes == LINE_WINDOW - max(0, cut - (5000 - LINE_WINDOW))
    assert reach.grep_reachable_runes == LINE_WINDOW


def test_blank_runes_are_not_grep_reachable() -> None:
    """Line breaks and the blanks around lines are never shown by grep."""
    doc = Doc("T", 1, ("x" * 2000 + "\n   indented   \n" + "y" * 10,))
    found = unreachable(doc, len("--- page 1 ---\n\n") + 2000)
    [reach] = found.pages
    assert reach.runes == len("\n   indented   \n") + 10
    assert reach.grep_reachable_runes == len("indented") + 10


def test_no_pages_and_bad_outcap() -> None:
    found = unreachable(Doc("T", 3, ()), 100)
    assert found.pages == () and found.smallest_out_cap == 1 and found.largest_block_page == 0
    assert "no page was extracted" in unreachable_text(found)
    for bad in (0, -1, True):
        with pytest.raises(ValueError):
            unreachable(Doc("T", 1, ("x",)), bad)


def test_text_json_and_counter() -> None:
    doc = Doc("T", 3, ("short", "w" * 300, "v" * 50))
    found = unreachable(doc, 100)
    data = unreachable_json(found)
    assert data["runes"] == len(block_of(2, "w" * 300)) - 100
    # A 300-character line's grep block (>= 306 runes) does not fit OutCap 100 either.
    assert data["pages"] == [{"page": 2, "runes": data["runes"], "grep_reachable_runes": 0}]
    assert data["smallest_out_cap"] == len(block_of(2, "w" * 300))
    text = unreachable_text(found)
    assert f"{data['runes']:,} runes" in text and "page 2:" in text
    assert "the largest page block (page 2)" in text
    assert counter_line(found).startswith(f"at this OutCap {data['runes']:,} runes (")
    assert counter_line(found).endswith("on 1 page are unreachable by pages=")
    assert counter_line(unreachable(doc, 1000)) == ""


# ---- the corpus ------------------------------------------------------------------


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusDocs:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    return corpus_docs(tmp_path_factory)


@pytest.mark.slow  # long: run by `pytest -m slow` (CI runs it)
@pytest.mark.parametrize("name", ["pgfmanual.pdf", "lshort-zh-cn.pdf", "sample-sigconf.pdf"])
@pytest.mark.parametrize("out_cap", [1000, 3000, 5300])
def test_corpus_against_brute_force(corpus: CorpusDocs, name: str, out_cap: int) -> None:
    check(corpus[name], out_cap, every_range=name != "pgfmanual.pdf", real_grep=False)


def test_walk_command_reports_it(tmp_path: Path) -> None:
    doc = Doc("T", 3, ("short", "w" * 300 + "\n" + "u" * 20, "v" * 50))
    path = tmp_path / "doc.json"
    path.write_text(doc_to_json(doc), "utf-8")
    run = [sys.executable, "-m", "siftui", "walk", str(path), "--outcap", "100"]
    done = subprocess.run([*run, "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["unreachable"] == unreachable_json(unreachable(doc, 100))
    done = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(unreachable_text(unreachable(doc, 100)))


def test_random_whitespace_and_line_lengths_against_every_grep_block() -> None:
    """Lines of any length with blanks grep strips (\\r, \\t, U+3000, \\v) at their ends
    or inside, empty lines, blank pages: the computed figures match brute force."""
    rng = random.Random(14)
    blanks = [" ", "\t", "\r", "\u3000", "\x0b", ""]
    for _ in range(25):
        pages = []
        for _ in range(rng.randint(1, 4)):
            rows = []
            for _ in range(rng.randint(0, 12)):
                size = rng.choice([0, 1, 5, 50, 399, 400, 401, 402, 700])
                body = "".join(rng.choice("ab c\u3000é漢") for _ in range(size))
                rows.append(rng.choice(blanks) + body + rng.choice(blanks))
            pages.append("\n".join(rows))
        doc = Doc("R", len(pages), tuple(pages))
        for out_cap in (rng.randint(1, 300), rng.randint(300, 1500), rng.randint(1500, 4000)):
            check(doc, out_cap, every_range=True, real_grep=False)


def test_text_lists_twenty_pages_then_counts_the_rest() -> None:
    doc = Doc("T", 30, tuple("x" * 500 for _ in range(30)))
    found = unreachable(doc, 100)
    lines = unreachable_text(found).splitlines()
    assert len(found.pages) == 30 and len(lines) == 1 + 20 + 1 + 1
    assert lines[0].startswith("unreachable by pages= at OutCap 100: ")
    assert lines[0].endswith(" on 30 pages; a grep can show 0 of them")
    assert lines[21] == "  … and 10 more pages (--json lists them all)"
    tiny = unreachable(Doc("T", 1, ("y" * 5000 + "\n" + "z" * 10,)), 5017)
    assert "(<0.1% of" not in unreachable_text(tiny) and "(0.2% of" in unreachable_text(tiny)
    huge = unreachable(Doc("T", 2, ("w" * 100_000, "v" * 20)), 99_980)
    assert "(<0.1% of" in unreachable_text(huge)
