"""``siftui audit DIR|FILE...``: what agents will see of a whole document store.

One JSON line per document (siftui.sources.audit.document), from a pool of
bounded workers (siftui.sources.audit.pool) or, with ``--dask``, from the
same workers on a Dask cluster's machines (siftui.sources.audit.cluster),
appended to ``--out`` as each is done; an existing ``--out`` is read first
and the documents it holds (the same path and sha256) are not audited again.
Then the summary's tables (siftui.sources.audit.summary), and with ``--html``
a page of them.
``siftui audit --summary audit.jsonl`` prints the summary of a file.

Exit codes: 0 done, 1 a file error, 2 a bad option, 130 interrupted (the
--out file holds every record finished so far, whole lines only).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from siftui.cli.common import (
    EXIT_DOCUMENT,
    Parser,
    UsageError,
    add_outcap,
    add_unit,
    check_seconds,
    whole_number,
)
from siftui.core.json_text import json_line
from siftui.core.messages import file_error, quoted
from siftui.sources.interrupts import Interrupted, interrupted_as_our_own

AUDIT_EXAMPLES = """each line: path, size, sha256, kind, pages or paragraphs, runes, tokens
(runes/4 and o200k), the first call at the OutCap (whole or map), the calls to
read it all and their runes, unreachable runes and pages (a Word document's
paragraphs), unreadable and image-only pages, needs_password (and
password_worked with --password), hidden-text alarms (--hidden), the agents
check of the first answer (--agents), seconds; or error and error_kind. With
--unit bytes, also unit, first_call_bytes and calls_bytes; the unreachable runes
are those of a cut in bytes.

examples:
  siftui audit ~/papers --out audit.jsonl --hidden     # interrupted? run it again
  siftui audit ~/papers --outcap 20k --jobs 4 --html report.html
  siftui audit ~/papers --outcap 100k --unit bytes    # the OutCap in UTF-8 bytes
  siftui audit --summary audit.jsonl --html report.html
  siftui audit /data/room --password s3cret --out audit.jsonl
  siftui audit /shared/papers --dask tcp://scheduler:8786 --out audit.jsonl
