"""Hidden text in the TUI: the inspection worker, and `h`.

After the first answer is painted, a worker inspects the file
(:func:`siftui.sources.hidden.cache.cached_inspect`, through the disk cache); the app
then shows its answer again with the findings in its facts, so the strip, the
view and the counter draw them from the answer. `h` lists every finding (and,
apart, the hidden text the extraction does not hold) and Enter asks for its
page, as an agent would (``pages=P``).
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from siftui.sources.errors import report_unexpected
from siftui.sources.load import is_doc_json
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import ExtractError
from siftui.tui.display import plural
from siftui.tui.extras import Extras
from siftui.tui.kinds import page_call
from siftui.tui.state import Held, Opened


class Stopped(Exception):
    """The inspection is no longer wanted."""


def start(app: App[Any], held: Held, extras: Extras, opened: Opened) -> None:
    """Inspect the file open for hidden text, in a worker (once per file version); what
    it finds is kept in ``extras``."""
    source = opened.source
    if extras.inspection is not None:
        return  # the same file again (the OCR toggle): already known
    if is_doc_json(source.path):
        extras.hidden_note = "a Doc JSON file holds text only: there is nothing to inspect"
        return
    extras.hidden_note = f"still looking for hidden text in {source.name} …"

    def progress(done: int, total: int) -> None:
        # Called after each page: stop when the app quits or another document opens,
        # so quitting never waits for the rest of a long inspection.
        if not app.is_running or held.opened is not opened:
            raise Stopped

    def work() -> None:
        from siftui.sources.hidden.cache import cached_inspect

        try:
            found = cached_inspect(
                source.path, LoadOptions(password=opened.password), progress=progress
            )
        except Stopped:
            return
        except ExtractError as error:
            app.call_from_thread(failed, f"hidden text was not inspected: {error}")
            return
        except Exception as error:  # a bug, or a file PyMuPDF reads only in part
            failed_line = report_unexpected(error, "looking for hidden text")
            app.call_from_thread(failed, f"hidden text was not inspected: {failed_line}")
            return
        app.call_from_thread(done, found)

    def failed(message: str) -> None:
        if app.is_running and held.opened is opened:
            extras.hidden_note = message

    def done(found: object) -> None:
        from siftui.core.findings import Inspection

        if not app.is_running or held.opened is not opened or not isinstance(found, Inspection):
            return
        extras.hidden_note = ""
        extras.found_hidden(opened, found)
        if found.alarms:
            pages = sorted({finding.page for finding in found.alarms})
            listed = ", ".join(map(str, pages[:12])) + (" ..." if len(pages) > 12 else "")
            apart = len(found.unextracted)
            also = (
                f" ({apart} more hidden but not extracted: no agent reads them.)" if apart else ""
            )
            app.notify(
                f"{len(found.alarms)} piece(s) of text no reader of the page sees, "
                f"on p. {listed}. The agent reads them; h lists them.{also}",
                title="Hidden text",
                severity="warning",
                timeout=10,
            )

    app.run_worker(work, thread=True, exclusive=True, group="hidden", description="hidden text")


def list_hidden(app: App[Any], held: Held, extras: Extras) -> None:
    """`h`: the findings of the document open, or why there is no list."""
    opened, inspection = held.opened, extras.inspection
    if opened is None:
        return
    if inspection is None:
        app.notify(extras.hidden_note or "Hidden text is not known for this document.")
        return
    if not inspection.findings and not inspection.unextracted:
        app.notify(
            f"No hidden text in {opened.source.name}: "
            f"{plural(inspection.pages_inspected, 'page')} inspected."
        )
        return

    def chosen(page: int | None) -> None:
        call = None if page is None else page_call(held.request.options, page)
        if call is not None and held.opened is opened:
            held.propose(call, call=True)

    from siftui.tui.screens.findings import FindingsScreen

    app.push_screen(FindingsScreen(opened.source.name, inspection), chosen)
