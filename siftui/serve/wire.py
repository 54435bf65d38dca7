"""Strings that leave the server: valid UTF-8 always, user input quoted within a bound.

Every outgoing JSON-RPC message is serialized by :func:`dump_message` (the
transport's writer), so a lone surrogate anywhere (a file name that is not
UTF-8 becomes one in Python; so can a broken PDF's text) is U+FFFD on the
wire, one code point for one, and can never make the SDK's serializer raise.
Error texts quote the agent's input through :func:`clip`.
"""

from __future__ import annotations

import json
import os
from typing import Any

from siftui.core.messages import quoted
from siftui.sources.output import encode_utf8

MAX_QUOTED = 200
"""Characters of user input an error message repeats, at most."""

ELLIPSIS = "…"


def clip(text: str | os.PathLike[str], limit: int = MAX_QUOTED) -> str:
    """``text`` quoted (controls escaped) and cut to ``limit`` characters, saying so."""
    shown = quoted(text)
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit]}{ELLIPSIS} ({len(shown):,} characters)"


def wire_text(text: str) -> str:
    """``text`` with every lone surrogate as U+FFFD: encodable as UTF-8."""
    return encode_utf8(text).decode("utf-8")


def dump_message(message: Any) -> bytes:
    """One JSON-RPC message (a pydantic model) as a line of UTF-8 bytes, never raising
    for what its strings hold."""
    try:
        text = str(message.model_dump_json(by_alias=True, exclude_unset=True))
    except Exception:  # a lone surrogate: pydantic cannot encode it
        data = message.model_dump(mode="python", by_alias=True, exclude_unset=True)
        text = json.dumps(data, ensure_ascii=False, default=str)
    return encode_utf8(text) + b"\n"
