"""The app's own screen, under its dialogs."""

from __future__ import annotations

from textual.screen import Screen


class MainScreen(Screen[int]):
    """The app's screen: the view has focus from the start, so keys typed while the
    app starts reach the app's bindings, never the Pages input."""

    AUTO_FOCUS = "#content"
