"""The app's dialogs: open / save a path, password, yes / no, help, the counter in full,
the walk, the log report.

Each dialog's module is imported when it is first asked for, not with the
package: the help screen alone brings Textual's Markdown (about 0.1 s), and none
of them is needed before a document's first answer is on screen.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from siftui.tui.screens.confirm import ConfirmScreen
    from siftui.tui.screens.details import DetailsScreen
    from siftui.tui.screens.help import HelpScreen
    from siftui.tui.screens.log_report import LogReportScreen
    from siftui.tui.screens.password import PasswordScreen
    from siftui.tui.screens.path import PathScreen, PathSuggester
    from siftui.tui.screens.walk import WalkScreen

_MODULES = {
    "ConfirmScreen": "confirm",
    "DetailsScreen": "details",
    "HelpScreen": "help",
    "LogReportScreen": "log_report",
    "PasswordScreen": "password",
    "PathScreen": "path",
    "PathSuggester": "path",
    "WalkScreen": "walk",
}

__all__ = [
    "ConfirmScreen",
    "DetailsScreen",
    "HelpScreen",
    "LogReportScreen",
    "PasswordScreen",
    "PathScreen",
    "PathSuggester",
    "WalkScreen",
]


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
