"""Tests for the OutCap slider and control (siftui.tui.outcap).

pytest-asyncio is not installed, so each async Pilot scenario runs under
asyncio.run() inside a plain test function.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from siftui.core.outcap import ENTRY_MAX, INVALID_MESSAGE, parse_outcap
from siftui.core.render import DEFAULT_OUT_CAP as DEFAULT_OUTCAP
from siftui.tui.widgets.outcap import OutCapControl, OutCapSlider
from siftui.tui.widgets.outcap_scale import (
    LADDER,
    SLIDER_MAX,
    SLIDER_MIN,
    ladder_step,
    position_of,
    value_at,
)

Scenario = Callable[["OutCapApp", Pilot[None]], Awaitable[None]]


class OutCapApp(App[None]):
    """A minimal app around one OutCapControl that records the Changed messages."""

    def __init__(self, value: int = DEFAULT_OUTCAP, slider_height: int = 1) -> None:
        super().__init__()
        self.initial = value
        self.slider_height = slider_height
        self.control_changes: list[int] = []
        self.slider_changes: list[int] = []

    def compose(self) -> ComposeResult:
        yield OutCapControl(self.initial, id="outcap")

    def on_mount(self) -> None:
        self.query_one(OutCapSlider).styles.height = self.slider_height

    def on_out_cap_control_changed(self, event: OutCapControl.Changed) -> None:
        assert event.control is self.control
        self.control_changes.append(event.value)

    def on_out_cap_slider_changed(self, event: OutCapSlider.Changed) -> None:
        assert event.control is self.slider
        self.slider_changes.append(event.value)

    @property
    def control(self) -> OutCapControl:
        return self.query_one(OutCapControl)

    @property
    def slider(self) -> OutCapSlider:
        return self.query_one(OutCapSlider)


def run(
    scenario: Scenario,
    *,
    value: int = DEFAULT_OUTCAP,
    size: tuple[int, int] = (80, 10),
    slider_height: int = 1,
) -> OutCapApp:
    app = OutCapApp(value, slider_height=slider_height)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())
    return app


async def focus_slider(app: OutCapApp, pilot: Pilot[None]) -> None:
    app.slider.focus()
    await pilot.pause()


def track_width(app: OutCapApp) -> int:
    return app.slider.content_size.width


# -- pure helpers ----------------------------------------------------------


def test_ladder_is_nice_and_ascending() -> None:
    assert LADDER[0] == SLIDER_MIN
    assert LADDER[-1] == SLIDER_MAX
    assert list(LADDER) == sorted(set(LADDER))
    assert len(LADDER) == 31
    assert LADDER[:10] == (1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000)
    assert DEFAULT_OUTCAP in LADDER


@pytest.mark.parametrize(
    ("start", "steps", "expected"),
    [
        (100_000, 1, 120_000),
        (100_000, -1, 80_000),
        (12_345, 1, 15_000),
        (12_345, -1, 12_000),
        (100_000, 10, 1_000_000),
        (100_000, -10, 10_000),
        (1_000, -1, 1_000),
        (1_000_000, 1, 1_000_000),
        (300, 1, 1_000),
        (300, -1, 300),
        (5_000_000, -1, 1_000_000),
        (5_000_000, 1, 5_000_000),
    ],
)
def test_ladder_step(start: int, steps: int, expected: int) -> None:
    assert ladder_step(start, steps) == expected


def test_log_mapping() -> None:
    assert value_at(0.0) == 1_000
    assert value_at(1.0) == 1_000_000
    assert value_at(0.5) == 31_600
    assert value_at(2 / 3) == 100_000
    assert value_at(-1.0) == 1_000
    assert value_at(2.0) == 1_000_000
    assert position_of(100_000) == pytest.approx(2 / 3)
    assert position_of(1) == 0.0
    assert position_of(10**9) == 1.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("20000", 20_000),
        (" 20000 ", 20_000),
        ("20,000", 20_000),
        ("1,000,000", 1_000_000),
        ("20_000", 20_000),
        ("20 000", 20_000),
        ("20k", 20_000),
        ("20K", 20_000),
        ("1.5M", 1_500_000),
        ("1.5m", 1_500_000),
        ("12345", 12_345),
        ("300", 300),
        ("1", 1),
        ("1000000000", ENTRY_MAX),
        ("1000M", ENTRY_MAX),
        ("12345.0", 12_345),
        ("", None),
        ("   ", None),
        ("abc", None),
        ("0", None),
        ("-5", None),
        ("1000000001", None),
        ("1.5", None),
        ("1.2345k", None),
        ("1,5M", None),
        ("20,00", None),
        ("k", None),
        ("1e5", None),
        ("١٠٠", None),  # other scripts' digits: ASCII only, as README says
        ("２０k", None),
        ("20\u00a0000", None),
        ("\u200920k", None),
    ],
)
def test_parse_outcap(text: str, expected: int | None) -> None:
    assert parse_outcap(text) == expected


# -- keyboard --------------------------------------------------------------


KEY_CASES = [
    (100_000, "right", 120_000),
    (100_000, "left", 80_000),
    (100_000, "home", 1_000),
    (100_000, "end", 1_000_000),
    (100_000, "pageup", 1_000_000),
    (100_000, "pagedown", 10_000),
    (12_345, "right", 15_000),
    (12_345, "left", 12_000),
    (12_345, "pageup", 120_000),
    (300, "right", 1_000),
    (5_000_000, "left", 1_000_000),
]


def test_keyboard_steps() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        await focus_slider(app, pilot)
        for start, key, expected in KEY_CASES:
            app.control.value = start
            await pilot.pause()
            app.control_changes.clear()
            app.slider_changes.clear()
            await pilot.press(key)
            case = (start, key)
            assert app.slider.value == expected, case
            assert app.control.value == expected, case
            assert app.control.input.value == str(expected), case
            assert app.control_changes == [expected], case
            assert app.slider_changes == [expected], case

    run(scenario)


def test_repeated_steps_and_public_methods() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        await focus_slider(app, pilot)
        await pilot.press("right", "right", "right")
        await pilot.pause()
        assert app.control.value == 200_000
        app.control.step_down()  # what the app binds to "["
        await pilot.pause()
        assert app.control.value == 150_000
        app.control.step_up()  # what the app binds to "]"
        await pilot.pause()
        assert app.control.value == 200_000
        await pilot.press("end", "right")  # stays at the right end
        await pilot.pause()
        assert app.control.value == 1_000_000

    app = run(scenario)
    assert app.control_changes == [120_000, 150_000, 200_000, 150_000, 200_000, 1_000_000]


def test_bindings_have_descriptions() -> None:
    keys = {}
    for binding in OutCapSlider.BINDINGS:
        assert not isinstance(binding, tuple)
        assert binding.description
        keys[binding.key] = binding.action
    assert set(keys) == {"left", "right", "pageup", "pagedown", "home", "end"}


# -- mouse -----------------------------------------------------------------


def test_click_left_right_middle() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        width = track_width(app)
        assert width > 30
        await pilot.click(OutCapSlider, offset=(0, 0))
        assert app.control.value == 1_000
        await pilot.click(OutCapSlider, offset=(width - 1, 0))
        assert app.control.value == 1_000_000
        middle = (width - 1) // 2
        await pilot.click(OutCapSlider, offset=(middle, 0))
        value = app.control.value
        assert value == value_at(middle / (width - 1))
        assert 25_000 < value < 40_000  # ~31,600 at the exact middle
        assert value == round(value, 2 - math.floor(math.log10(value)))  # 3 significant digits
        assert app.mouse_captured is None
        # The slider takes focus when clicked, so the keys then act on it.
        assert app.focused is app.slider
        await pilot.press("right")
        assert app.control.value == ladder_step(value, 1)

    run(scenario)


def test_click_mark_position_is_default() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        width = track_width(app)
        await pilot.click(OutCapSlider, offset=(0, 0))
        mark = round(2 / 3 * (width - 1))
        await pilot.click(OutCapSlider, offset=(mark, 0))
        # Within half a cell of 100k on the log scale.
        half_cell = 3 / (width - 1) / 2
        assert abs(math.log10(app.control.value) - 5) <= half_cell + 0.003

    run(scenario)


def test_drag_follows_mouse() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        width = track_width(app)
        await pilot.mouse_down(OutCapSlider, offset=(0, 0))
        assert app.control.value == 1_000
        assert app.mouse_captured is app.slider
        await pilot.hover(OutCapSlider, offset=(width // 4, 0))
        quarter = app.control.value
        assert quarter == value_at((width // 4) / (width - 1))
        await pilot.hover(OutCapSlider, offset=(width - 1, 0))
        assert app.control.value == 1_000_000
        # Still captured while outside the widget (over the Input): clamped at the end.
        await pilot.hover(OutCapSlider, offset=(width + 3, 0))
        assert app.control.value == 1_000_000
        await pilot.hover(OutCapSlider, offset=(width // 2, 0))
        await pilot.mouse_up(OutCapSlider, offset=(width // 2, 0))
        final = app.control.value
        assert final == value_at((width // 2) / (width - 1))
        assert app.mouse_captured is None
        # After release, moving the mouse no longer changes the value.
        await pilot.hover(OutCapSlider, offset=(1, 0))
        assert app.control.value == final
        assert app.control.input.value == str(final)
        assert app.control_changes[-1] == final

    app = run(scenario)
    assert app.control_changes[0] == 1_000
    assert 1_000_000 in app.control_changes
    assert app.slider_changes == app.control_changes


# -- exact entry -----------------------------------------------------------


async def type_entry(
    app: OutCapApp, pilot: Pilot[None], text: str, key: str = "enter", *, keys: bool = False
) -> None:
    """Enter `text` into the OutCap Input and press `key`.

    With keys=True the text is typed key by key (slower); otherwise it is put in
    the Input directly, as a paste would.
    """
    app.control.input.focus()
    await pilot.pause()
    app.control.input.clear()
    if keys:
        await pilot.press(*text)
    else:
        app.control.input.insert_text_at_cursor(text)
    await pilot.press(key)
    await pilot.pause()


def test_exact_entry_sets_value() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        await type_entry(app, pilot, "12345", keys=True)
        assert app.control.value == 12_345
        assert app.slider.value == 12_345
        assert app.control.input.value == "12345"
        assert not app.control.message.display
        await type_entry(app, pilot, "20,000")
        assert app.control.value == 20_000
        assert app.control.input.value == "20000"
        await type_entry(app, pilot, "20_500")
        assert app.control.value == 20_500
        await type_entry(app, pilot, "1.5M")
        assert app.control.value == 1_500_000
        await type_entry(app, pilot, "300")
        assert app.control.value == 300
        await type_entry(app, pilot, "5000000")
        assert app.control.value == 5_000_000
        # Off-range values are drawn clamped at the ends of the track.
        assert app.slider.render_track(track_width(app)).plain.endswith(OutCapSlider.THUMB_CHAR)
        # Stepping from there goes back onto the ladder.
        await focus_slider(app, pilot)
        await pilot.press("left")
        assert app.control.value == 1_000_000

    app = run(scenario)
    assert app.control_changes == [12_345, 20_000, 20_500, 1_500_000, 300, 5_000_000, 1_000_000]
    assert app.slider_changes == app.control_changes


def test_after_enter_typing_goes_on_at_the_end_of_the_digits_shown() -> None:
    """ "1.5M" Enter shows 1500000: the cursor was left at 4, inside it, and "Z" made
    "1500Z000" (found by a new-user run)."""

    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        await type_entry(app, pilot, "1.5M", keys=True)
        assert app.control.input.value == "1500000"
        assert app.control.input.cursor_position == len("1500000")
        await pilot.press("Z")
        assert app.control.input.value == "1500000Z"

    run(scenario)


def test_invalid_entry_is_rejected() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        await type_entry(app, pilot, "abc", keys=True)
        for text in ["abc", "", "0", "-5", "1000000001", "1.5", "1e5", "12kk"]:
            if text != "abc":
                await type_entry(app, pilot, text)
            assert app.control.value == 40_000, text
            assert app.slider.value == 40_000, text
            assert app.control.message.display, text
            assert str(app.control.message.render()) == INVALID_MESSAGE
            assert app.control.input.has_class("-invalid")
            # The bad text stays in the Input for correction.
            assert app.control.input.value == text
        # A later good value clears the message.
        await type_entry(app, pilot, "50000")
        assert app.control.value == 50_000
        assert not app.control.message.display
        assert not app.control.input.has_class("-invalid")

    app = run(scenario, value=40_000)
    assert app.control_changes == [50_000]


def test_invalid_entry_then_slider_clears_message() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        await type_entry(app, pilot, "abc")
        assert app.control.message.display
        await focus_slider(app, pilot)
        # Leaving the Input with bad text reverts the text, keeps the message.
        assert app.control.input.value == "100000"
        assert app.control.message.display
        await pilot.press("right")
        assert app.control.value == 120_000
        assert app.control.input.value == "120000"
        assert not app.control.message.display

    run(scenario)


def test_leaving_input_applies_entry() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        await type_entry(app, pilot, "20k", key="tab")
        assert app.focused is not app.control.input
        assert app.control.value == 20_000
        assert app.control.input.value == "20000"

    app = run(scenario)
    assert app.control_changes == [20_000]


def test_programmatic_value_syncs_without_bouncing() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        app.control.value = 7_000
        app.control.value = 9_000
        await pilot.pause()
        await pilot.pause()
        assert app.control.value == 9_000
        assert app.slider.value == 9_000
        assert app.control.input.value == "9000"
        app.control.value = 0  # clamped to the entry range, never raises
        await pilot.pause()
        assert app.control.value == 1

    app = run(scenario)
    assert app.control_changes == [7_000, 9_000, 1]


# -- rendering -------------------------------------------------------------


def test_render_shows_default_mark() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        width = track_width(app)
        mark = round(2 / 3 * (width - 1))
        # At the default the thumb sits on the mark.
        track = app.slider.render().plain
        assert len(track) == width
        assert track[mark] == OutCapSlider.THUMB_CHAR
        await focus_slider(app, pilot)
        await pilot.press("home")
        track = app.slider.render().plain
        assert track[0] == OutCapSlider.THUMB_CHAR
        assert track[mark] == OutCapSlider.MARK_CHAR
        assert track.count(OutCapSlider.MARK_CHAR) == 1
        await pilot.press("end")
        track = app.slider.render().plain
        assert track[-1] == OutCapSlider.THUMB_CHAR
        assert track[mark] == OutCapSlider.FILLED_MARK_CHAR
        assert set(track[:mark]) == {OutCapSlider.FILLED_CHAR}

    run(scenario)


def test_render_scale_row_when_two_rows_high() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        assert app.slider.content_size.height == 2
        track, scale = app.slider.render().plain.split("\n")
        width = track_width(app)
        assert len(track) == len(scale) == width
        mark = round(2 / 3 * (width - 1))
        assert scale.startswith("1k")
        assert scale.endswith("1M")
        assert scale[mark - 2 : mark + 2] == "100k"

    run(scenario, slider_height=2)


@pytest.mark.parametrize("width", [0, 1, 2, 3, 5, 10, 11, 17, 200])
@pytest.mark.parametrize("value", [1, 1_000, 5_000, 100_000, 700_000, 1_000_000, 10**9])
def test_render_any_width(width: int, value: int) -> None:
    slider = OutCapSlider(value)
    track = slider.render_track(width).plain
    assert len(track) == width
    if width:
        assert track.count(OutCapSlider.THUMB_CHAR) == 1
    scale = slider.render_scale(width).plain
    assert len(scale) == width
    if width >= 10:
        marks = (OutCapSlider.MARK_CHAR, OutCapSlider.FILLED_MARK_CHAR)
        assert any(m in track for m in marks) or value == DEFAULT_OUTCAP
        assert "1k" in scale or width < 2
        assert "100k" in scale or OutCapSlider.SCALE_MARK_CHAR in scale


def test_narrow_app_renders() -> None:
    async def scenario(app: OutCapApp, pilot: Pilot[None]) -> None:
        await pilot.press("tab", "right")
        await pilot.pause()
        app.slider.render()
        svg = app.export_screenshot()
        assert "OutCap" in svg
        await type_entry(app, pilot, "abc")
        app.export_screenshot()

    run(scenario, size=(20, 5))
