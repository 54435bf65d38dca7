"""render() against the naive reference of docs/SPEC.md, and R5 directly."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from support.doc_strategies import (
    KINDS,
    Outcome,
    cases,
    docs,
    page_texts,
    titles,
)
from support.reference import ref_block, ref_full, reference

from siftui.core.doc import Doc, OutlineItem
from siftui.core.render import BadGrep, BadPages, Options, Rendered, full, render


def outcome_of_render(doc: Doc, options: Options) -> Outcome:
    try:
        result = render(doc, options)
    except (BadPages, BadGrep) as error:
        # The contract's class: a malformed range is a MalformedPages, a BadPages.
        return ("error", BadPages if isinstance(error, BadPages) else BadGrep, str(error))
    except ValueError as error:
        assert type(error) is ValueError
        return ("error", ValueError)
    return ("ok", result)


def outcome_of_reference(doc: Doc, options: Options) -> Outcome:
    try:
        answer = reference(doc, options.pages, options.grep, options.out_cap)
    except (BadPages, BadGrep) as error:
        return ("error", type(error), str(error))
    except ValueError:
        return ("error", ValueError)
    return (
        "ok",
        Rendered(
            answer.content, answer.map, answer.first, answer.last, answer.grep_hits, answer.note
        ),
    )


def check_against_reference(doc: Doc, options: Options) -> None:
    got = outcome_of_render(doc, options)
    assert got == outcome_of_reference(doc, options)
    event(_kind(options, got))


def _kind(options: Options, got: Outcome) -> str:
    if got[0] == "error":
        return "error " + getattr(got[1], "__name__", "?")
    result = got[1]
    assert isinstance(result, Rendered)
    if options.grep:
        if result.note.startswith("showing the first"):
            return "grep over 100"
        if result.note:
            return "grep cut"
        return "grep " + ["no hits", "1 hit", "hits"][min(result.grep_hits, 2)]
    if result.map:
        return "map, outline cut" if "more)" in result.content else "map"
    if options.pages.strip():
        return "pages cut" if result.note else "pages"
    return "full"


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_render_equals_reference(kind: str, data: st.DataObject) -> None:
    check_against_reference(*data.draw(cases(kind)))


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=2_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_render_equals_reference_10000(kind: str, data: st.DataObject) -> None:
    """10,000 examples in all: 2,000 of each kind."""
    check_against_reference(*data.draw(cases(kind)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(docs(), st.integers(1, 3000))
def test_map_or_full_equals_reference(doc: Doc, out_cap: int) -> None:
    """No options but a budget near the doc's size: full and map around their border."""
    size = len(ref_full(doc))
    for cap in {out_cap, max(1, size - out_cap % 50), max(1, size), size + 1}:
        check_against_reference(doc, Options(out_cap=cap))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["view", "pages", "grep"]), st.data())
def test_budget_borders_equal_reference(kind: str, data: st.DataObject) -> None:
    """Each answer at out_caps around its own uncut length, where cuts are decided."""
    doc, options = data.draw(cases(kind))
    try:
        whole = render(doc, Options(options.pages, options.grep, 10**9))
    except (BadPages, BadGrep):
        assume(False)
        return
    size = len(whole.content)
    shave = data.draw(st.integers(0, max(0, size - 1)))
    for cap in {size + 1, size, size - 1, size - 2, size - 17, size - shave, size // 2}:
        if cap >= 1:
            check_against_reference(doc, Options(options.pages, options.grep, cap))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(docs(many=1), st.data())
def test_long_ranges_equal_reference(doc: Doc, data: st.DataObject) -> None:
    """95-140 pages: the 100-page limit of ranges and the 100-match limit of grep."""
    first = data.draw(st.integers(1, 30))
    spec = data.draw(
        st.sampled_from([f"{first}-", f"{first}-{first + 99}", f"{first}-{first + 100}"])
    )
    out_cap = data.draw(st.one_of(st.just(10**6), st.integers(1000, 4000)))
    check_against_reference(doc, Options(pages=spec, out_cap=out_cap))
    check_against_reference(doc, Options(grep="hit", out_cap=out_cap))
    check_against_reference(doc, Options(grep="hit [0-3]", pages=spec, out_cap=out_cap))


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["a", "中", "😀", "x ", "ab"]),
    st.integers(0, 900),
    st.integers(0, 900),
    st.sampled_from(["needle", "NEEDLE", "n"]),
    st.integers(0, 900),
)
def test_line_windows_equal_reference(
    filler: str, before: int, after: int, needle: str, context: int
) -> None:
    """Matching and context lines of every length around 400, needle anywhere."""
    line = filler * before + needle + filler * after
    doc = Doc("T", 1, (f"{filler * context}\n{line}\n{needle}{filler * context}",))
    check_against_reference(doc, Options(grep="needle"))
    check_against_reference(doc, Options(grep="NEEDLE|zz"))


