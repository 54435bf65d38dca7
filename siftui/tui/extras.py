"""What workers find about the answer after it is painted, put back into the answer.

The answer is drawn at once; then workers find more: the document's
hidden-text findings (siftui.tui.hidden_flow), what no ``pages=`` call shows
at the answer's OutCap (the kind table's ``unreachable``, cached per
document, OutCap and unit), the agents table (siftui.sources.agents_load) and the token
line's counts of the content. Each result is kept here; the app is told
(``changed``) and shows its answer again *dressed* with it (:meth:`Extras.dress`),
so every widget still draws from the one answer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App

from siftui.core.budget import check_unit
from siftui.core.doc import Doc
from siftui.core.kinds import PDF
from siftui.sources.errors import report_unexpected
from siftui.tui.state import Agents, Answer, Held, Opened, Source

if TYPE_CHECKING:
    from siftui.core.findings import Inspection
    from siftui.core.unreachable import Unreachable
    from siftui.sources.tokens import TokenCounts

REACH_CACHE = 32
COUNTS_CACHE = 16


class Extras:
    """The findings kept beside the answers; ``changed`` tells the app something new is
    known (it then shows its answer again, dressed)."""

    def __init__(self, app: App[Any], held: Held, changed: Callable[[], None]) -> None:
        self.app, self.held, self.changed = app, held, changed
        # The hidden-text inspection of a file (its path and sha256), once done.
        self.hidden: tuple[tuple[Path, str], Inspection] | None = None
        self.hidden_note = ""  # why hidden text is not known yet (or at all)
        self.agents: Agents | None = None
        self._agents_started = False
        self._reach: OrderedDict[tuple[Source, int, str], Unreachable] = OrderedDict()
        self._counts: OrderedDict[str, TokenCounts] = OrderedDict()
        self._reaching: tuple[Source, int, str] | None = None  # being worked out now
        self._wanted: tuple[tuple[Source, int, str], Doc] | None = None  # next, once it is done

    # ------------------------------------------------------------ the answer, dressed

    def dress(self, answer: Answer) -> Answer:
        """``answer`` with all that is known beside it now."""
        changes: dict[str, object] = {}
        opened, facts = self.held.opened, answer.facts
        if opened is not None and facts is not None and answer.doc is opened.doc:
            if facts.unreadable != opened.unreadable:
                facts = replace(facts, unreadable=opened.unreadable)
            inspection = self.inspection
            if inspection is not None and facts.hidden is not inspection:
                facts = replace(facts, hidden=inspection)
            if facts is not answer.facts:
                changes["facts"] = facts
        source = answer.request.source
        if answer.unreachable is None and answer.doc is not None and source is not None:
            reach = self._reach.get((source, answer.options.out_cap, answer.options.unit))
            if reach is not None:
                changes["unreachable"] = reach
        if answer.counts is None:
            counts = self._counts.get(answer.rendered.content)
            if counts is not None:
                changes["counts"] = counts
        if self.agents is not None and answer.agents is not self.agents:
            changes["agents"] = self.agents
        return replace(answer, **changes) if changes else answer  # type: ignore[arg-type]

    # ---------------------------------------------------------------- hidden text

    @property
    def inspection(self) -> Inspection | None:
        """The hidden-text findings of the document open, once the worker found them."""
        opened, found = self.held.opened, self.hidden
        if opened is None or found is None:
            return None
        if found[0] != (opened.source.path, opened.source.sha256):
            return None
        return found[1]

    def found_hidden(self, opened: Opened, inspection: Inspection) -> None:
        self.hidden = ((opened.source.path, opened.source.sha256), inspection)
        self.changed()

    # ------------------------------------------------------- after an answer is painted

    def after(self, answer: Answer) -> None:
        """Start the workers ``answer`` still lacks (none when all is known or cached)."""
        app = self.app
        if not self._agents_started:
            self._agents_started = True
            app.run_worker(self._load_agents, thread=True, group="agents", description="agents")
        doc, source = PDF.doc(answer.doc), answer.request.source
        # A Word answer has no pages= calls, so nothing they cannot reach.
        if answer.unreachable is not None or doc is None or source is None:
            return
        self._reach_next((source, answer.options.out_cap, answer.options.unit), doc)

    def _reach_next(self, key: tuple[Source, int, str], doc: Doc) -> None:
        """Work out ``key`` in a worker, one at a time: while one runs (a thread cannot be
        stopped), only the newest OutCap asked for waits, so a dragged slider never
        piles up threads that slow the answers down."""
        if key in self._reach or key == self._reaching:
            return
        if self._reaching is not None:
            self._wanted = (key, doc)
            return
        self._reaching, self._wanted = key, None
        app = self.app

        def work() -> None:
            found: Unreachable | None = None
            try:
                found = PDF.unreachable(doc, key[1], unit=check_unit(key[2]))
            except Exception as error:  # a bug in siftui: logged, and the counter goes without
                report_unexpected(error, "finding the unreachable tail")
            app.call_from_thread(self._reached, key, found)

        app.run_worker(work, thread=True, group="reach", description="unreachable")

    def _reached(self, key: tuple[Source, int, str], found: Unreachable | None) -> None:
        self._reaching = None
        if found is not None:
            self._reach[key] = found
            self._reach.move_to_end(key)
            while len(self._reach) > REACH_CACHE:
                self._reach.popitem(last=False)
            self.changed()
        wanted, self._wanted = self._wanted, None
        answer = self.held.answer
        if (
            wanted is not None
            and answer is not None
            and answer.doc is wanted[1]
            and answer.options.out_cap == wanted[0][1]
        ):
            self._reach_next(*wanted)

    def _load_agents(self) -> None:
        from siftui.core.agents import AgentsError
        from siftui.sources.agents_load import load_agents

        try:
            agents = Agents(tuple(load_agents()))
        except AgentsError as error:
            agents = Agents(error=str(error))
        self.app.call_from_thread(self._agents_loaded, agents)

    def _agents_loaded(self, agents: Agents) -> None:
        self.agents = agents
        self.changed()

    def counted(self, content: str, counts: TokenCounts) -> None:
        """The token line counted ``content``."""
        self._counts[content] = counts
        while len(self._counts) > COUNTS_CACHE:
            self._counts.popitem(last=False)
        self.changed()
