"""`siftui tools`: print the tools/list result an agent gets before its first call.

stdout is the exact ``result`` of ``tools/list`` as `siftui mcp` sends it for the
same options (names, titles, descriptions, input and output schemas), the JSON's
UTF-8 bytes with nothing added; stderr gets one line with its size, since a host
puts it in every prompt: ``tools/list: 11 tools · 14,325 bytes · 14,012 chars ·
o200k_base 3,118 tokens · cl100k_base 3,164 tokens``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from siftui.cli.common import Parser, add_outcap, add_unit, write_stdout
from siftui.cli.server_options import server_families, server_roots

TOOLS_EXAMPLES = """examples:
  siftui tools --root ~/papers            # read_pdf and read_docx, as siftui mcp lists them
  siftui tools --root ~/papers --tools evidence --outcap 20k > tools.json
  siftui tools --root ~/papers --tools read,evidence | jq '.tools[].name'

stdout is the JSON the server sends as tools/list's result, byte for byte; the
size line (bytes, code points, o200k_base and cl100k_base tokens) goes to stderr.
"""


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui tools",
        description=(
            "Print the tools/list result siftui mcp sends for these options (the tools' names, "
            "descriptions and schemas: what an agent's host puts in every prompt), with its "
            "size in bytes and tokens on stderr."
        ),
        epilog=TOOLS_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--root",
        action="append",
        default=None,
        metavar="DIR",
        help="the roots siftui mcp is given (the descriptions name them); default: the "
        "current directory",
    )
    add_outcap(parser, "the budget the descriptions state")
    add_unit(parser)
    parser.add_argument(
        "--tools",
        default="read",
        metavar="FAMILIES",
        help="the tool families, as siftui mcp takes them: read (default), evidence, "
        "read,evidence; edit as siftui reader's host lists it: evidence,edit",
    )
    return parser


def size_line(listed: bytes, counts: Sequence[tuple[str, int]], errors: Sequence[str]) -> str:
    """``tools/list: 2 tools · 5,212 bytes · 5,200 chars · o200k_base 1,032 tokens · ...``"""
    text = listed.decode("utf-8")
    tools = len(json.loads(text)["tools"])
    parts = [
        f"tools/list: {tools} tool{'s' if tools != 1 else ''}",
        f"{len(listed):,} bytes",
        f"{len(text):,} chars",
    ]
    parts += [f"{name} {count:,} tokens" for name, count in counts]
    parts += [f"{name}: vocabulary could not be loaded" for name in errors]
    return " · ".join(parts)


def cmd_tools(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    if args.root is None:
        args.root = [os.getcwd()]
    families = server_families(args.tools, host=True)
    roots = server_roots(args)
    from siftui.serve.host import ToolHost  # the MCP SDK only for this command
    from siftui.serve.listing import listed_tools
    from siftui.serve.tool_api import ServedOptions
    from siftui.sources.tokens import token_counts

    host = ToolHost(roots, ServedOptions(out_cap=args.outcap, unit=args.unit), families=families)
    try:
        listed = listed_tools(host)
    finally:
        host.shutdown()
    write_stdout(listed)
    counts = token_counts(listed.decode("utf-8"))
    errors = [name for name, _ in counts.errors]
    print(size_line(listed, counts.tokens, errors), file=sys.stderr, flush=True)
    return 0
