"""A session script's line reads back as the call it was written from, whatever the
arguments hold: the preview's `S` writes it, ``siftui session`` reads it."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from siftui.core.evidence.script import ScriptCall, call_line, parse_call

# Any text a JSON string can carry, lone surrogates included (an agent may send "\ud800").
texts = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF))
arguments = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)


@given(texts, st.dictionaries(texts, arguments, max_size=5))
def test_a_call_line_is_utf8_and_reads_back_as_the_same_call(
    tool: str, args: dict[str, Any]
) -> None:
    line = call_line(tool, args)
    assert "\n" not in line
    assert line.encode("utf-8").decode("utf-8") == line
    assert parse_call(line) == ScriptCall(tool, args)


def test_a_lone_surrogate_is_escaped_and_other_text_kept_as_it_is() -> None:
    line = call_line("pdf_keyword_search", {"query": "\ud800 é 中"})
    assert "\\ud800" in line and line.isascii()
    assert parse_call(line) == ScriptCall("pdf_keyword_search", {"query": "\ud800 é 中"})
    plain = call_line("pdf_keyword_search", {"query": "é 中"})
    assert plain == json.dumps(
        {"tool": "pdf_keyword_search", "arguments": {"query": "é 中"}}, ensure_ascii=False
    )


def test_what_is_no_call_is_not_read_as_one() -> None:
    for line in ("", "[]", '{"tool": 3}', '{"tool": "a", "extra": 1}', "{", '"tool"'):
        assert parse_call(line) is None
    assert parse_call('{"tool": "pdf_list_documents"}') == ScriptCall("pdf_list_documents", {})