@st.composite
def outlined(draw: st.DrawFn) -> tuple[Doc, int]:
    """A doc too long for the budget with an outline about as long as the budget."""
    pages = tuple(draw(st.lists(page_texts(), min_size=1, max_size=4)))
    pages = (pages[0] + "x" * draw(st.integers(3000, 6000)), *pages[1:])
    items = draw(st.integers(1, 160))
    outline = tuple(
        OutlineItem(
            draw(st.integers(0, 4)), draw(titles()) + f"Part {i}", draw(st.integers(-1, 99))
        )
        for i in range(items)
    )
    doc = Doc(draw(titles()), len(pages) + draw(st.integers(0, 3)), pages, outline)
    return doc, draw(st.integers(1, 2900))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(outlined())
def test_map_outline_cut_equals_reference(case: tuple[Doc, int]) -> None:
    doc, out_cap = case
    check_against_reference(doc, Options(out_cap=out_cap))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_invariants(case: tuple[Doc, Options]) -> None:
    doc, options = case
    try:
        result = render(doc, options)
    except (BadPages, BadGrep):
        assume(False)
        return
    except ValueError as error:
        # only out_cap < 1 may raise a plain ValueError
        assert type(error) is ValueError
        assert options.out_cap < 1
        return
    assert options.out_cap >= 1
    assert len(result.content) <= options.out_cap

    # deterministic, also for an equal Doc that is another object (per-Doc caches)
    again = Doc(doc.title, doc.page_count, tuple(doc.pages), tuple(doc.outline))
    assert render(doc, options) == result
    assert render(again, options) == result
    assert full(again) == full(doc) == ref_full(doc)

    extracted = len(doc.pages)
    if options.grep:
        assert (result.map, result.first, result.last) == (False, 0, 0)
        assert result.grep_hits >= 0
        header = f'grep "{options.grep}": '
        assert result.content.startswith(header[: options.out_cap])
        return
    assert result.grep_hits == 0
    if result.map:
        assert not options.pages.strip()
        assert len(full(doc)) > options.out_cap
        assert result.first == 1
        assert 1 <= result.last <= extracted
        assert result.note == ""
        return

    # R5: not a map, not grep: a prefix-exact concatenation of R1 blocks
    blocks = [ref_block(p, doc.pages[p - 1]) for p in range(1, extracted + 1)]
    if extracted == 0:
        assert (result.content, result.first, result.last) == ("", 0, 0)
        return
    assert 1 <= result.first <= result.last <= extracted
    run = "\n\n".join(blocks[result.first - 1 : result.last])
    if result.content != run:
        # only page a's own block may be cut, and then only to out_cap
        assert result.first == result.last
        assert run.startswith(result.content)
        assert len(result.content) == options.out_cap < len(run)
        assert result.note.startswith(f"page {result.first} cut to {options.out_cap} of ")


@st.composite
def ranged(draw: st.DrawFn) -> tuple[Doc, str, int]:
    doc = draw(docs())
    assume(len(doc.pages) > 0)
    first = draw(st.integers(1, len(doc.pages)))
    last = draw(st.one_of(st.just(""), st.integers(first, len(doc.pages) + 5).map(str)))
    return doc, f"{first}-{last}", draw(st.integers(1, 3000))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ranged())
def test_page_notes_name_the_call_that_continues(case: tuple[Doc, str, int]) -> None:
    """Following each `ask for pages="x-y"` continues exactly after the last page shown,
    and a range that was not cut has no note."""
    doc, pages, out_cap = case
    result = render(doc, Options(pages=pages, out_cap=out_cap))
    wanted_last = int(pages.split("-")[1] or len(doc.pages))
    wanted_last = min(wanted_last, len(doc.pages))
    asked = re.search(r'ask for pages="(\d+)-(\d+)"$', result.note)
    if result.last == wanted_last:
        assert asked is None
        if result.note:
            assert result.note.startswith(f"page {result.last} cut to {out_cap} of ")
        return
    assert asked is not None
    start, end = int(asked.group(1)), int(asked.group(2))
    assert (start, end) == (result.last + 1, wanted_last)
    following = render(doc, Options(pages=f"{start}-{end}", out_cap=out_cap))
    assert following.first == start
