"""The agents table (data, with sources), a user's file over it, and the fit check."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from siftui.core.agents import Agent, AgentsError, fit, fit_text, parse_agents, verdicts_line
from siftui.core.doc import Doc
from siftui.core.docjson import doc_to_json
from siftui.core.render import Options, render
from siftui.sources.agents_load import load_agents, user_file
from siftui.sources.tokens import count_tokens

NO_USER_FILE = Path("/nonexistent/siftui/agents.toml")


def test_the_built_in_table() -> None:
    agents = {agent.name: agent for agent in load_agents(NO_USER_FILE)}
    mcp = agents["Claude Code MCP tool output"]
    assert (mcp.unit, mcp.limit, mcp.warn) == ("tokens", 25_000, 10_000)
    assert mcp.tokenizer == "o200k_base" and mcp.estimate
    assert "MAX_MCP_OUTPUT_TOKENS" in mcp.note
    read = agents["Claude Code Read tool"]
    assert (read.unit, read.limit, read.warn, read.estimate) == ("tokens", 25_000, None, True)
    assert agents["OpenCode read tool (bytes)"].limit == 50 * 1024
    assert agents["OpenCode read tool (lines)"].limit == 2000
    for agent in agents.values():
        assert agent.source.startswith("https://"), agent.name
        assert re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", agent.date), agent.name
        assert (agent.tokenizer is not None) == (agent.unit == "tokens"), agent.name


def test_user_file_overrides_by_name_and_adds(tmp_path: Path) -> None:
    user = tmp_path / "agents.toml"
    user.write_text(
        "[[agent]]\n"
        'name = "Claude Code MCP tool output"\n'
        "limit = 50000  # MAX_MCP_OUTPUT_TOKENS=50000\n"
        "\n"
        "[[agent]]\n"
        'name = "My agent"\n'
        'unit = "chars"\n'
        "limit = 8000\n"
        "warn = 6000\n",
        "utf-8",
    )
    agents = {agent.name: agent for agent in load_agents(user)}
    mcp = agents["Claude Code MCP tool output"]
    assert (mcp.limit, mcp.warn, mcp.unit, mcp.estimate) == (50_000, 10_000, "tokens", True)
    assert agents["My agent"] == Agent("My agent", "chars", 8000, 6000)
    names = [agent.name for agent in load_agents(user)]
    assert names[0] == "Claude Code MCP tool output" and names[-1] == "My agent"


MALFORMED = [
    ('[[agent]]\nname = "A"\nunit = "chars"\nlimit = \n', 4, "not valid TOML"),
    ('[[agent]]\nname = "A"\nunit = "kb"\nlimit = 5\n', 3, '"unit" of "A" must be one of'),
    ('[[agent]]\nname = "A"\nunit = "chars"\nlimit = -5\n', 4, '"limit" of "A" must be'),
    (
        '[[agent]]\nname = "A"\nunit = "chars"\nlimit = 5\n[[agent]]\nname = "B"\n',
        5,
        'needs "unit"',
    ),
    ('[[agent]]\nname = "A"\nunit = "tokens"\nlimit = 5\n', 3, 'give its "tokenizer"'),
    ('[[agent]]\nname = "A"\nunit = "lines"\nlimit = 5\nwarn = 9\n', 5, "above its"),
    ('[[agent]]\nname = "A"\nunits = "lines"\n', 3, 'unknown key "units"'),
    ('[[agent]]\nunit = "lines"\n', 1, 'needs a "name"'),
    ("agent = 3\n", 1, "[[agent]] tables"),
    ('[agents]\nname = "x"\n', 1, 'unknown top-level key "agents"'),
]


@pytest.mark.parametrize(("text", "line", "reason"), MALFORMED)
def test_a_malformed_file_names_its_line(text: str, line: int, reason: str) -> None:
    with pytest.raises(AgentsError) as caught:
        parse_agents(text, "agents.toml")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"agents.toml: line {line}: "), message
    assert reason in message


def test_nesting_deeper_than_the_parser_goes_is_one_line() -> None:
    """tomllib recurses into arrays: thousands deep, a RecursionError (no TOMLDecodeError)
    ended the command that read the file in a traceback."""
    deep = "[[agent]]\nname = " + "[" * 100_000 + "]" * 100_000 + "\n"
    with pytest.raises(AgentsError) as caught:
        parse_agents(deep, "agents.toml")
    assert str(caught.value) == "agents.toml: not valid TOML: nested too deeply"


@pytest.mark.parametrize("digits", ["9" * 5_000, "1_000" * 1_300], ids=["digits", "parted"])
def test_a_number_too_long_to_read_names_its_line(digits: str) -> None:
    """tomllib turns a decimal integer into an int, which Python refuses past 4,300
    digits with a plain ValueError: a user's agents.toml holding one ended `siftui render
    --check-agents` (and the TUI's start) in a traceback."""
    text = f'[[agent]]\nname = "big"\nunit = "chars"\nlimit = {digits}\n'
    with pytest.raises(AgentsError) as caught:
        parse_agents(text, "agents.toml")
    assert str(caught.value) == "agents.toml: line 4: not valid TOML: a number too long to read"


def test_not_utf8_names_its_line(tmp_path: Path) -> None:
    user = tmp_path / "agents.toml"
    user.write_bytes(b'[[agent]]\nname = "\xff"\n')
    with pytest.raises(AgentsError, match=r"agents.toml: line 2: not UTF-8 text$"):
        load_agents(user)


def test_fit_verdicts_and_units() -> None:
    text = "ab\ncdé\n"  # 7 code points, 8 UTF-8 bytes, 3 lines
    agents = [
        Agent("chars fits", "chars", 7),
        Agent("chars over", "chars", 6),
        Agent("bytes warn", "bytes", 10, warn=7),
        Agent("lines", "lines", 3),
        Agent("tokens", "tokens", 100, tokenizer="o200k_base", estimate=True),
        Agent("tokens exact", "tokens", 1, tokenizer="cl100k_base"),
    ]
    fits = fit(text, agents, lambda text, encoding: 4 if encoding == "o200k_base" else 2)
    assert [(f.verdict, f.size) for f in fits] == [
        ("✓", 7),
        ("✗", 7),
        ("⚠", 8),
        ("✓", 3),
        ("✓", 4),
        ("✗", 2),
    ]
    assert fits[4].measured == "4 tokens (o200k, as an estimate)"
    assert fits[5].measured == "2 tokens (cl100k)"
    assert fit("", [Agent("lines", "lines", 1)], lambda t, e: 0)[0].size == 0
    # One of a unit is singular: "1 line", "1 byte", "1 char", "1 token".
    one = [
        Agent("lines", "lines", 5),
        Agent("bytes", "bytes", 5),
        Agent("chars", "chars", 5),
        Agent("tokens", "tokens", 5, tokenizer="o200k_base"),
    ]
    assert [f.measured for f in fit("x", one, lambda t, e: 1)] == [
        "1 line",
        "1 byte",
        "1 char",
        "1 token (o200k)",
    ]

    def broken(text: str, encoding: str) -> int:
        raise ValueError("o200k_base: vocabulary could not be loaded")

    [unmeasured] = fit(text, [agents[4]], broken)
    assert unmeasured.verdict == "?" and unmeasured.size is None
    assert "could not be loaded" in unmeasured.measured
    table = fit_text(fits, len(text))
    assert table.startswith("agents (the answer is 7 runes):\n")
    assert "  ⚠ bytes warn    8 bytes  (warn 7, limit 10)\n" in table


def test_user_file_is_under_xdg_config_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", "/cfg")
    assert user_file() == Path("/cfg/siftui/agents.toml")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert user_file() == Path.home() / ".config" / "siftui" / "agents.toml"


def run_render(path: Path, config: Path, *extra: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(config)}
    return subprocess.run(
        [sys.executable, "-m", "siftui", "render", str(path), *extra],
        capture_output=True,
        env=env,
        timeout=60,
    )


def test_render_check_agents(tmp_path: Path) -> None:
    doc = Doc("T", 3, ("Alpha " * 3000, "Beta\n" * 2500, "漢字" * 100))
    path = tmp_path / "doc.json"
    path.write_text(doc_to_json(doc), "utf-8")
    config = tmp_path / "config"
    (config / "siftui").mkdir(parents=True)
    (config / "siftui" / "agents.toml").write_text(
        '[[agent]]\nname = "Tiny"\nunit = "lines"\nlimit = 10\n', "utf-8"
    )
    plain = run_render(path, config, "--outcap", "40000")
    checked = run_render(path, config, "--outcap", "40000", "--check-agents")
    assert checked.returncode == plain.returncode == 0
    assert checked.stdout == plain.stdout and plain.stderr == b""  # stdout: the exact string
    answer = render(doc, Options(out_cap=40000)).content
    table = checked.stderr.decode()
    tokens = count_tokens(answer, "o200k_base")
    lines = answer.count("\n") + 1
    assert table.startswith(f"agents (the answer is {len(answer):,} runes):\n")
    assert f"{tokens:,} tokens (o200k, as an estimate)" in table
    assert "✗ Tiny " in table and f"{lines:,} lines  (limit 10)" in table
    verdict = "⚠" if 10_000 < tokens <= 25_000 else ("✓" if tokens <= 10_000 else "✗")
    assert f"  {verdict} Claude Code MCP tool output " in table


def test_render_check_agents_strict_exits_4_when_an_agent_is_over(tmp_path: Path) -> None:
    doc = Doc("T", 2, ("one\ntwo\nthree", "four"))
    path = tmp_path / "doc.json"
    path.write_text(doc_to_json(doc), "utf-8")
    config = tmp_path / "config"
    (config / "siftui").mkdir(parents=True)
    agents = config / "siftui" / "agents.toml"
    agents.write_text('[[agent]]\nname = "Tiny"\nunit = "lines"\nlimit = 3\n', "utf-8")
    plain = run_render(path, config, "--check-agents")
    strict = run_render(path, config, "--check-agents=strict")
    assert plain.returncode == 0 and "✗ Tiny " in plain.stderr.decode()
    assert strict.returncode == 4
    assert (strict.stdout, strict.stderr) == (plain.stdout, plain.stderr)
    # A warning is not over the limit; with nothing over it, strict exits 0.
    agents.write_text('[[agent]]\nname = "Tiny"\nunit = "lines"\nlimit = 50\nwarn = 3\n', "utf-8")
    warned = run_render(path, config, "--check-agents=strict")
    assert "⚠ Tiny " in warned.stderr.decode() and "✗" not in warned.stderr.decode()
    assert warned.returncode == 0
    bad = run_render(path, config, "--check-agents=loose")
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1
    helped = subprocess.run(
        [sys.executable, "-m", "siftui", "render", "--help"], capture_output=True, timeout=60
    )
    assert b"--check-agents=strict also exits 4" in b" ".join(helped.stdout.split())


def test_render_with_a_malformed_user_file(tmp_path: Path) -> None:
    doc = Doc("T", 1, ("text",))
    path = tmp_path / "doc.json"
    path.write_text(doc_to_json(doc), "utf-8")
    config = tmp_path / "config"
    (config / "siftui").mkdir(parents=True)
    bad = config / "siftui" / "agents.toml"
    bad.write_text('[[agent]]\nname = "A"\nunit = "kb"\nlimit = 5\n', "utf-8")
    done = run_render(path, config, "--check-agents")
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == (
        f'siftui: error: {bad}: line 3: "unit" of "A" must be one of tokens, bytes, chars, '
        "lines, not 'kb'\n"
    )
    assert run_render(path, config).returncode == 0  # only --check-agents reads it


def test_the_verdicts_in_one_line_name_who_is_over_and_count_the_rest() -> None:
    agents = [
        Agent(name="Warned", unit="chars", limit=100, warn=5),
        Agent(name="Fits", unit="chars", limit=100),
        Agent(name="Over", unit="bytes", limit=5),
        Agent(name="Counted", unit="tokens", limit=100, tokenizer="o200k_base"),
    ]

    def cannot(text: str, encoding: str) -> int:
        raise ValueError("no vocabulary")

    line = verdicts_line(fit("ten chars!", agents, cannot))
    assert line == "agents: ✗ Over, ⚠ Warned, 1 ✓, 1 ?"
    assert verdicts_line(fit("x", agents[1:3], cannot)) == "agents: 2 ✓"
