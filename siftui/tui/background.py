"""Work that waits until a document's first answer is on screen, then runs in workers:
grep tables, each page's token count, which pages without text hold images, the
hidden-text inspection (siftui.tui.hidden_flow), and the notices about pages
without text and pages read by OCR.

Nothing here starts while a document opens, so opening is as fast as the CLI.
:func:`start` returns the steps (siftui.tui.found): what the app shows and runs;
what the workers find comes back to the app as facts (siftui.tui.facts).
"""

from __future__ import annotations

from siftui.core.doc import Doc
from siftui.core.docindex import index_of
from siftui.core.kinds import kind_of, paged
from siftui.core.textless import listed, no_text_line, textless_pages
from siftui.core.unreadable import describe
from siftui.sources.kinds import is_json_form
from siftui.sources.tokens import VocabularyError, count_pages
from siftui.tui import hidden_flow
from siftui.tui.display import plural
from siftui.tui.extras import Extras
from siftui.tui.facts import Images, OcrRead, PageTokens
from siftui.tui.give_way import GIVE_WAY
from siftui.tui.state import Held, Opened
from siftui.tui.steps import Job, Notice, Step

PAGE_ENCODING = "o200k_base"
"""The encoding of the strip's page counts."""


def start(held: Held, extras: Extras, opened: Opened, plain: Opened | None) -> tuple[Step, ...]:
    """The after-work of ``opened`` (``plain``: the same file read without OCR;
    ``extras``: what is known already, the hidden-text findings of this file).

    A Word document has none: no pages, no images, no OCR, and its hidden runs
    (``w:vanish``) are left out of the projection by docs/WORD.md itself."""
    doc, source = paged(opened.doc), opened.source
    if doc is None:
        notes = kind_of(opened.doc).notes(opened.doc)
        if not notes:
            return (OcrRead(opened, ()),)
        # What `siftui render` says on stderr: the answers are exact for the rest.
        said = "; ".join(notes[:5]) + (" ..." if len(notes) > 5 else "")
        return OcrRead(opened, ()), Notice(said, f"{source.name}: read in part", "warning", 12)
    plain_doc = paged(plain.doc) if plain is not None else None
    damaged = {item.page for item in opened.unreadable}
    empty = textless_pages(doc, damaged)
    ocr_pages: tuple[int, ...] = ()
    if source.ocr and plain is not None and plain_doc and plain.source.path == source.path:
        ocr_pages = read_by_ocr(plain_doc, doc)
    steps: list[Step] = [OcrRead(opened, ocr_pages)]
    if ocr_pages:
        said = (
            f"Tesseract read {plural(len(ocr_pages), 'page')} without text: "
            f"p. {listed(ocr_pages)}. Their page markers are marked OCR."
        )
        steps.append(Notice(said, "OCR", timeout=10))
    if opened.unreadable:
        said = describe(opened.unreadable) + ". The strip marks them with !."
        steps.append(Notice(said, "Damaged pages", "warning", 10))
    if empty:
        hint = "" if held.ocr else " Press t to read them with OCR."
        said = (
            f"{no_text_line(empty, len(doc.pages))}. "
            f"The agent gets only {'its page marker' if len(empty) == 1 else 'their page markers'}."
            f"{hint}"
        )
        steps.append(Notice(said, "Pages without text", "warning", 10))

    def prepare_grep() -> None:
        GIVE_WAY.pause()  # a result the user waits for first
        index_of(doc).prepare_grep()  # the first search then pays only for searching

    def page_tokens() -> PageTokens | None:
        try:
            # Tooltips' counts: they give way to a result the user waits for, while
            # the vocabulary is built (a second, half of it holding the interpreter)
            # and between pages.
            GIVE_WAY.pause()
            return PageTokens(opened, tuple(count_pages(doc, PAGE_ENCODING, GIVE_WAY.pause)))
        except VocabularyError:
            return None  # the token line already says the vocabulary could not be loaded

    def images() -> Images | None:
        from siftui.sources.pageimages import pages_with_images

        try:
            if not empty or is_json_form(source.path):
                return None
            found = pages_with_images(source.path, empty, opened.password)
        except Exception:  # the strip keeps "no text": images are a nicety
            return None
        return Images(
            opened, tuple(found.get(page, False) for page in range(1, len(doc.pages) + 1))
        )

    steps += hidden_flow.start(held, extras, opened)
    steps.append(Job(prepare_grep, "prepare", "grep"))
    steps.append(Job(page_tokens, "page-tokens", "t"))
    steps.append(Job(images, "images", "images"))
    return tuple(steps)


def read_by_ocr(plain: Doc, read: Doc) -> tuple[int, ...]:
    """Pages empty in the plain extraction that OCR gave text to."""
    return tuple(
        number
        for number, (before, after) in enumerate(zip(plain.pages, read.pages, strict=False), 1)
        if not before.strip() and after.strip()
    )
