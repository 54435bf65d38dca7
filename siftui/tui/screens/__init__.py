"""The app's dialogs: open / save a path, password, yes / no, help, the counter in full,
the walk, the log report."""

from siftui.tui.screens.confirm import ConfirmScreen
from siftui.tui.screens.details import DetailsScreen
from siftui.tui.screens.help import HelpScreen
from siftui.tui.screens.log_report import LogReportScreen
from siftui.tui.screens.password import PasswordScreen
from siftui.tui.screens.path import PathScreen, PathSuggester
from siftui.tui.screens.walk import WalkScreen

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
