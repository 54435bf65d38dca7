# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Hostile inputs, made by the tests: damaged, odd or malicious documents and texts.

Every generator is deterministic (seeded), writes only where it is told (a
test's tmp_path) and never copies a corpus file: corpus bytes are read in place
and only the mutated bytes are written. Nothing here is a test.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pymupdf

from siftui.core.doc import Doc, OutlineItem
from siftui.core.render import Options, Rendered, render
from support.same_bytes import pdf_data

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"

# Text that must never reach a terminal raw: NUL, CSI colour codes, an OSC 52
# clipboard write (the nastiest: it would set the user's clipboard), a title
# change, BEL, backspace, CR, DEL, a C1 CSI, bidi overrides and form feed.
OSC52 = "\x1b]52;c;aGFja2Vk\x07"
CONTROL_TEXT = (
    "NUL[\x00] CSI[\x1b[31mred\x1b[0m] OSC52[" + OSC52 + "] TITLE[\x1b]0;pwned\x1b\\] "
    "BEL[\x07] BS[ab\x08\x08] CR[over\rwrite] DEL[\x7f] C1[\x9b2J] BIDI[\u202eevil\u202c] "
    "FF[\x0c] VT[\x0b] US[\x1f]"
)
# What a PDF can carry through PyMuPDF's Helvetica (a WinAnsi font: 0x7f and
# 0x9b come back as other characters, the C0 controls come back unchanged).
PDF_CONTROL_TEXT = "NUL[\x00] CSI[\x1b[2J] OSC52[" + OSC52 + "] BEL[\x07] BS[\x08] US[\x1f]"

SURROGATE_TEXT = "lone high[\ud800] lone low[\udfff] pair-as-two[\ud83d\ude00] fffd[\ufffd]"


def control_doc() -> Doc:
    """A Doc JSON's worth of every hostile character, in pages, title and outline."""
    pages = (
        CONTROL_TEXT + "\nsecond line\x00with NUL",
        "\x1b]52;c;" + "QUFB" * 50 + "\x07\n" + CONTROL_TEXT,
        SURROGATE_TEXT + "\n" + "\ufffd" * 20,
        "plain page",
    )
    outline = (
        OutlineItem(1, "Title\x1b[31m" + OSC52, 1),
        OutlineItem(2, "NUL\x00 and \ud800", 2),
        OutlineItem(1, "\x07bell", 99),
    )
    return Doc("Evil\x1b]0;title\x07 \x00doc", 6, pages, outline)


def big_page_doc(chars: int = 2_000_000) -> Doc:
    """One page of ``chars`` characters (lines of 80) between two small pages."""
    line = "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod 中文 x\n"
    body = (line * (chars // len(line) + 1))[:chars]
    return Doc("Big page", 3, ("small first page", body, "small last page"))


def emoji_doc(pages: int = 12) -> Doc:
    """Emoji of every width: flags, ZWJ families, skin tones, keycaps, VS16."""
    faces = "😀👨‍👩‍👧‍👦🇯🇵👍🏽1️⃣❤️🧑🏿‍🚀 ✨🙂"
    return Doc(
        "Emoji 🙂 doc",
        pages,
        tuple(f"page {i} {faces * (i + 1)}\nend {i} 🎉" for i in range(1, pages + 1)),
        (OutlineItem(1, "😀 start", 1),),
    )


def megabyte_doc(runes: int = 900_000) -> Doc:
    """About ``runes`` code points of text, mostly ASCII with CJK and emoji: ~1 MB of UTF-8."""
    pages = []
    for number in range(1, 301):
        line = f"Page {number} line: the budget decides what the agent sees. 中文 🙂\n"
        pages.append(line * 48)
    doc = Doc("Megabyte", len(pages), tuple(pages))
    total = len("\n\n".join(f"--- page {i} ---\n\n{p.strip()}" for i, p in enumerate(pages, 1)))
    if total > runes:  # trim pages so the full text stays under ``runes``
        keep = max(1, len(pages) * runes // total)
        doc = Doc(doc.title, keep, doc.pages[:keep])
    return doc


# --------------------------------------------------------------------------
# PDFs


def pdf_bytes(
    pages: Sequence[str],
    *,
    title: str = "",
    toc: Sequence[tuple[int, str, int]] = (),
    fontsize: float = 11,
    size: tuple[float, float] = (595, 842),
) -> bytes:
    document = pymupdf.open()
    for text in pages:
        page = document.new_page(width=size[0], height=size[1])
        if text:
            page.insert_text((2, 2 + fontsize), text, fontname="helv", fontsize=fontsize)
    if title:
        document.set_metadata({"title": title})
    if toc:
        document.set_toc([list(item) for item in toc])
    data = pdf_data(document, deflate=True)
    document.close()
    return data


def sample_pdf() -> bytes:
    """A small healthy PDF: title, outline, five pages of text."""
    return pdf_bytes(
        [f"Page {i}\nline two of page {i}\n" + "word " * 40 for i in range(1, 6)],
        title="Sample",
        toc=[(1, "One", 1), (2, "Two", 2), (1, "Five", 5)],
    )


def control_pdf() -> bytes:
    return pdf_bytes(
        [PDF_CONTROL_TEXT, "ordinary page"], title="Ctl\x1b]0;t\x07", toc=[(1, "A\x1b[2J", 1)]
    )


def big_page_pdf(chars: int = 2_000_000) -> bytes:
    """A single tall page holding about ``chars`` characters of text (0.5 pt type)."""
    line = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor"
    count = chars // (len(line) + 8) + 1
    text = "\n".join(f"{i:06d} {line}" for i in range(count))
    document = pymupdf.open()
    page = document.new_page(width=300, height=14_000)
    page.insert_text((2, 2), text, fontname="helv", fontsize=0.5, lineheight=1.1)
    data = pdf_data(document, deflate=True)
    document.close()
    return data


def deep_outline_pdf(levels: int) -> bytes:
    """One page; an outline of ``levels`` items, each the child of the one before."""
    return pdf_bytes(
        ["deep outline"], toc=[(level, f"Level {level}", 1) for level in range(1, levels + 1)]
    )


def raw_pdf(objects: Sequence[bytes], root: int = 1, trailer: bytes = b"") -> bytes:
    """A PDF from object bodies numbered 1..n, with a correct cross-reference table;
    ``trailer`` is added to the trailer dictionary (/Encrypt, /ID, ...)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    extra = b" " + trailer if trailer else b""
    out += b"trailer\n<< /Size %d /Root %d 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        root,
        extra,
        xref,
    )
    return bytes(out)


OutlineMaker = Callable[[int, list[int]], dict[int, bytes]]


def outline_pdf(pages: int, outline: OutlineMaker) -> bytes:
    """``pages`` pages of text; ``outline(root, page_objects)`` gives the outline objects."""
    objects: dict[int, bytes] = {3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}
    page_objects = [4 + 2 * i for i in range(pages)]
    root = 4 + 2 * pages
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R /Outlines %d 0 R >>" % root
    kids = b" ".join(b"%d 0 R" % p for p in page_objects)
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages)
    for i, number in enumerate(page_objects):
        stream = b"BT /F1 12 Tf 72 720 Td (Page %d text) Tj ET" % (i + 1)
        objects[number] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (number + 1)
        )
        objects[number + 1] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)
    objects.update(outline(root, page_objects))
    return raw_pdf([objects[i] for i in range(1, max(objects) + 1)])


def _items(
    root: int, titles_dests: Sequence[tuple[bytes, bytes]], cyclic: bool
) -> dict[int, bytes]:
    ids = [root + 1 + i for i in range(len(titles_dests))]
    out = {root: b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (
        ids[0], ids[-1], len(ids))}  # fmt: skip
    for i, (number, (title, dest)) in enumerate(zip(ids, titles_dests, strict=True)):
        after = ids[(i + 1) % len(ids)] if cyclic or i + 1 < len(ids) else None
        links = (b" /Next %d 0 R" % after if after else b"") + (
            b" /Prev %d 0 R" % ids[i - 1] if i else b""
        )
        out[number] = b"<< /Title (%s) /Parent %d 0 R%s /Dest %s >>" % (title, root, links, dest)
    return out


def cyclic_siblings_pdf() -> bytes:
    """Outline items whose /Next chain loops back to the first."""
    return outline_pdf(
        2,
        lambda root, pages: _items(
            root, [(b"A", b"[%d 0 R /Fit]" % pages[0]), (b"B", b"[%d 0 R /Fit]" % pages[1])], True
        ),
    )


def cyclic_child_pdf() -> bytes:
    """An outline item that is its own first child."""

    def outline(root: int, pages: list[int]) -> dict[int, bytes]:
        item = root + 1
        return {
            root: b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count 1 >>" % (item, item),
            item: b"<< /Title (Loop) /Parent %d 0 R /First %d 0 R /Last %d 0 R /Count 1 "
            b"/Dest [%d 0 R /Fit] >>" % (root, item, item, pages[0]),
        }

    return outline_pdf(2, outline)


def past_last_page_pdf() -> bytes:
    """Outline targets past the last page: a page number, a missing object, a non-page."""
    return outline_pdf(
        2,
        lambda root, pages: _items(
            root,
            [
                (b"Fine", b"[%d 0 R /Fit]" % pages[1]),
                (b"Number past the end", b"[40 /Fit]"),
                (b"Missing object", b"[999 0 R /Fit]"),
                (b"Not a page", b"[3 0 R /Fit]"),
                (b"Unknown name", b"(nowhere)"),
            ],
            False,
        ),
    )


def missing_object_target_pdf() -> bytes:
    return outline_pdf(
        3,
        lambda root, pages: _items(
            root, [(b"One", b"[%d 0 R /Fit]" % pages[0]), (b"Gone", b"[999 0 R /Fit]")], False
        ),
    )


def zero_page_pdf() -> bytes:
    """A whole PDF (with its cross-reference table: nothing to repair) whose page tree is empty."""
    return raw_pdf([b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[]/Count 0>>"])


def encrypted_pdf(user: str = "user-pw", owner: str = "owner-pw") -> bytes:
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "secret text", fontname="helv")
    data = bytes(
        document.tobytes(encryption=pymupdf.mupdf.PDF_ENCRYPT_AES_256, user_pw=user, owner_pw=owner)
    )
    document.close()
    return data


# --------------------------------------------------------------------------
# Damage


def truncations(
    data: bytes, fractions: Sequence[float] = (0.0005, 0.1, 0.5, 0.9, 0.999)
) -> dict[str, bytes]:
    """``data`` cut at several offsets (always at least 1 byte, never the whole)."""
    cuts = {max(1, min(len(data) - 1, int(len(data) * f))) for f in fractions}
    cuts |= {9, len(data) - 30}  # just the header; just before the trailer
    return {f"cut@{cut}": data[:cut] for cut in sorted(cuts) if 0 < cut < len(data)}


def random_behind_header(seed: int, size: int = 20_000) -> bytes:
    rng = random.Random(seed)
    return b"%PDF-1.7\n" + rng.randbytes(size)


def flipped(data: bytes, seed: int, flips: int) -> bytes:
    """``data`` with ``flips`` bits flipped at random positions (seeded)."""
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(flips):
        position = rng.randrange(len(out))
        out[position] ^= 1 << rng.randrange(8)
    return bytes(out)


_STREAM = re.compile(rb"stream\r?\n")


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One random, seeded damage to a document: its kind and the damaged bytes."""
    kind = rng.choice(["flips", "truncate", "splice", "stream-garbage", "zero-run", "duplicate"])
    out = bytearray(data)
    if kind == "flips":
        for _ in range(rng.choice([1, 4, 32, 256])):
            position = rng.randrange(len(out))
            out[position] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        del out[rng.randrange(1, len(out)) :]
    elif kind == "splice":  # a piece of the file moved elsewhere
        start = rng.randrange(len(out))
        piece = out[start : start + rng.randrange(1, 4096)]
        at = rng.randrange(len(out))
        out[at:at] = piece
    elif kind == "stream-garbage":  # garbage right after a "stream" keyword
        starts = [found.end() for found in _STREAM.finditer(data)]
        at = rng.choice(starts) if starts else rng.randrange(len(out))
        out[at:at] = rng.randbytes(rng.choice([1, 16, 512, 8192]))
    elif kind == "zero-run":
        start = rng.randrange(len(out))
        length = rng.randrange(1, 2048)
        out[start : start + length] = bytes(len(out[start : start + length]))
    else:  # duplicate: the tail again, as an incremental update gone wrong
        out += out[rng.randrange(len(out)) :]
    return kind, bytes(out)


def mutations(data: bytes, seed: int) -> Iterator[tuple[str, bytes]]:
    rng = random.Random(seed)
    while True:
        yield mutate(data, rng)


# --------------------------------------------------------------------------
# What a valid answer must look like


C0_OR_C1 = re.compile("[\x00-\x1f\x7f-\x9f]")

OPTION_SETS = (
    Options(),
    Options(out_cap=1),
    Options(out_cap=300),
    Options(pages="1-"),
    Options(pages="2", out_cap=50),
    Options(grep="a|中|\\x00|\\x1b"),
    Options(grep="e", pages="1-3", out_cap=200),
)


def check_doc(doc: Doc) -> None:
    """A valid Doc: the contract's types and bounds."""
    assert isinstance(doc, Doc)
    assert isinstance(doc.title, str)
    assert isinstance(doc.page_count, int) and doc.page_count >= 1
    assert 0 <= len(doc.pages) <= doc.page_count
    assert all(isinstance(page, str) for page in doc.pages)
    for item in doc.outline:
        assert isinstance(item, OutlineItem)
        assert isinstance(item.level, int) and isinstance(item.page, int)
        assert isinstance(item.title, str)


def check_renders(doc: Doc, options_sets: Sequence[Options] = OPTION_SETS) -> list[Rendered]:
    """R5 on a few option sets: bounded, deterministic, only the contract's errors."""
    from siftui.core.render import BadGrep, BadPages

    answers = []
    for options in options_sets:
        try:
            answer = render(doc, options)
        except (BadPages, BadGrep) as error:
            assert "\n" not in str(error)
            continue
        assert len(answer.content) <= options.out_cap
        assert render(doc, options) == answer
        if not answer.map and not options.grep and doc.pages:
            assert answer.content.startswith(f"--- page {answer.first} ---"[: options.out_cap])
        answers.append(answer)
    return answers
