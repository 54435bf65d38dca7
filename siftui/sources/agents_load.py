"""The agents table from the package and the user's file; the --check-agents table.

I/O around siftui.core.agents: the built-in ``siftui/data/agents.toml`` and
``$XDG_CONFIG_HOME/siftui/agents.toml`` (default ``~/.config``), and token
counts through siftui.sources.tokens (offline vocabularies).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path

from siftui.core.agents import Agent, AgentsError, fit, fit_text, parse_agents

__all__ = ["agents_table", "count_tokens", "load_agents", "user_file"]


def user_file() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME", "").strip()
    home = Path(config) if config else Path.home() / ".config"
    return home / "siftui" / "agents.toml"


def load_agents(user: Path | None = None) -> list[Agent]:
    """The built-in table, extended by the user's file when it exists."""
    builtin = files("siftui") / "data" / "agents.toml"
    agents = parse_agents(builtin.read_text("utf-8"), "siftui/data/agents.toml")
    path = user_file() if user is None else user
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return agents
    except OSError as error:
        raise AgentsError(f"{path}: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise AgentsError(f"{path}: line {line}: not UTF-8 text") from None
    return parse_agents(text, str(path), agents)


def count_tokens(text: str, encoding: str) -> int:
    """Tokens of ``text`` in ``encoding``; ValueError when its vocabulary cannot load."""
    from siftui.sources.tokens import VocabularyError
    from siftui.sources.tokens import count_tokens as count

    try:
        return count(text, encoding)
    except VocabularyError as error:
        raise ValueError(str(error)) from None


def agents_table(content: str, agents: Sequence[Agent], byte_cap: int | None = None) -> str:
    """What `siftui render --check-agents` prints to stderr for an answer (``byte_cap``:
    the OutCap when it counts bytes)."""
    return fit_text(fit(content, agents, count_tokens), len(content), byte_cap)
