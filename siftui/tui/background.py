"""Work that waits until a document's first answer is on screen, then runs in workers:
grep tables, each page's token count, which pages without text hold images, the
hidden-text inspection (siftui.tui.hidden_flow), and the notices about pages
without text and pages read by OCR.

Nothing here starts while a document opens, so opening is as fast as the CLI.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from siftui.core.doc import Doc
from siftui.core.docindex import index_of
from siftui.core.kinds import PDF, kind_of
from siftui.core.textless import listed, no_text_line, textless_pages
from siftui.core.unreadable import describe
from siftui.sources.load import is_doc_json
from siftui.sources.tokens import VocabularyError, count_pages
from siftui.tui import hidden_flow
from siftui.tui.display import plural
from siftui.tui.extras import Extras
from siftui.tui.state import Held, Opened
from siftui.tui.widgets.counter import CounterLine
from siftui.tui.widgets.pagestrip import PageStrip
from siftui.tui.widgets.view import ContentView


def start(app: App[Any], held: Held, extras: Extras, opened: Opened, plain: Opened | None) -> None:
    """Start the after-work for ``opened`` (``plain``: the same file read without OCR;
    ``extras`` keeps the hidden-text findings).

    A Word document has none: no pages, no images, no OCR, and its hidden runs
    (``w:vanish``) are left out of the projection by docs/WORD.md itself."""
    doc, source = PDF.doc(opened.doc), opened.source
    if doc is None:
        notes = kind_of(opened.doc).notes(opened.doc)
        app.query_one(ContentView).ocr_pages = frozenset()
        app.query_one(CounterLine).ocr_pages = ()
        app.query_one(PageStrip).set_page_tokens(())
        if notes:  # what `siftui render` says on stderr: the answers are exact for the rest
            app.notify(
                "; ".join(notes[:5]) + (" ..." if len(notes) > 5 else ""),
                title=f"{source.name}: read in part",
                severity="warning",
                timeout=12,
            )
        return
    plain_doc = PDF.doc(plain.doc) if plain is not None else None
    damaged = {item.page for item in opened.unreadable}
    empty = textless_pages(doc, damaged)
    ocr_pages: tuple[int, ...] = ()
    if source.ocr and plain is not None and plain_doc and plain.source.path == source.path:
        ocr_pages = read_by_ocr(plain_doc, doc)
    app.query_one(ContentView).ocr_pages = frozenset(ocr_pages)
    app.query_one(CounterLine).ocr_pages = ocr_pages
    strip = app.query_one(PageStrip)
    strip.images = None
    strip.set_page_tokens(())
    if ocr_pages:
        app.notify(
            f"Tesseract read {plural(len(ocr_pages), 'page')} without text: "
            f"p. {listed(ocr_pages)}. Their page markers are marked OCR.",
            title="OCR",
            timeout=10,
        )
    if opened.unreadable:
        app.notify(
            describe(opened.unreadable) + ". The strip marks them with !.",
            title="Damaged pages",
            severity="warning",
            timeout=10,
        )
    if empty:
        hint = "" if held.ocr else " Press t to read them with OCR."
        app.notify(
            f"{no_text_line(empty, len(doc.pages))}. "
            f"The agent gets only {'its page marker' if len(empty) == 1 else 'their page markers'}."
            f"{hint}",
            title="Pages without text",
            severity="warning",
            timeout=10,
        )

    def still(check: Opened) -> bool:
        return held.opened is check

    def prepare_grep() -> None:
        index_of(doc).prepare_grep()  # the first search then pays only for searching

    def page_tokens() -> None:
        try:
            counts = count_pages(doc, "o200k_base")
        except VocabularyError:
            return  # the token line already says the vocabulary could not be loaded

        def show() -> None:
            if still(opened):
                strip.set_page_tokens(counts)

        app.call_from_thread(show)

    def images() -> None:
        from siftui.sources.pageimages import pages_with_images

        try:
            if not empty or is_doc_json(source.path):
                return
            found = pages_with_images(source.path, empty, opened.password)
        except Exception:  # the strip keeps "no text": images are a nicety
            return
        shown = tuple(found.get(page, False) for page in range(1, len(doc.pages) + 1))

        def show() -> None:
            if still(opened):
                strip.images = shown

        app.call_from_thread(show)

    hidden_flow.start(app, held, extras, opened)
    app.run_worker(prepare_grep, thread=True, exclusive=True, group="prepare", description="grep")
    app.run_worker(page_tokens, thread=True, exclusive=True, group="page-tokens", description="t")
    app.run_worker(images, thread=True, exclusive=True, group="images", description="images")


def read_by_ocr(plain: Doc, read: Doc) -> tuple[int, ...]:
    """Pages empty in the plain extraction that OCR gave text to."""
    return tuple(
        number
        for number, (before, after) in enumerate(zip(plain.pages, read.pages, strict=False), 1)
        if not before.strip() and after.strip()
    )
