"""The OutCap control: the slider and an exact-number entry ("20k", "1.5M", "20,000").

OutCap bounds the read tool's answer, counted in code points (runes) or UTF-8
bytes: the button beside the entry shows the request's unit and asks for the
other (:class:`OutCapControl.UnitPressed`; the app makes it the request). The
slider covers 1,000 .. 1,000,000 on a log scale; the entry accepts any whole
number from 1 to 1,000,000,000 (parsed by siftui.core.outcap, as the CLI's --outcap).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from siftui.core.budget import BYTES, CHARS
from siftui.core.outcap import ENTRY_MAX, ENTRY_MIN, INVALID_MESSAGE, parse_outcap
from siftui.tui.widgets.outcap_scale import DEFAULT_OUT_CAP
from siftui.tui.widgets.outcap_slider import OutCapSlider

if TYPE_CHECKING:
    from siftui.tui.kinds import AnyOptions

__all__ = ["OutCapControl", "OutCapSlider", "UnitButton"]


class UnitButton(Button, inherit_css=False):
    """A compact button styled by siftui.tcss alone: Textual's Button brings 1,300
    tokens of CSS for its variants, a sixth of the stylesheet parsed before the
    first frame, of which this button uses a few rules."""


class OutCapControl(Widget):
    """A label, the OutCapSlider and an exact-number Input, with a one-line error message.

    `value` is kept in sync with the slider and the Input.  Typing a number and
    pressing Enter (or leaving the Input) sets it exactly; an invalid entry shows
    INVALID_MESSAGE and keeps the last good value.
    """

    DEFAULT_CSS = """
    OutCapControl {
        height: auto;
        width: 1fr;
        & > .outcap--row { height: auto; width: 1fr; }
        & .outcap--label { width: auto; padding: 0 1 0 0; }
        & OutCapSlider { width: 1fr; }
        & .outcap--input { width: 12; margin: 0 0 0 1; }
        & .outcap--unit { width: auto; min-width: 7; margin: 0 0 0 1; }
        & .outcap--message {
            height: 1;
            width: 1fr;
            color: $error;
            text-wrap: nowrap;
            text-overflow: ellipsis;
        }
    }
    """

    value: reactive[int] = reactive(DEFAULT_OUT_CAP, init=False)
    """The OutCap in its unit, ENTRY_MIN .. ENTRY_MAX."""

    unit: reactive[str] = reactive(CHARS.name, init=False)
    """The unit the request counts OutCap in, as shown ("chars" or "bytes")."""

    shown: reactive[AnyOptions | None] = reactive(None, init=False)
    """The request the control shows (the app's, bound; None: none shown yet): its
    OutCap (set only when it differs, so no Changed is posted for the value held) and
    its unit."""

    class UnitPressed(Message):
        """The unit button was pressed: the other unit is asked for."""

    class Changed(Message):
        """Posted whenever the control's value changes (from the slider or the Input)."""

        def __init__(
            self, outcap_control: OutCapControl, value: int, *, call: bool = False
        ) -> None:
            super().__init__()
            self.outcap_control: OutCapControl = outcap_control
            """The control that changed."""
            self.value: int = value
            """The new value."""
            self.call: bool = call
            """The user asked for it: a key step, a click, a drag let go, or Enter in the
            entry (not a value passed while dragging, nor one the app set)."""

        @property
        def control(self) -> OutCapControl:
            """Alias for self.outcap_control."""
            return self.outcap_control

    def __init__(
        self,
        value: int = DEFAULT_OUT_CAP,
        *,
        label: str = "OutCap",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        value = self.validate_value(value)
        self.set_reactive(OutCapControl.value, value)
        self._label = Static(label, classes="outcap--label", markup=False)
        self.slider = OutCapSlider(value, classes="outcap--slider")
        """The slider."""
        self.input = Input(
            str(value),
            placeholder="runes",
            compact=True,
            classes="outcap--input",
            tooltip="Exact OutCap in runes (e.g. 12345, 20,000, 20k, 1.5M); Enter to apply",
        )
        """The exact-number entry."""
        self.unit_button = UnitButton(
            "runes",
            compact=True,
            classes="outcap--unit",
            tooltip="OutCap counts code points (runes); press (or u) to count UTF-8 bytes",
        )
        """Shows the unit; pressing it asks for the other."""
        self.message = Static("", markup=False, classes="outcap--message")
        """The one-line error message (hidden when empty)."""
        self.message.display = False
        self._asked = False  # the value being set was asked for (see Changed.call)

    def compose(self) -> ComposeResult:
        with Horizontal(classes="outcap--row"):
            yield self._label
            yield self.slider
            yield self.input
            yield self.unit_button
        yield self.message

    def watch_shown(self, shown: AnyOptions | None) -> None:
        if shown is None:
            return
        if self.value != shown.out_cap:
            self.value = shown.out_cap
        self.unit = shown.unit

    def validate_value(self, value: int) -> int:
        return min(ENTRY_MAX, max(ENTRY_MIN, int(value)))

    def watch_value(self, value: int) -> None:
        self.slider.value = value
        if parse_outcap(self.input.value) != value:
            self._write_entry(value)
        self._show_error(None)
        self.post_message(self.Changed(self, value, call=self._asked))
        self._asked = False

    def _set(self, value: int, *, call: bool) -> None:
        if call and self.validate_value(value) == self.value:
            self.post_message(self.Changed(self, self.value, call=True))
            return
        self._asked = call
        self.value = value
        self._asked = False

    def watch_unit(self, unit: str) -> None:
        word, other = ("bytes", "code points (runes)") if unit == BYTES.name else ("runes", "")
        self.unit_button.label = word
        self.unit_button.tooltip = (
            f"OutCap counts UTF-8 bytes (at most that many tokens in any byte-level "
            f"tokenizer); press (or u) to count {other}"
            if unit == BYTES.name
            else "OutCap counts code points (runes); press (or u) to count UTF-8 bytes"
        )
        self.input.placeholder = word

    @on(Button.Pressed)
    def _unit_pressed(self, event: Button.Pressed) -> None:
        if event.button is self.unit_button:
            event.stop()
            self.post_message(self.UnitPressed())

    def step_up(self) -> None:
        """One ladder step up (delegates to the slider)."""
        self.slider.step_up()

    def step_down(self) -> None:
        """One ladder step down (delegates to the slider)."""
        self.slider.step_down()

    def _show_error(self, message: str | None) -> None:
        self.message.update(message or "")
        self.message.display = bool(message)
        self.input.set_class(bool(message), "-invalid")

    def _apply_entry(self, text: str, *, revert: bool) -> None:
        parsed = parse_outcap(text)
        if parsed is None:
            self._show_error(INVALID_MESSAGE)
            if revert:
                self._write_entry(self.value)
            return
        self._show_error(None)
        self._set(parsed, call=not revert)  # Enter asks for it; leaving the entry does not
        self._write_entry(parsed)

    def _write_entry(self, value: int) -> None:
        """The entry shows ``value`` in digits, its cursor at the end: left where it was
        ("1.5M" typed, 4), the next key would land inside "1500000"."""
        self.input.value = str(value)
        self.input.cursor_position = len(self.input.value)

    @on(OutCapSlider.Changed)
    def _slider_changed(self, event: OutCapSlider.Changed) -> None:
        # Ignore stale messages (the slider has moved on since): acting on them
        # would set the value back and bounce between the two.
        if event.slider is self.slider and event.value == self.slider.value:
            self._set(event.value, call=event.call)

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        if event.input is self.input:
            event.stop()
            self._apply_entry(event.value, revert=False)

    @on(Input.Blurred)
    def _input_blurred(self, event: Input.Blurred) -> None:
        if event.input is self.input:
            event.stop()
            if parse_outcap(event.value) != self.value:
                self._apply_entry(event.value, revert=True)
