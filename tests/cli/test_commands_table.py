"""The command line's one table: each command's function is found, and runs --help."""

from __future__ import annotations

import gc

import pytest

from siftui import cli


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_command_is_found_and_helps(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert callable(cli._command(name))
    with pytest.raises(SystemExit) as ended:
        cli.main([name, "--help"])
    assert ended.value.code == 0
    assert f"siftui {name}" in capsys.readouterr().out


@pytest.mark.parametrize("name", [*sorted(cli.COMMANDS), None])
def test_no_command_takes_a_prefix_for_an_option(
    name: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--hel` is no `--help`, in every command and the TUI's: a prefix taken for an
    option made `render FILE --out 5000` set the OutCap to 5000. The TUI's refusal leaves
    the cycle collector on (it was turned off before the arguments were read)."""
    assert cli.main([*([name] if name else []), "--hel"]) == 2  # not --help's exit 0
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("siftui: error: ")  # one line, no help
    assert gc.isenabled()


def test_render_out_is_refused_not_read_as_outcap(capsys: pytest.CaptureFixture[str]) -> None:
    from siftui.sources.sample import sample_path

    assert cli.main(["render", str(sample_path()), "--out", "5000"]) == 2
    assert capsys.readouterr() == ("", "siftui: error: unrecognized arguments: --out 5000\n")
