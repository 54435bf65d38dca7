"""The log report as a tree for the replay's report screen. No Textual here.

Every finding goes under the document its call read (calls that name no file
under a last group), in the words of `siftui log FILE --report`. A node with a
call number jumps the replay to that call; a finding that involves several calls
(a loop, an error and the call after it, a note and the call that followed it)
has one "call N" leaf for each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from siftui.sources.log.report import LogReport
from siftui.sources.log.report_text import (
    cut_line,
    document_lines,
    document_title,
    empty_grep_line,
    error_line,
    loop_line,
    re_read_part,
)

NO_DOCUMENT = "calls that name no document"


@dataclass(frozen=True)
class Node:
    label: str
    call: int | None = None  # the call the replay jumps to when this node is chosen
    children: tuple[Node, ...] = ()


def _leaves(numbers: Sequence[int | None]) -> tuple[Node, ...]:
    seen: list[int] = []
    for number in numbers:
        if number is not None and number not in seen:
            seen.append(number)
    return tuple(Node(f"call {number}", number) for number in seen)


def _finding(label: str, numbers: Sequence[int | None]) -> Node:
    """A finding: it jumps to its first call; with more than one call, a leaf each."""
    leaves = _leaves(numbers)
    first = leaves[0].call if leaves else None
    return Node(label, first, leaves if len(leaves) > 1 else ())


def _section(title: str, findings: list[Node]) -> Node:
    return Node(
        f"{title}: {len(findings)}" if findings else f"{title}: none", None, tuple(findings)
    )


def report_tree(found: LogReport) -> tuple[Node, ...]:
    """One node per document (and one for calls naming none), each with its findings."""
    owner: dict[int, int] = {}
    for index, use in enumerate(found.documents):
        for number in use.calls:
            owner[number] = index
    groups = len(found.documents)  # the index of the no-document group
    loops: dict[int, list[Node]] = {}
    errors: dict[int, list[Node]] = {}
    empty: dict[int, list[Node]] = {}
    cut: dict[int, list[Node]] = {}
    for entry, numbers in found.loops:
        loops.setdefault(owner.get(numbers[0], groups), []).append(
            _finding(loop_line(entry, numbers), numbers)
        )
    for error in found.errors:
        errors.setdefault(owner.get(error.call, groups), []).append(
            _finding(error_line(error), (error.call, error.next_call))
        )
    for number, entry in found.empty_greps:
        empty.setdefault(owner.get(number, groups), []).append(
            _finding(empty_grep_line(number, entry), (number,))
        )
    for answer in found.cut:
        cut.setdefault(owner.get(answer.call, groups), []).append(
            _finding(cut_line(answer), (answer.call, answer.followed_by, answer.next_call))
        )

    def findings(group: int) -> list[Node]:
        return [
            _section("identical calls repeated (loops)", loops.get(group, [])),
            _section("errors", errors.get(group, [])),
            _section("grep patterns with no matches", empty.get(group, [])),
            _section("cut answers", cut.get(group, [])),
        ]

    tree: list[Node] = []
    for index, use in enumerate(found.documents):
        facts = [Node(line) for line in document_lines(use) if not line.startswith("read more")]
        if use.re_read:
            again = [
                _finding(re_read_part(page, calls), calls) for page, calls in use.re_read.items()
            ]
            facts.append(
                Node(
                    f"read more than once: {len(again)} page{'s' if len(again) != 1 else ''}, "
                    f"{use.re_read_runes:,} runes spent on re-reads",
                    None,
                    tuple(again),
                )
            )
        tree.append(Node(document_title(use), None, (*facts, *findings(index))))
    if any(groups in found_in for found_in in (loops, errors, empty, cut)):
        tree.append(Node(NO_DOCUMENT, None, tuple(n for n in findings(groups) if n.children)))
    return tuple(tree)
