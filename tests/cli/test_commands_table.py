"""The command line's one table: each command's function is found, and runs --help."""

from __future__ import annotations

import pytest

from siftui import cli


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_command_is_found_and_helps(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert callable(cli._command(name))
    with pytest.raises(SystemExit) as ended:
        cli.main([name, "--help"])
    assert ended.value.code == 0
    assert f"siftui {name}" in capsys.readouterr().out
