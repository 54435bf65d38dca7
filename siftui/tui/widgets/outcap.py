"""The OutCap control: the slider and an exact-number entry ("20k", "1.5M", "20,000").

OutCap bounds the read tool's answer, counted in code points (runes). The
slider covers 1,000 .. 1,000,000 on a log scale; the entry accepts any whole
number from 1 to 1,000,000,000 (parsed by siftui.core.outcap, as the CLI's --outcap).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from siftui.core.outcap import ENTRY_MAX, ENTRY_MIN, INVALID_MESSAGE, parse_outcap
from siftui.tui.widgets.outcap_scale import DEFAULT_OUT_CAP
from siftui.tui.widgets.outcap_slider import OutCapSlider

__all__ = ["OutCapControl", "OutCapSlider"]


class OutCapControl(Widget):
    """Label + OutCapSlider + exact-number Input, with a one-line error message.

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
    """The OutCap in runes, ENTRY_MIN .. ENTRY_MAX."""

    class Changed(Message):
        """Posted whenever the control's value changes (from the slider or the Input)."""

        def __init__(self, outcap_control: OutCapControl, value: int) -> None:
            super().__init__()
            self.outcap_control: OutCapControl = outcap_control
            """The control that changed."""
            self.value: int = value
            """The new value."""

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
        self._label = Label(label, classes="outcap--label")
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
        self.message = Static("", markup=False, classes="outcap--message")
        """The one-line error message (hidden when empty)."""
        self.message.display = False

    def compose(self) -> ComposeResult:
        with Horizontal(classes="outcap--row"):
            yield self._label
            yield self.slider
            yield self.input
        yield self.message

    def validate_value(self, value: int) -> int:
        return min(ENTRY_MAX, max(ENTRY_MIN, int(value)))

    def watch_value(self, value: int) -> None:
        self.slider.value = value
        if parse_outcap(self.input.value) != value:
            self.input.value = str(value)
        self._show_error(None)
        self.post_message(self.Changed(self, value))

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
                self.input.value = str(self.value)
            return
        self._show_error(None)
        self.value = parsed
        self.input.value = str(parsed)

    @on(OutCapSlider.Changed)
    def _slider_changed(self, event: OutCapSlider.Changed) -> None:
        # Ignore stale messages (the slider has moved on since): acting on them
        # would set the value back and bounce between the two.
        if event.slider is self.slider and event.value == self.slider.value:
            self.value = event.value

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
