"""The app's own screen, under its dialogs."""

from __future__ import annotations

from textual import events
from textual.screen import Screen


def breakpoint_class(size: int, breakpoints: list[tuple[int, str]]) -> set[str]:
    """The class of the largest breakpoint ``size`` reaches (Textual's rule)."""
    for limit, name in sorted(breakpoints, reverse=True):
        if size >= limit:
            return {name}
    return set()


class MainScreen(Screen[int]):
    """The app's screen: the view has focus from the start, so keys typed while the
    app starts reach the app's bindings, never the Pages input."""

    AUTO_FOCUS = "#content"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        # The breakpoint classes Textual sets on the first resize, set before the first
        # styling: set after it, they restyle every widget again (0.1 s at start).
        width, height = self.app.size
        classes = breakpoint_class(width, self.app.HORIZONTAL_BREAKPOINTS or [])
        classes |= breakpoint_class(height, self.app.VERTICAL_BREAKPOINTS or [])
        self.add_class(*classes, update=False)
        self._shown = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Shown the first time, every widget was styled as it was mounted, and each
        # change since (focus, classes) restyled its own: Textual's restyle of the
        # whole screen would do it all again before the first frame (a twentieth of the
        # start). Coming back from a dialog, it does.
        if not self._shown:
            self._shown = True
            event.refresh_styles = False
