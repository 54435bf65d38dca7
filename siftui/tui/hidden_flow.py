"""Hidden text in the TUI: the inspection's job.

After the first answer is painted, a worker inspects the file
(:func:`siftui.sources.hidden.cache.cached_inspect`, through the disk cache); its
findings come back to the app as a fact (siftui.tui.facts), and the app shows
its answer again with them in its facts, so the strip, the view and the counter
draw them from the answer. `h` (siftui.tui.key_actions) lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from siftui.sources.errors import report_unexpected
from siftui.sources.kinds import is_json_form
from siftui.sources.load_options import LoadOptions
from siftui.sources.pdf_open import ExtractError
from siftui.tui.extras import Extras
from siftui.tui.facts import DocumentFact, HiddenFound, HiddenNote
from siftui.tui.state import Held, Opened
from siftui.tui.steps import Job, Notice, Step

if TYPE_CHECKING:  # made by the scan, after the first frame
    from siftui.core.findings import Inspection


class _Stopped(Exception):
    """The inspection is no longer wanted."""


def start(held: Held, extras: Extras, opened: Opened) -> tuple[Step, ...]:
    """Inspect the file open for hidden text, in a worker (once per file version)."""
    source = opened.source
    if extras.inspection is not None:
        return ()  # the same file again (the OCR toggle): already known
    if is_json_form(source.path):
        return (HiddenNote(opened, "a Doc JSON file holds text only: there is nothing to inspect"),)

    def progress(done: int, total: int) -> None:
        # Called after each page: stop when the app quits (its workers are cancelled)
        # or another document opens, so quitting never waits for a long inspection.
        if get_current_worker().is_cancelled or held.opened is not opened:
            raise _Stopped

    def work() -> DocumentFact | None:
        from siftui.sources.hidden.cache import cached_inspect

        try:
            found = cached_inspect(
                source.path, LoadOptions(password=opened.password), progress=progress
            )
        except _Stopped:
            return None
        except ExtractError as error:
            return HiddenNote(opened, f"hidden text was not inspected: {error}")
        except Exception as error:  # a bug, or a file PyMuPDF reads only in part
            failed_line = report_unexpected(error, "looking for hidden text")
            return HiddenNote(opened, f"hidden text was not inspected: {failed_line}")
        return HiddenFound(opened, found, alarm(found))

    still = HiddenNote(opened, f"still looking for hidden text in {source.name} …")
    return still, Job(work, "hidden", "hidden text")


def alarm(found: Inspection) -> Notice | None:
    """What the app says of the findings (nothing when no reader misses any)."""
    if not found.alarms:
        return None
    pages = sorted({finding.page for finding in found.alarms})
    listed = ", ".join(map(str, pages[:12])) + (" ..." if len(pages) > 12 else "")
    apart = len(found.unextracted)
    also = f" ({apart} more hidden but not extracted: no agent reads them.)" if apart else ""
    said = (
        f"{len(found.alarms)} piece(s) of text no reader of the page sees, "
        f"on p. {listed}. The agent reads them; h lists them.{also}"
    )
    return Notice(said, "Hidden text", "warning", 10)
