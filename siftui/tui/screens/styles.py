"""Where the dialogs' styles are."""

from __future__ import annotations

from pathlib import Path

DIALOG_CSS = Path(__file__).with_name("dialogs.tcss")
"""Every dialog's CSS_PATH: Textual reads it when the first dialog opens, so the first
frame of the app parses none of its rules."""
