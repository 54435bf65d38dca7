"""The key footer: Textual's own, recomposed only when the keys it shows change.

Textual's Footer rebuilds all its keys on every bindings signal (each focus
change, each ``refresh_bindings``), and queues one rebuild per signal: while
the app starts that was eleven rebuilds of about a dozen keys, a tenth of the
time to the first answer. Here a signal whose keys are those already shown, or
already queued, is dropped.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

Shown = tuple[tuple[str, str, bool, str], ...]


def shown_keys(screen: Screen[object]) -> Shown:
    """What the footer draws for ``screen``: each shown key, its words, whether enabled."""
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for (_, binding, enabled, tooltip) in screen.active_bindings.values()
        if binding.show
    )


class KeyFooter(Footer):
    """A Footer that skips a rebuild when the keys it would show are the ones it has."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._keys: Shown | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            keys = shown_keys(screen)
            if keys == self._keys:
                return
            self._keys = keys
        super().bindings_changed(screen)
