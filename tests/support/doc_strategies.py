"""Hypothesis strategies for Docs and Options that stress the contract's rules.

Shared by tests/core/test_properties.py (render against the reference) and
tests/sources/test_fuzz.py (the CLI and Doc JSON round trips).
"""

from __future__ import annotations

from hypothesis import strategies as st

from siftui.core.doc import Doc, OutlineItem
from siftui.core.render import Options

# Characters that stress the rules: CJK (3 UTF-8 bytes), emoji (4; a ZWJ family is
# 5 code points), case pairs, Unicode whitespace that str.strip/str.split know,
# CR for CRLF pages, and regex metacharacters for the random patterns.
LETTERS = "abcXYZ中文字😀👨‍👩‍👧ÉéßİΣσǄǅǆ-().*"
SPACES = [" ", "\t", "\r", "\u00a0", "\u2003", "\u2028", "\x85", "\x1c"]
PAGE_CHARS = LETTERS + "".join(SPACES) + "\n\n\n"

Outcome = tuple[object, ...]


def page_texts() -> st.SearchStrategy[str]:
    plain = st.text(PAGE_CHARS, max_size=120)
    blank = st.text("".join(SPACES) + "\n", max_size=6)
    crlf = st.lists(st.text(LETTERS + " ", max_size=20), max_size=6).map("\r\n".join)
    huge_line = st.tuples(
        plain,
        st.sampled_from(["a", "中", "😀", "x "]),
        st.integers(150, 700),
        st.sampled_from(["", "X", "needle", "中文"]),
        st.integers(0, 700),
        plain,
    ).map(lambda t: t[0] + t[1] * t[2] + t[3] + t[1] * t[4] + t[5])
    return st.one_of(plain, plain, blank, crlf, huge_line, huge_line, st.just(""))


def titles() -> st.SearchStrategy[str]:
    return st.text("Ab中😀\n" + "".join(SPACES), max_size=12)


@st.composite
def docs(draw: st.DrawFn, min_pages: int = 0, many: int = 20) -> Doc:
    """A Doc; one in ``many`` has 95-140 small pages."""
    if draw(st.integers(1, many)) == 1:
        # many small pages: the 100-page limit and more than 100 grep matches
        count = draw(st.integers(95, 140))
        pages = tuple(f"line {i}\nhit {i % 7}" for i in range(count))
    else:
        pages = tuple(draw(st.lists(page_texts(), min_size=min_pages, max_size=10)))
    extra = draw(st.sampled_from([0, 0, 0, 1, 2, 50]))
    outline = tuple(
        draw(
            st.lists(
                st.builds(
                    OutlineItem,
                    level=st.integers(-2, 5),
                    title=titles(),
                    page=st.integers(-2, len(pages) + extra + 2),
                ),
                max_size=draw(st.sampled_from([0, 5, 40, 160])),
            )
        )
    )
    return Doc(draw(titles()), len(pages) + extra, pages, outline)


def page_specs(doc_pages: int) -> st.SearchStrategy[str]:
    numbers = st.integers(0, doc_pages + 3)
    formed = st.one_of(
        numbers.map(str),
        numbers.map(lambda a: f"{a}-"),
        st.tuples(numbers, st.integers(-2, 250)).map(lambda t: f"{t[0]}-{t[0] + t[1]}"),
    )
    padded = st.tuples(st.sampled_from(["", " ", "\t", " \n"]), formed).map(
        lambda t: t[0] + t[1] + t[0]
    )
    odd = st.sampled_from(["", " ", "３", "1-２", "-1", "1--2", "1-2-3", "a", "0", "00", "1-0"])
    return st.one_of(st.just(""), st.just(""), formed, padded, odd, st.text(max_size=5))


PATTERNS = [
    "a",
    "A",
    "a$",
    "^",
    "^$",
    ".",
    "hit",
    "needle",
    "X",
    "中文",
    "😀",
    "\\S",
    "\\s",
    "e.*e",
    "(a|b)+",
    "σ",
    "Σ",
    "é",
    "(unclosed",
    "[",
    "a**",
    "x{1001}",
    " ",
    "a" * 200,
    "a" * 201,
    "é" * 101,
    "\ud800",
    "\\C\\C文",
    "(?m)^$",
    "(?U)a+",
    "\\pL{1000}",
]


LIKELY = [
    "a",
    "A",
    ".",
    "^",
    "a$",
    "\\S",
    "中",
    "😀",
    "é",
    "σ",
    "ǅ",
    "x",
    "hit",
    "(a|b)+",
    "X|needle|中文",
    "X|needle|中文",
    "needle|中文",
]


def patterns() -> st.SearchStrategy[str]:
    random_regex = st.lists(st.sampled_from([*LETTERS, "^", "$", "[", "]", "\\", "|", "?"]))
    return st.one_of(
        st.just(""),
        st.just(""),
        st.sampled_from(PATTERNS),
        random_regex.map("".join),
        st.text(max_size=4),
    )


def out_caps() -> st.SearchStrategy[int]:
    return st.one_of(
        st.integers(1, 40),
        st.integers(1, 700),
        st.integers(100, 5000),
        st.integers(1, 10**7),
    )


def valid_pages(doc_pages: int) -> st.SearchStrategy[str]:
    first = st.integers(1, max(1, doc_pages))
    return st.one_of(
        first.map(str),
        first.map(lambda a: f" {a}- "),
        st.tuples(first, st.integers(0, 150)).map(lambda t: f"{t[0]}-{t[0] + t[1]}"),
    )


KINDS = ["view", "pages", "grep", "grep pages", "anything"]


@st.composite
def cases(draw: st.DrawFn, kind: str = "") -> tuple[Doc, Options]:
    """A doc and options of one kind (the default: any kind)."""
    kind = kind or draw(st.sampled_from(KINDS))
    doc = draw(
        docs(
            min_pages=1 if kind.startswith("grep") else 0,
            many=4 if kind in ("pages", "grep pages") else 20,
        )
    )
    extracted = len(doc.pages)
    pages, grep, out_cap = "", "", draw(out_caps())
    if kind == "pages":
        pages = draw(valid_pages(extracted))
    elif kind == "grep":
        grep = draw(st.sampled_from(LIKELY))
    elif kind == "grep pages":
        pages = draw(valid_pages(extracted))
        grep = draw(patterns())
    elif kind == "anything":
        pages, grep = draw(page_specs(extracted)), draw(patterns())
        out_cap = draw(st.one_of(st.just(out_cap), st.integers(-2, 0)))
    return doc, Options(pages=pages, grep=grep, out_cap=out_cap)
