"""Saving for the user: to a file they name, replaced only once they say so.

A pipe or a device is refused before anything is asked: writing to a FIFO waits
for a reader, and the interface would freeze with it (the command line writes
to them: `siftui extract -o /dev/stdout`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from siftui.sources.output import check_new_file, write_new_file


def save_file(app: App[Any], target: Path, data: bytes, saved: str) -> None:
    """Write ``data`` to ``target``, asking before an existing file is replaced, and say
    ``saved`` once written (or one line on why not)."""
    try:
        check_new_file(target, overwrite=True, in_place=False)
    except OSError as error:
        _not_saved(app, target, error)
        return
    if target.exists() or target.is_symlink():

        def confirmed(yes: bool | None) -> None:
            if yes:
                _write(app, target, data, saved, overwrite=True)
            else:
                app.notify(f"Not saved: {target} was left as it was.")

        from siftui.tui.screens.confirm import ConfirmScreen

        app.push_screen(ConfirmScreen(f"{target} exists. Overwrite it?"), confirmed)
    else:
        _write(app, target, data, saved, overwrite=False)


def _write(app: App[Any], target: Path, data: bytes, saved: str, *, overwrite: bool) -> None:
    try:
        write_new_file(target, data, overwrite=overwrite, in_place=False)
    except OSError as error:
        _not_saved(app, target, error)
        return
    app.notify(saved)


def _not_saved(app: App[Any], target: Path, error: OSError) -> None:
    reason = error.strerror or str(error)
    app.notify(f"Not saved: {target}: {reason}", severity="error", timeout=8)
