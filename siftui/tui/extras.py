"""What workers find about the answer after it is painted, put back into the answer.

The answer is drawn at once; then workers find more: the token counts of its
content and what no ``pages=`` call shows at its OutCap (the kind table's
``unreachable``, cached per document, OutCap and unit), both in one worker per
answer; the agents table (siftui.sources.agents_load); and, once per document
(siftui.tui.background), the pages OCR read, each page's tokens, which pages
without text hold images and the hidden-text findings (siftui.tui.hidden_flow).
Each arrives as a fact (siftui.tui.facts) through the app (siftui.tui.found), which
hands it to :meth:`Extras.found` and shows its answer again *dressed* with all
that is known (:meth:`Extras.dress`), so every widget still draws from the one
answer. :class:`Extras` holds no app: it returns the steps to take next.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from siftui.core.budget import check_unit
from siftui.core.doc import Doc
from siftui.core.kinds import kind_of, paged
from siftui.sources.errors import report_unexpected
from siftui.tui.found import Fact
from siftui.tui.give_way import GIVE_WAY
from siftui.tui.state import Agents, Answer, Held, Opened

if TYPE_CHECKING:
    from siftui.core.findings import Inspection
    from siftui.core.unreachable import Unreachable
    from siftui.sources.tokens import TokenCounts
    from siftui.tui.facts import AgentsRead, DocumentFact, Dressing, ReachKey
    from siftui.tui.steps import Job, Step

REACH_CACHE = 32
COUNTS_CACHE = 16


# ------------------------------------------------------------------------ the store


class Extras:
    """The findings kept beside the answers (``held``: the app's state, to read)."""

    def __init__(self, held: Held) -> None:
        self.held = held
        # The hidden-text inspection of a file (its path and sha256), once done.
        self.hidden: tuple[tuple[Path, str], Inspection] | None = None
        self.hidden_note = ""  # why hidden text is not known yet (or at all)
        self.agents: Agents | None = None
        self._agents_started = False
        self._reach: OrderedDict[ReachKey, Unreachable] = OrderedDict()
        self._counts: OrderedDict[str, TokenCounts] = OrderedDict()  # the one token cache
        # The answer's after-work runs in one worker at a time (a thread cannot be
        # stopped): meanwhile only what the newest answer lacks waits, so a dragged
        # slider never piles up threads that slow the answers down.
        self._busy = False
        self._count_next: str | None = None
        self._reach_wanted: tuple[ReachKey, Doc] | None = None
        # The document's after-work: which document, the pages OCR read, each page's
        # tokens, which pages without text hold images (None: not known yet).
        self._of: Opened | None = None
        self._ocr: tuple[int, ...] = ()
        self._page_tokens: tuple[int, ...] = ()
        self._images: tuple[bool, ...] | None = None

    # ------------------------------------------------------------ the answer, dressed

    def dress(self, answer: Answer) -> Answer:
        """``answer`` with all that is known beside it now."""
        changes: dict[str, object] = {}
        opened, facts = self.held.opened, answer.facts
        if opened is not None and facts is not None and answer.doc is opened.doc:
            known: dict[str, object] = {"unreadable": opened.unreadable}
            if (inspection := self.inspection) is not None:
                known["hidden"] = inspection
            if self._of is opened:
                known["ocr_pages"] = self._ocr
                known["page_tokens"] = self._page_tokens
                known["images"] = self._images
            news = {
                name: value
                for name, value in known.items()
                if getattr(facts, name) is not value and getattr(facts, name) != value
            }
            if news:
                changes["facts"] = replace(facts, **news)  # type: ignore[arg-type]
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

    @property
    def inspection(self) -> Inspection | None:
        """The hidden-text findings of the document open, once the worker found them."""
        opened, found = self.held.opened, self.hidden
        if opened is None or found is None:
            return None
        if found[0] != (opened.source.path, opened.source.sha256):
            return None
        return found[1]

    # ------------------------------------------------------- after an answer is painted

    def after(self, answer: Answer) -> tuple[Step, ...]:
        """The jobs ``answer`` still lacks (none when all is known, cached or under way)."""
        from siftui.tui.steps import Job  # once the first answer is painted

        steps: list[Step] = []
        if not self._agents_started:
            self._agents_started = True
            steps.append(Job(_load_agents, "agents", "agents", exclusive=False))
        content = answer.rendered.content
        self._count_next = content if answer.counts is None else None
        self._reach_wanted = None
        doc, source = paged(answer.doc), answer.request.source
        # A Word answer has no pages= calls, so nothing they cannot reach.
        if answer.unreachable is None and doc is not None and source is not None:
            self._reach_next((source, answer.options.out_cap, answer.options.unit), doc)
        return (*steps, *self._start())

    def _reach_next(self, key: ReachKey, doc: Doc) -> None:
        """Work out ``key`` with the answer's next job (unless it is known)."""
        if key not in self._reach:
            self._reach_wanted = (key, doc)

    def _start(self) -> tuple[Job, ...]:
        """The job of what the newest answer lacks, unless one runs (it follows then)."""
        from siftui.tui.steps import Job

        count = self._count_next if self._count_next not in self._counts else None
        wanted = self._reach_wanted
        if wanted is not None and wanted[0] in self._reach:
            wanted = None
        if self._busy or (count is None and wanted is None):
            return ()
        self._busy, self._count_next, self._reach_wanted = True, None, None

        def work() -> Dressing:
            from siftui.tui.facts import Dressing  # after the first frame

            counts = None
            if count is not None:
                from siftui.sources.tokens import token_counts  # after the first frame

                # Given way to a result the user waits for (the evidence preview's) while
                # a vocabulary is built: the answer's counter is not shown meanwhile.
                counts = token_counts(count, pause=GIVE_WAY.pause)
            found: Unreachable | None = None
            if wanted is not None:
                (_, out_cap, unit), doc = wanted
                try:
                    found = kind_of(doc).unreachable(doc, out_cap, unit=check_unit(unit))
                except Exception as error:  # a bug in siftui: logged, the counter goes without
                    report_unexpected(error, "finding the unreachable tail")
            return Dressing(count, counts, wanted[0] if wanted else None, found)

        return (Job(work, "dress", "tokens and the unreachable tail", exclusive=False),)

    # ------------------------------------------------------------- what was found

    def found(self, fact: Fact) -> tuple[Step, ...]:
        """Keep ``fact``; the steps it leads to (the next job, a notice)."""
        from siftui.tui.facts import AgentsRead, DocumentFact, Dressing  # made by then

        if isinstance(fact, Dressing):
            self._busy = False
            if fact.content is not None and fact.counts is not None:
                self._counts[fact.content] = fact.counts
                while len(self._counts) > COUNTS_CACHE:
                    self._counts.popitem(last=False)
            if fact.key is not None and fact.reach is not None:
                self._reach[fact.key] = fact.reach
                self._reach.move_to_end(fact.key)
                while len(self._reach) > REACH_CACHE:
                    self._reach.popitem(last=False)
            return self._start()
        if isinstance(fact, AgentsRead):
            self.agents = fact.agents
        elif isinstance(fact, DocumentFact) and fact.opened is self.held.opened:
            return self._about_document(fact)
        return ()

    def _about_document(self, fact: DocumentFact) -> tuple[Step, ...]:
        from siftui.tui.facts import HiddenFound, HiddenNote, Images, OcrRead, PageTokens

        if isinstance(fact, OcrRead):
            self._of, self._ocr = fact.opened, fact.pages
            self._page_tokens, self._images = (), None
        elif isinstance(fact, PageTokens) and self._of is fact.opened:
            self._page_tokens = fact.counts
        elif isinstance(fact, Images) and self._of is fact.opened:
            self._images = fact.shown
        elif isinstance(fact, HiddenNote):
            self.hidden_note = fact.note
        elif isinstance(fact, HiddenFound):
            source = fact.opened.source
            self.hidden_note = ""
            self.hidden = ((source.path, source.sha256), fact.inspection)
            return (fact.notice,) if fact.notice is not None else ()
        return ()


def _load_agents() -> AgentsRead:
    from siftui.core.agents import AgentsError
    from siftui.sources.agents_load import load_agents
    from siftui.tui.facts import AgentsRead

    try:
        return AgentsRead(Agents(tuple(load_agents())))
    except AgentsError as error:
        return AgentsRead(Agents(error=str(error)))
