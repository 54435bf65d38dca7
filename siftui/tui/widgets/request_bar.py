"""The request bar: the fields an agent's call fills in, for the kind of document open.

A PDF is asked by Pages and Grep; a Word document by Range, Anchor and Window,
Grep and Scope (docs/WORD.md). The bar holds no request: each edit is posted as
:class:`RequestBar.Edited` (a field's name and its text) and Enter as
:class:`RequestBar.Submitted`; the app turns them into the request
(siftui.tui.kinds.with_field) and shows the request back through ``shown``, bound
to the app's (:meth:`show`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from siftui.core.kind_view import GREP, Field, KindView
from siftui.core.kinds import DEFAULT_KIND, KINDS
from siftui.tui.kinds import field_values, view_of
from siftui.tui.widgets.safe_input import SafeInput

if TYPE_CHECKING:
    from siftui.tui.kinds import AnyOptions


class RequestBar(Horizontal):
    """The fields of the kind shown (its entry's view): Pages / Grep for a PDF; Range /
    Anchor / Window / Grep / Scope for a Word document."""

    class Edited(Message):
        def __init__(self, field: str, text: str) -> None:
            super().__init__()
            self.field = field
            self.text = text

    class Submitted(Message):
        """Enter in a field: the request as it stands is a call."""

    view: KindView = DEFAULT_KIND.view
    """The kind whose fields the bar shows."""
    # Its class from the start: added after the first layout, it restyled the bar and
    # its fields before the first frame.
    DEFAULT_CLASSES = f"-{DEFAULT_KIND.view.style}"

    shown: reactive[AnyOptions | None] = reactive(None, init=False)
    """The request the bar shows (the app's, bound): set when the app shows it, not
    when the bar proposed it (None: none shown yet)."""

    def compose(self) -> ComposeResult:
        # The default kind's fields (most starts): another kind's are made the first time
        # one is shown.
        view = DEFAULT_KIND.view
        for field in view.fields:
            yield from _field(field, view)
        yield from _field(GREP)
        for field in view.after_grep:
            yield from _field(field, view)

    def _mount_fields(self, view: KindView) -> None:
        """Mount a kind's fields, the first time one is shown."""
        if not view.fields or self.query(f"#{view.fields[0].name}"):
            return
        grep_label = self.query_one("#grep-label", Static)
        before = [piece for field in view.fields for piece in _field(field, view)]
        self.mount_all(before, before=grep_label)
        self.mount_all([piece for field in view.after_grep for piece in _field(field, view)])

    def watch_shown(self, shown: AnyOptions | None) -> None:
        if shown is not None:
            self.show(field_values(shown), view_of(shown))

    def show(self, values: dict[str, str], view: KindView) -> None:
        """Show a request: the fields of its kind (``view``), with its values (an Input
        set to its own value posts nothing, so the request is not proposed again)."""
        self._mount_fields(view)
        if view is not self.view:  # a class changed restyles the bar and its fields
            self.remove_class(f"-{self.view.style}")
            self.add_class(f"-{view.style}")
            self.view = view
        for name, value in values.items():
            field = self.query_one(f"#{name}", Input)
            if field.value != value:
                field.value = value

    def field(self, name: str) -> Input:
        """The field ``name`` (of the kind shown, or of the other kind that has it)."""
        if not self.query(f"#{name}"):
            views = (self.view, *(kind.view for kind in KINDS))
            view = next(view for view in views if name in (f.name for f in view.every_field))
            self._mount_fields(view)
        return self.query_one(f"#{name}", Input)

    @on(Input.Changed)
    def _edited(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.id is not None:
            self.post_message(self.Edited(event.input.id, event.value))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted())


class CompletingInput(SafeInput):
    """An Input whose Tab accepts the completion it shows (`foot` → `footnotes`), and
    moves on, as Tab does elsewhere, when it shows none."""

    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]  # noqa: RUF012

    def action_complete(self) -> None:
        before = self.value
        self.cursor_position = len(self.value)
        self.action_cursor_right()  # at the end, this accepts the suggestion
        if self.value == before:
            self.screen.focus_next()


def _field(field: Field, view: KindView | None = None) -> tuple[Static, Input]:
    """A field's label and its Input (one that completes with Tab, when the field
    completes); ``view``: the kind the field is its own (None: every kind's). A narrow
    terminal hides the labels: the tooltip still names the field. The label is a Static:
    a Label brings its variants' rules, parsed before the first frame."""
    classes = "" if view is None else f"{view.style}-only"
    options: dict[str, Any] = {}
    if field.restrict is not None:
        options["restrict"] = field.restrict
    if field.completes and view is not None:
        options["suggester"] = SuggestFromList(view.suggestions(), case_sensitive=False)
    kind = CompletingInput if "suggester" in options else SafeInput  # a log's controls
    return (
        Static(
            field.label,
            id=f"{field.name}-label",
            classes=f"field-label {classes}".strip(),
            markup=False,
        ),
        kind(
            placeholder=field.placeholder,
            id=field.name,
            compact=True,
            classes=classes,
            tooltip=field.label,
            **options,
        ),
    )
