"""`siftui session`: run evidence-tool calls in one fresh session and print what comes back.

The lines are byte for byte the text blocks `siftui mcp --tools evidence` sends
for the same calls in a fresh session (the same connection object answers
them), so a host's author sees what its agent will get before wiring it. With
``--tools evidence,edit`` the session is a host's with no reader attached.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, BinaryIO

from siftui.cli.common import Parser, UsageError, token_counter, write_stdout
from siftui.cli.server_options import (
    add_server_options,
    check_server_options,
    server_families,
    server_roots,
    server_store,
)
from siftui.core.agents import Agent, AgentsError, fit, verdicts_line
from siftui.core.evidence.store import SESSION_BOUNDS
from siftui.core.messages import encode_utf8
from siftui.core.ocr_language import DEFAULT_OCR_LANGUAGE
from siftui.sources.agents_load import load_agents
from siftui.sources.lines import NotLines, TooLong, bounded_lines, open_regular

if TYPE_CHECKING:
    from siftui.serve.evidence.script import Answered
    from siftui.serve.tool_api import ToolAnswer

SESSION_EXAMPLES = """examples:
  siftui session --root ~/papers calls.jsonl
  echo '{"tool": "pdf_open", "arguments": {"path": "thesis.pdf"}}' | siftui session --root ~/papers

Each line of the script is one call: {"tool": NAME, "arguments": {...}}. Each result
prints as one line of JSON (an image first as "image: WxH png SHA256"); a refused
call as "error: MESSAGE"; a line that is not a call as "error: line N: not a call".
"""
SESSION_EPILOG = SESSION_EXAMPLES + "\n" + textwrap.fill(SESSION_BOUNDS, 79) + "\n"


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui session",
        description=(
            "Run evidence-tool calls (pdf_open, pdf_page_read, pdf_keyword_search, ...) in "
            "one fresh session, as `siftui mcp --tools evidence` would answer an agent, and "
            "print each result's text on its own line."
        ),
        epilog=SESSION_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "script",
        nargs="?",
        default=None,
        metavar="SCRIPT",
        help="JSON Lines calls (default: stdin)",
    )
    add_server_options(
        parser, log_or_hidden="add pdf_page_read's hidden_text warnings, as the server does"
    )
    parser.add_argument(
        "--tokens",
        action="store_true",
        help="after each call, two lines on stderr: the size of the text the agent gets "
        "(bytes, runes, runes/4, o200k_base and cl100k_base tokens) and the agents' check "
        "(siftui render --check-agents's table, in one line); stdout stays exact",
    )
    parser.add_argument(
        "--tools",
        default="evidence",
        metavar="FAMILIES",
        help="the tool families served, as siftui mcp takes them; edit (pdf_page_jump, ...) "
        "as a host with no reader attached serves them: --tools evidence,edit; default evidence",
    )
    return parser


def _lines(handle: BinaryIO) -> Iterator[str]:
    """The script's lines; one that is not UTF-8 is a line that is not a call, not the
    end of the script, and so is one over the cap (read and dropped, never held)."""
    for line in bounded_lines(handle):
        if isinstance(line, TooLong):
            yield f"({line})"  # not a call: its number is reported as such
        else:
            yield line.decode("utf-8", "surrogateescape").rstrip("\r")


def sizes_lines(
    number: int, tool: str, text: str, counted: Mapping[str, int], agents: Sequence[Agent]
) -> list[str]:
    """What ``--tokens`` prints for one call: its text's sizes (as `siftui walk --tokens`
    words them), then the agents' check of it in one line."""

    def count(_text: str, encoding: str) -> int:
        if encoding not in counted:
            raise ValueError(f"{encoding}: vocabulary could not be loaded")
        return counted[encoding]

    head = f"call {number} {tool}:"
    tokens = "  ".join(f"{name} {value:,}" for name, value in counted.items())
    return [
        f"{head} {len(encode_utf8(text)):,} bytes  {len(text):,} runes  {tokens}",
        f"{head} {verdicts_line(fit(text, agents, count))}",
    ]


def cmd_session(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    check_server_options(args)
    from siftui.serve.evidence.script import answer_text, run_script

    answered: Answered | None = None
    if args.tokens:
        try:  # a bad agents file is reported before any call
            agents = load_agents()
        except AgentsError as error:
            raise UsageError(str(error)) from None
        counter = token_counter()

        def answered(number: int, tool: str, answer: ToolAnswer) -> None:
            text = answer_text(answer)
            for line in sizes_lines(number, tool, text, counter(text), agents):
                sys.stderr.write(line + "\n")
            sys.stderr.flush()

    families = server_families(args.tools, host=True)
    roots = server_roots(args)
    try:
        handle = sys.stdin.buffer if args.script in (None, "-") else open_regular(args.script)
    except NotLines as error:
        raise UsageError(str(error)) from None
    from siftui.serve.host import ToolHost
    from siftui.serve.tool_api import ServedOptions

    store = server_store(args, inspect_hidden=args.warn_hidden)
    try:
        host = ToolHost(
            roots,
            ServedOptions(
                out_cap=args.outcap,
                unit=args.unit,
                warn_hidden=args.warn_hidden,
                ocr_language=args.ocr_lang or DEFAULT_OCR_LANGUAGE,
            ),
            store=store,
            families=families,
        )
        for line in run_script(
            _lines(handle), lambda tool, arguments: host.call(arguments, tool), answered
        ):
            write_stdout(encode_utf8(line + "\n"))
    finally:
        store.shutdown()
        if args.script not in (None, "-"):
            handle.close()
    return 0