"""


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="siftui audit",
        description=(
            "Audit every PDF and Word document under DIR (or the FILEs named): one JSON "
            "line each on what an agent's read tool shows of it at this OutCap, then a "
            "summary."
        ),
        epilog=AUDIT_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", metavar="DIR|FILE", nargs="*", help="documents or folders")
    add_outcap(parser)
    add_unit(parser)
    parser.add_argument("--agents", action="store_true", help="check the first answer's fit")
    parser.add_argument("--hidden", action="store_true", help="inspect PDFs for hidden text")
    parser.add_argument(
        "--out", default=None, help="append the lines to this file (resumed if it exists)"
    )
    parser.add_argument("--jobs", type=whole_number, default=None, help="workers (default: cores)")
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        default=None,
        help="run on this Dask scheduler's workers instead (needs siftui[dask])",
    )
    parser.add_argument(
        "--password",
        default=None,
        help="tried on the encrypted PDFs that cannot be opened without one",
    )
    parser.add_argument(
        "--summary", metavar="FILE", default=None, help="print the summary of an audit file"
    )
    parser.add_argument("--html", default=None, help="also write the summary as an HTML page")
    parser.add_argument("--force", action="store_true", help="overwrite an existing --html file")
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per document (default 300)"
    )
    parser.add_argument(
        "--memory", type=whole_number, default=None, help="MiB per worker (default 2048; 0: none)"
    )
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    return parser


def cmd_audit(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    from siftui.sources.output import check_new_file

    if args.summary is not None and args.paths:
        raise UsageError("--summary reads an audit file: give it no DIR or FILE")
    if args.summary is None and not args.paths:
        raise UsageError("give a DIR or FILE to audit (or --summary FILE)")
    if args.outcap < 1:
        raise UsageError(f"--outcap must be >= 1, not {args.outcap}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be >= 1, not {args.jobs}")
    if args.jobs is not None and args.dask is not None:
        raise UsageError("--jobs is the local pool's: with --dask the cluster's workers run")
    if args.summary is not None and (args.dask is not None or args.password is not None):
        raise UsageError("--summary reads an audit file: --dask and --password audit documents")
    if args.timeout is not None:
        check_seconds("--timeout", args.timeout)
    if args.memory is not None and args.memory < 0:
        raise UsageError(f"--memory must be >= 0, not {args.memory}")
    if args.html is not None:
        check_new_file(args.html, overwrite=args.force)  # before the work, not after
    from siftui.sources.audit.store import read_records, why_not_appendable
    from siftui.sources.lines import NotLines

    if args.summary is not None:
        try:
            records = read_records(args.summary)
        except NotLines as error:
            print(f"siftui: error: {error}", file=sys.stderr)
            return EXIT_DOCUMENT
        if not records:  # a summary of nothing would read as an audit that found nothing
            name = quoted(args.summary)
            print(f"siftui: error: {name}: no audit records in it", file=sys.stderr)
            return EXIT_DOCUMENT
        out = sys.stdout
    elif args.out is not None and (refused := why_not_appendable(args.out)) is not None:
        # Resumed, the file's torn last line is cut and lines appended: never to a file
        # that is no audit (a PDF given as --out lost its tail, then gained JSON).
        print(f"siftui: error: {refused}", file=sys.stderr)
        return EXIT_DOCUMENT
    elif (missing := _missing(args.paths)) is not None:
        print(f"siftui: error: {missing}", file=sys.stderr)
        return EXIT_DOCUMENT
    else:
        from siftui.sources.audit.cluster import DaskUnavailable

        try:
            audited = _audit(args)
        except DaskUnavailable as error:
            print(f"siftui: error: {error}", file=sys.stderr)
            return EXIT_DOCUMENT
        if audited is None:
            return 130
        records, out = audited
    _report(records, args.html, out, overwrite=args.force)
    return 0


def _missing(paths: Sequence[str]) -> str | None:
    """Why the first of ``paths`` that cannot be looked up cannot be, as one line; None
    when all can. A mistyped DIR or FILE is said before any document is read: audited,
    it was one refused document in a summary that ended with exit 0."""
    for path in paths:
        try:
            os.stat(path)  # through links: a dangling one names nothing to audit
        except OSError as error:
            return file_error(path, error)
    return None


def _audit(args: argparse.Namespace) -> tuple[list[dict[str, Any]], TextIO] | None:
    from siftui.sources.audit.document import AuditOptions
    from siftui.sources.audit.pool import DEFAULT_MEMORY, DEFAULT_SECONDS, Pool, default_jobs
    from siftui.sources.audit.store import Records, documents

    agents = None
    if args.agents:
        from siftui.core.agents import AgentsError
        from siftui.sources.agents_load import load_agents

        try:
            agents = tuple(load_agents())
        except AgentsError as error:
            raise UsageError(str(error)) from None
    options = AuditOptions(
        args.outcap, args.hidden, agents, not args.no_cache, args.password, args.unit
    )
    memory = DEFAULT_MEMORY if args.memory is None else args.memory * 1024**2
    seconds = DEFAULT_SECONDS if args.timeout is None else args.timeout
    client: Any = None
    if args.dask is not None:
        from siftui.sources.audit import cluster

        client = cluster.connect(args.dask)  # before any work: a bad address is one line
    store = Records(args.out) if args.out is not None else None
    todo = [path for path in documents(args.paths) if store is None or not store.holds(path)]
    todo.sort(key=_largest_first)  # the longest jobs first: no worker waits on one at the end
    if client is not None:
        pool = None
        found = cluster.run(client, todo, options, seconds, memory)
    else:
        jobs = default_jobs() if args.jobs is None else args.jobs
        pool = Pool(options, jobs=jobs, seconds=seconds, memory=memory)
        found = pool.run(todo)
    progress = ProgressLine(len(todo)) if sys.stderr.isatty() else None
    fresh: list[dict[str, Any]] = []
    interrupts = contextlib.nullcontext() if client is None else interrupted_as_our_own()
    try:
        with interrupts:
            for record in found:
                fresh.append(record)
                if store is not None:
                    store.append(record)
                else:
                    sys.stdout.write(json_line(record) + "\n")
                    sys.stdout.flush()
                if progress is not None:
                    progress.step()
    except (KeyboardInterrupt, Interrupted):
        if pool is not None:
            pool.close()
        return None
    finally:
        found.close()  # stops the workers, or cancels the cluster's tasks not done
        if client is not None:
            client.close()
        if store is not None:
            store.close()
        if progress is not None:
            progress.clear()
    if store is not None:
        return store.records, sys.stdout
    return fresh, sys.stderr


def _largest_first(path: str) -> tuple[int, str]:
    try:
        return -os.stat(path).st_size, path
    except OSError:
        return 0, path


def _report(
    records: list[dict[str, Any]], html: str | None, out: TextIO, *, overwrite: bool = False
) -> None:
    from siftui.sources.audit.summary import tables, text, token_counts

    found = tables(records)
    out.write(text(found))
    out.flush()
    if html is not None:
        from siftui.sources.audit.html import page
        from siftui.sources.output import encode_utf8, write_new_file

        write_new_file(html, encode_utf8(page(found, token_counts(records))), overwrite=overwrite)


class ProgressLine:
    """``siftui audit: 12/40 documents, 3.1/s, 9 s left`` on one stderr line."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.started = time.monotonic()

    def step(self) -> None:
        self.done += 1
        elapsed = max(time.monotonic() - self.started, 1e-6)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate else 0.0
        sys.stderr.write(
            f"\rsiftui audit: {self.done:,}/{self.total:,} documents, "
            f"{rate:.1f}/s, {left:,.0f} s left\x1b[K"
        )
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
