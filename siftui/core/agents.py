"""Which agents an answer fits: their documented caps, as data, and a fit check.

The caps ship in ``siftui/data/agents.toml`` (each with its source and the date
it was read); a user file ``$XDG_CONFIG_HOME/siftui/agents.toml`` (default
``~/.config``) adds entries and overrides built-in ones by name, key by key.

Pure: :func:`parse_agents` and :func:`fit` do no I/O (siftui.sources.agents_load reads
the two files). A size in tokens is measured with the entry's tokenizer through the
counter the caller passes (siftui.sources.tokens offline); when that is not the
agent's own tokenizer, the size is labelled as an estimate, never as exact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from siftui.core.budget import byte_bound
from siftui.core.messages import encode_utf8

__all__ = [
    "UNITS",
    "Agent",
    "AgentsError",
    "Fit",
    "fit",
    "fit_text",
    "parse_agents",
    "verdicts_line",
]

UNITS = ("tokens", "bytes", "chars", "lines")
TOKENIZERS = ("o200k_base", "cl100k_base")
_KEYS = {"name", "unit", "limit", "warn", "tokenizer", "estimate", "source", "date", "note"}
_TABLE = re.compile(r"^\s*\[\[\s*agent\s*\]\]")
_AT = re.compile(r"\s*\(at line ([0-9]+), column [0-9]+\)$")
# More decimal digits than Python turns into an int (4,300; TOML lets _ part them).
_LONG_NUMBER = re.compile(r"[0-9](?:_?[0-9]){4300}")
_SHORT = {"o200k_base": "o200k", "cl100k_base": "cl100k"}


class AgentsError(ValueError):
    """An agents file that cannot be used; the message is one line naming the line."""


@dataclass(frozen=True)
class Agent:
    name: str
    unit: str
    limit: int
    warn: int | None = None
    tokenizer: str | None = None
    estimate: bool = False
    source: str = ""
    date: str = ""
    note: str = ""


@dataclass(frozen=True)
class Fit:
    agent: Agent
    size: int | None  # None when it could not be measured
    verdict: str  # "✓", "⚠", "✗" or "?" (not measured)
    measured: str  # e.g. "3,210 tokens (o200k, as an estimate)" or why it was not measured


def _line_of(text: str, table: int, key: str | None) -> int:
    """The line of ``key`` in the ``table``-th [[agent]] (0-based), or of the table."""
    seen = -1
    header = 1
    for number, line in enumerate(text.splitlines(), start=1):
        if _TABLE.match(line):
            seen += 1
            if seen == table:
                header = number
            elif seen > table:
                break
        elif seen == table and key is not None and re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return number
    return header


def _check(raw: Any, table: int, text: str, where: str, partial: bool) -> dict[str, Any]:
    """The checked keys of one [[agent]] table; AgentsError names the line."""

    def fail(key: str | None, reason: str) -> AgentsError:
        return AgentsError(f"{where}: line {_line_of(text, table, key)}: {reason}")

    if not isinstance(raw, dict):
        raise fail(None, "each agent must be a [[agent]] table")
    for key in raw:
        if key not in _KEYS:
            raise fail(key, f'unknown key "{key}" (known: {", ".join(sorted(_KEYS))})')
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail("name", 'each agent needs a "name" (a non-empty string)')
    checks: dict[str, tuple[Callable[[Any], bool], str]] = {
        "unit": (lambda v: v in UNITS, f"one of {', '.join(UNITS)}"),
        "limit": (lambda v: type(v) is int and v >= 1, "a whole number >= 1"),
        "warn": (lambda v: type(v) is int and v >= 1, "a whole number >= 1"),
        "tokenizer": (lambda v: v in TOKENIZERS, f"one of {', '.join(TOKENIZERS)}"),
        "estimate": (lambda v: isinstance(v, bool), "true or false"),
    }
    for key, (ok, what) in checks.items():
        if key in raw and not ok(raw[key]):
            raise fail(key, f'"{key}" of "{name}" must be {what}, not {raw[key]!r}')
    for key in ("source", "date", "note"):
        if key in raw and not isinstance(raw[key], str):
            raise fail(key, f'"{key}" of "{name}" must be a string')
    if not partial:
        for key in ("unit", "limit"):
            if key not in raw:
                raise fail(None, f'agent "{name}" needs "{key}"')
    return dict(raw)


def _finish(fields: dict[str, Any], fail: Callable[[str | None, str], AgentsError]) -> Agent:
    agent = Agent(**fields)
    if agent.unit == "tokens" and agent.tokenizer is None:
        raise fail("unit", f'agent "{agent.name}" counts tokens: give its "tokenizer"')
    if agent.warn is not None and agent.warn > agent.limit:
        raise fail("warn", f'"warn" of "{agent.name}" is above its "limit"')
    return agent


def parse_agents(text: str, where: str, base: Sequence[Agent] = ()) -> list[Agent]:
    """The agents of a TOML text, laid over ``base``: a known name overrides
    the keys it gives, a new name is added (and must give unit and limit)."""
    import tomllib  # here: the TUI and the CLI import this module before any TOML is read

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = _AT.search(message)
        line = found.group(1) if found else str(max(1, len(text.splitlines())))
        reason = _AT.sub("", message).replace(" (at end of document)", "")
        raise AgentsError(f"{where}: line {line}: not valid TOML: {reason}") from None
    except RecursionError:  # arrays or tables thousands deep: tomllib recurses
        raise AgentsError(f"{where}: not valid TOML: nested too deeply") from None
    except ValueError:  # the only other one: Python's int conversion refuses the digits
        found = _LONG_NUMBER.search(text)
        at = f" line {text.count(chr(10), 0, found.start()) + 1}:" if found else ""
        raise AgentsError(f"{where}:{at} not valid TOML: a number too long to read") from None
    extra = sorted(set(data) - {"agent"})
    if extra:
        raise AgentsError(f'{where}: line 1: unknown top-level key "{extra[0]}" (use [[agent]])')
    tables = data.get("agent", [])
    if not isinstance(tables, list):
        raise AgentsError(f"{where}: line 1: agents must be [[agent]] tables")
    merged = {agent.name: agent for agent in base}
    for table, raw in enumerate(tables):

        def fail(key: str | None, reason: str, table: int = table) -> AgentsError:
            return AgentsError(f"{where}: line {_line_of(text, table, key)}: {reason}")

        known_name = isinstance(raw, dict) and raw.get("name") in merged
        fields = _check(raw, table, text, where, partial=known_name)
        known = merged.get(fields["name"])
        if known is not None:
            merged[known.name] = _finish({**known.__dict__, **fields}, fail)
        else:
            merged[fields["name"]] = _finish(fields, fail)
    return list(merged.values())


# (text, encoding) -> tokens; raises ValueError when it cannot count.
TokenCount = Callable[[str, str], int]


def _size(text: str, agent: Agent, count: TokenCount) -> int:
    if agent.unit == "tokens":
        return count(text, agent.tokenizer or TOKENIZERS[0])
    if agent.unit == "bytes":
        return len(encode_utf8(text))  # the bytes siftui writes
    if agent.unit == "chars":
        return len(text)
    return text.count("\n") + 1 if text else 0


def _label(size: int, agent: Agent) -> str:
    # "1 line", "2 lines": the unit's name is plural ("lines"), a size of 1 is not.
    unit = agent.unit[:-1] if size == 1 else agent.unit
    if agent.unit != "tokens":
        return f"{size:,} {unit}"
    name = _SHORT.get(agent.tokenizer or "", agent.tokenizer or "")
    return (
        f"{size:,} {unit} ({name}, as an estimate)"
        if agent.estimate
        else f"{size:,} {unit} ({name})"
    )


def fit(text: str, agents: Sequence[Agent], count: TokenCount) -> list[Fit]:
    """For each agent, the size of ``text`` in its unit and ✓ (fits), ⚠ (over the
    warning level) or ✗ (over the limit); ? when the size could not be measured."""
    fits: list[Fit] = []
    for agent in agents:
        try:
            size = _size(text, agent, count)
        except ValueError as error:  # the counter cannot count (a vocabulary failed to load)
            fits.append(Fit(agent, None, "?", f"not measured: {error}"))
            continue
        if size > agent.limit:
            verdict = "✗"
        elif agent.warn is not None and size > agent.warn:
            verdict = "⚠"
        else:
            verdict = "✓"
        fits.append(Fit(agent, size, verdict, _label(size, agent)))
    return fits


def fit_text(fits: Sequence[Fit], runes: int, byte_cap: int | None = None) -> str:
    """The table `siftui render --check-agents` prints to stderr; ``byte_cap``: the
    OutCap when it counts bytes (one more line says what that bounds)."""
    lines = [f"agents (the answer is {runes:,} runes):"]
    if byte_cap is not None:
        lines.append(f"  {byte_bound(byte_cap)}")
    width = max((len(f.agent.name) for f in fits), default=0)
    for each in fits:
        agent = each.agent
        caps = f"limit {agent.limit:,}"
        if agent.warn is not None:
            caps = f"warn {agent.warn:,}, {caps}"
        lines.append(f"  {each.verdict} {agent.name:<{width}}  {each.measured}  ({caps})")
    return "\n".join(lines) + "\n"


def verdicts_line(fits: Sequence[Fit]) -> str:
    """The agents' check in one line, as the TUI's counter says it when short: who is
    over its cap (✗) or its warning level (⚠), by name, then how many fit and how
    many could not be measured: "agents: ✗ Codex CLI shell output, 8 ✓, 1 ?"."""
    over = sorted((f for f in fits if f.verdict in "✗⚠"), key=lambda f: f.verdict != "✗")
    shown = [f"{f.verdict} {f.agent.name}" for f in over]
    shown += [f"{n:,} {v}" for v in "✓?" if (n := sum(f.verdict == v for f in fits))]
    return "agents: " + ", ".join(shown)
