"""The options a server of documents takes: `siftui mcp` and `siftui session` share them.

A session previews what the server sends, so both read files the same way:
the same roots, OutCap, time and size limits, worker processes and cache.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from siftui.cli.common import (
    UsageError,
    add_outcap,
    add_unit,
    check_seconds,
    ocr_language_argument,
    whole_number,
)

if TYPE_CHECKING:
    from siftui.serve.access import Roots
    from siftui.serve.docstore import DocStore

MIN_WORKER_MEMORY = 128 * 1024**2


def add_server_options(parser: argparse.ArgumentParser, *, log_or_hidden: str) -> None:
    parser.add_argument(
        "--root",
        action="append",
        required=True,
        metavar="DIR",
        help=(
            "a directory the agent may read from (repeatable; relative paths use the first; "
            "a path whose written form leaves the roots, and a file with several hard "
            "links, are refused)"
        ),
    )
    add_outcap(parser, "the budget of every answer")
    add_unit(parser)
    parser.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="seconds one call may take, extraction included (default 120)",
    )
    parser.add_argument(
        "--max-bytes",
        type=whole_number,
        default=200_000_000,
        help="refuse files larger than this (default 200,000,000)",
    )
    parser.add_argument(
        "--max-runes",
        type=whole_number,
        default=50_000_000,
        help="refuse documents whose text is longer, in code points (default 50,000,000)",
    )
    parser.add_argument(
        "--workers",
        type=whole_number,
        default=None,
        help="extraction processes at once (default: the number of cores)",
    )
    parser.add_argument(
        "--worker-memory",
        type=whole_number,
        default=2 * 1024**3,
        metavar="BYTES",
        help="address space of one extraction process; 0 for no limit (default 2 GiB)",
    )
    parser.add_argument(
        "--cache-bytes",
        type=whole_number,
        default=1024**3,
        metavar="BYTES",
        help="memory kept for extracted documents between calls (default 1 GiB)",
    )
    parser.add_argument("--warn-hidden", action="store_true", help=log_or_hidden)
    parser.add_argument(
        "--ocr-lang",
        type=ocr_language_argument,
        default=None,
        metavar="LANG",
        help="the languages ocr_recognize reads, as Tesseract's codes: eng (default), deu, "
        "deu+eng; checked at start against what Tesseract has installed",
    )


def check_server_options(args: argparse.Namespace) -> None:
    """Refuses, as a usage error, limits no server can work with."""
    check_seconds("--timeout", args.timeout)
    for option, value in (("--max-bytes", args.max_bytes), ("--max-runes", args.max_runes)):
        if value < 1:
            raise UsageError(f"{option} must be >= 1, not {value}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be >= 1, not {args.workers}")
    if args.cache_bytes < 0:  # 0 keeps nothing between calls
        raise UsageError(f"--cache-bytes must be >= 0, not {args.cache_bytes}")
    if args.ocr_lang is not None:
        from siftui.sources.ocr_runner import ocr_language_reason

        reason = ocr_language_reason(args.ocr_lang)
        if reason is not None:
            raise UsageError(f"--ocr-lang {args.ocr_lang}: {reason}")
    if args.worker_memory != 0 and args.worker_memory < MIN_WORKER_MEMORY:
        raise UsageError(
            f"--worker-memory must be 0 (no limit) or >= {MIN_WORKER_MEMORY:,} bytes "
            f"(an extraction process needs ~100 MB to start), not {args.worker_memory:,}"
        )


def server_roots(args: argparse.Namespace) -> Roots:
    from siftui.serve.access import RootError, Roots

    try:
        return Roots(args.root)
    except RootError as error:
        raise UsageError(str(error)) from None


def server_store(args: argparse.Namespace, *, inspect_hidden: bool) -> DocStore:
    from siftui.serve.docstore import DocStore
    from siftui.serve.limits import StoreLimits

    limits = StoreLimits(
        timeout=args.timeout,
        max_bytes=args.max_bytes,
        max_runes=args.max_runes,
        workers=args.workers,
        memory=args.worker_memory,
        cache_bytes=args.cache_bytes,
        inspect_hidden=inspect_hidden,
    )
    return DocStore(limits)


def server_families(text: str, *, host: bool) -> set[str]:
    """The tool families ``--tools`` names (a comma list), or a usage error: an unknown
    family, none, a family only a host serves (``host`` False: `siftui mcp` without
    --reader), or the edit family without the evidence family its documents come from."""
    from siftui.serve.tools import HOST_FAMILIES, UnknownFamily, selected

    families = {name.strip() for name in text.split(",")} - {""}
    try:
        selected(families)
    except UnknownFamily as error:
        raise UsageError(f"--tools: {error}") from None
    only_host = sorted(families & HOST_FAMILIES)
    if only_host and not host:
        raise UsageError(
            f"--tools: the {only_host[0]} tools are served by siftui reader only "
            "(siftui mcp --reader reaches a running one)"
        )
    if only_host and "evidence" not in families:
        raise UsageError(
            f"--tools: the {only_host[0]} tools work on documents pdf_open opened: "
            f"add evidence (--tools evidence,{only_host[0]})"
        )
    return families
