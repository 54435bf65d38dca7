"""A naive reference of docs/SPEC.md (the contract), written from the text alone.

No precomputation, no bisection, no prefix sums: every rule is applied the
slowest obvious way so that it can be checked by reading. Only the value types
(Doc, OutlineItem) and the exception classes are shared with siftui, so that a
raised error can be compared by type and message.

Two decisions the contract does not spell out (see the report):
- a pattern that is both over 200 bytes (counting a lone surrogate as its 3
  bytes) and not valid UTF-8 gets the 200-byte message: the length check is
  listed first;
- a page line holding a lone surrogate is searched with every surrogate read as
  U+FFFD (one code point for one), and shown unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import re2

from siftui.core.doc import Doc
from siftui.core.grep import BadGrep
from siftui.core.render import BadPages


@dataclass(frozen=True)
class Answer:
    content: str
    map: bool
    first: int
    last: int
    grep_hits: int
    note: str


def ref_marker(page: int) -> str:
    return "--- page " + str(page) + " ---"


def ref_block(page: int, text: str) -> str:
    return ref_marker(page) + "\n\n" + text.strip()


def ref_blocks(doc: Doc) -> list[str]:
    return [ref_block(i + 1, doc.pages[i]) for i in range(len(doc.pages))]


def ref_full(doc: Doc) -> str:
    return "\n\n".join(ref_blocks(doc))


def collapse(text: str) -> str:
    words = text.split()
    return " ".join(words)


# ---------------------------------------------------------------- R2 the map


def ref_map(doc: Doc, out_cap: int) -> Answer:
    e = len(doc.pages)
    full_text = ref_full(doc)
    title = collapse(doc.title)
    if title == "":
        title = "Untitled PDF"
    header = "# " + title
    stats = "1 page" if doc.page_count == 1 else str(doc.page_count) + " pages"
    stats += " · ~" + str(len(full_text) // 4) + " tokens"
    if e < doc.page_count:
        stats += " · pages 1-" + str(e) + " extracted"
    instruction = 'This document is longer than one answer: ask for pages="a-b" or grep="pattern".'

    budget = out_cap // 4
    blocks = ref_blocks(doc)
    shown: list[str] = []
    for block in blocks:
        candidate = "\n\n".join([*shown, block])
        if len(candidate) <= budget:
            shown.append(block)
        else:
            break
    if shown:
        leading = "\n\n".join(shown)
        last = len(shown)
    else:
        leading = blocks[0][:budget]
        last = 1

    items: list[str] = []
    for item in doc.outline:
        level = item.level if item.level >= 1 else 1
        line = "  " * (level - 1) + "- " + collapse(item.title)
        if item.page >= 1:
            line += " (p. " + str(item.page) + ")"
        items.append(line)

    def assemble(outline_section: str | None) -> str:
        parts = [header, stats]
        if outline_section is not None:
            parts.append(outline_section)
        parts.append(instruction)
        parts.append(leading)
        return "\n\n".join(parts)

    if not items:
        content = assemble(None)
    else:
        content = assemble("## Outline\n" + "\n".join(items))
        if len(content) > out_cap:
            chosen: str | None = None
            for k in range(len(items) - 1, -1, -1):
                more = "- … (" + str(len(items) - k) + " more)"
                attempt = assemble("## Outline\n" + "\n".join([*items[:k], more]))
                if len(attempt) <= out_cap:
                    chosen = attempt
                    break
            content = chosen if chosen is not None else assemble(None)
    if len(content) > out_cap:
        content = content[:out_cap]
    return Answer(content, True, 1, last, 0, "")


# ---------------------------------------------------------------- R3 pages


def ref_range(pages: str, e: int) -> tuple[int, int] | None:
    text = pages.strip()
    if text == "":
        return None
    bad = BadPages('invalid pages "' + pages + '": use "a-b", "a" or "a-"')
    digits = "0123456789"
    if "-" in text:
        a_text, _, b_text = text.partition("-")
    else:
        a_text, b_text = text, None
    if a_text == "" or any(c not in digits for c in a_text):
        raise bad
    if b_text is not None and any(c not in digits for c in b_text):
        raise bad
    a = big_int(a_text)
    if b_text is None:
        b = a
    elif b_text == "":
        b = e
    else:
        b = big_int(b_text)
    if a < 1 or b < a or a > e:
        raise BadPages("pages out of range (1-" + str(e) + ")")
    return a, min(b, e)


def big_int(digits: str) -> int:
    """int() refuses more than 4300 digits; compare such numbers by value anyway."""
    significant = digits.lstrip("0")
    if len(significant) > 1000:
        # Any such number is beyond every E a test builds, and above any b we
        # compare it with that is not itself huge; 10**1000 keeps the order.
        return 10**1000 + len(significant)
    return int(significant or "0")


def ref_pages(doc: Doc, a: int, b: int, out_cap: int) -> Answer:
    blocks = ref_blocks(doc)
    first_block = blocks[a - 1]
    if len(first_block) > out_cap:
        note = (
            "page "
            + str(a)
            + " cut to "
            + str(out_cap)
            + " of "
            + str(len(first_block))
            + " characters"
        )
        if a < b:
            note += '; ask for pages="' + str(a + 1) + "-" + str(b) + '"'
        return Answer(first_block[:out_cap], False, a, a, 0, note)
    shown = [first_block]
    page = a + 1
    while page <= b and len(shown) < 100:
        candidate = "\n\n".join([*shown, blocks[page - 1]])
        if len(candidate) > out_cap:
            break
        shown.append(blocks[page - 1])
        page += 1
    last = a + len(shown) - 1
    note = ""
    if last < b:
        note = "cut at page " + str(last) + '; ask for pages="' + str(last + 1) + "-" + str(b) + '"'
    return Answer("\n\n".join(shown), False, a, last, 0, note)


# ---------------------------------------------------------------- R4 grep


def ref_compile(pattern: str) -> Any:
    if len(pattern.encode("utf-8", "surrogatepass")) > 200:
        raise BadGrep("pattern longer than 200 bytes")
    try:
        pattern.encode("utf-8")
    except UnicodeEncodeError:
        raise BadGrep("invalid grep: pattern is not valid UTF-8") from None
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = False
    for ch in pattern:
        if ch.isupper():
            options.case_sensitive = True
    try:
        return re2.compile(pattern, options)
    except re2.error as error:
        message = error.args[0]
        if isinstance(message, bytes):
            message = message.decode("utf-8", "replace")
        raise BadGrep("invalid grep: " + str(message)) from None


def searchable(line: str) -> str:
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in line)


def window(line: str, start: int) -> str:
    if len(line) <= 400:
        return line
    shown = line[start : start + 400]
    if start > 0:
        shown = "…" + shown
    if start + 400 < len(line):
        shown = shown + "…"
    return shown


def ref_grep(doc: Doc, pattern: str, a: int, b: int, out_cap: int) -> Answer:
    regex = ref_compile(pattern)
    matches: list[str] = []
    for page in range(a, b + 1):
        lines = [line.strip() for line in doc.pages[page - 1].split("\n")]
        for i, line in enumerate(lines):
            found = regex.search(searchable(line))
            if found is None:
                continue
            shown: list[str] = []
            if i - 1 >= 0 and lines[i - 1] != "":
                shown.append("p. " + str(page) + "- " + window(lines[i - 1], 0))
            start = max(0, min(found.start() - 200, len(line) - 400))
            shown.append("p. " + str(page) + ": " + window(line, start))
            if i + 1 < len(lines) and lines[i + 1] != "":
                shown.append("p. " + str(page) + "- " + window(lines[i + 1], 0))
            shown.append("--")
            matches.append("\n".join(shown))
    n = len(matches)
    if n == 0:
        counted = "no matches"
    elif n == 1:
        counted = "1 match"
    else:
        counted = str(n) + " matches"
    header = 'grep "' + pattern + '": ' + counted
    if n > 100:
        header += ", showing the first 100"
    kept = matches[:100]
    content = "\n".join([header, *kept])
    dropped = False
    while len(content) > out_cap and kept:
        kept = kept[:-1]
        dropped = True
        content = "\n".join([header, *kept])
    content = content[:out_cap]
    narrow = 'narrow the pattern or add pages="a-b"'
    if dropped:
        note = "showing " + str(len(kept)) + " of " + str(n) + " matches to fit OutCap; " + narrow
    elif n > 100:
        note = "showing the first 100 of " + str(n) + " matches; " + narrow
    else:
        note = ""
    return Answer(content, False, 0, 0, n, note)


# ---------------------------------------------------------------- dispatch


def reference(doc: Doc, pages: str, grep: str, out_cap: int) -> Answer:
    """The contract's answer; raises what render must raise, in the same order."""
    if out_cap < 1:
        raise ValueError("out_cap < 1")
    e = len(doc.pages)
    span = ref_range(pages, e)
    if grep != "":
        a, b = span if span is not None else (1, e)
        return ref_grep(doc, grep, a, b, out_cap)
    if span is not None:
        return ref_pages(doc, span[0], span[1], out_cap)
    full_text = ref_full(doc)
    if len(full_text) <= out_cap:
        if e == 0:
            return Answer(full_text, False, 0, 0, 0, "")
        return Answer(full_text, False, 1, e, 0, "")
    return ref_map(doc, out_cap)
