"""The replay's report screen (`r` in `siftui log FILE`): the log's report per document,
in the CLI's words, and a chosen call number jumps the replay there."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.tui_support import (
    RecordingApp,
    book_doc,
    careless_log,
    run,
    settle,
    wait_until,
    write_doc,
)
from textual.pilot import Pilot
from textual.widgets import Tree
from textual.widgets._footer import FooterKey
from textual.widgets.tree import TreeNode

from siftui.sources.log.reading import read_log
from siftui.sources.log.report import report
from siftui.sources.log.report_text import document_lines, report_text
from siftui.tui.app import SiftApp
from siftui.tui.evidence_rerun import LogReplay
from siftui.tui.factory import create_log_app
from siftui.tui.keys import system_commands
from siftui.tui.report_model import NO_DOCUMENT, Node, report_tree
from siftui.tui.screens import LogReportScreen
from siftui.tui.widgets.call_list import CallList
from siftui.tui.widgets.replay import ReplayStatus


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = write_doc(book_doc(), tmp_path, "book.json")
    return careless_log(book_doc(), str(path), tmp_path)


def labels(nodes: tuple[Node, ...], depth: int = 0) -> list[tuple[int, str, int | None]]:
    found: list[tuple[int, str, int | None]] = []
    for node in nodes:
        found.append((depth, node.label, node.call))
        found.extend(labels(node.children, depth + 1))
    return found


def child(nodes: tuple[Node, ...], start: str) -> Node:
    matches = [node for node in nodes if node.label.startswith(start)]
    assert len(matches) == 1, (start, [node.label for node in nodes])
    return matches[0]


def test_the_tree_holds_every_finding_with_its_calls_in_the_cli_words(log: Path) -> None:
    entries = read_log(log)
    pdf, sha = Path(entries[0].path), entries[0].sha256
    assert sha is not None
    found = report(entries, {sha: book_doc()})
    tree = report_tree(found)
    assert [node.label for node in tree] == [f"{pdf} (sha256 {sha[:12]}…)", NO_DOCUMENT]
    book = tree[0].children
    assert child(book, "pages read: 1-5 (5 of 8 pages, ").call is None
    assert child(book, "never read:").label == "never read: 6-8"
    again = child(book, "read more than once: 2 pages")
    assert [(n.label, n.call) for n in again.children] == [
        ("page 2 (calls 2, 3, 4)", 2),
        ("page 3 (calls 2, 3, 4)", 2),
    ]
    assert [leaf.call for leaf in again.children[0].children] == [2, 3, 4]
    loops = child(book, "identical calls repeated (loops): 1")
    (loop,) = loops.children
    assert loop.label == 'pages="2-3" on book.json: calls 3, 4'
    assert [(leaf.label, leaf.call) for leaf in loop.children] == [("call 3", 3), ("call 4", 4)]
    errors = child(book, "errors: 2").children
    assert errors[0].label.startswith("call 5: ") and errors[0].label.endswith("fixed by call 6")
    assert [leaf.call for leaf in errors[0].children] == [5, 6]
    assert errors[1].label.startswith("call 8: pages out of range (1-8)")
    assert errors[1].label.endswith("call 9 failed too")
    (empty,) = child(book, "grep patterns with no matches: 1").children
    assert (empty.label, empty.call, empty.children) == (
        'call 6: grep="fox \\(" on book.json',
        6,
        (),
    )
    (cut,) = child(book, "cut answers: 1").children
    assert cut.label.endswith('ask for pages="6-8" -- not followed (next call on this document: 3)')
    assert [leaf.call for leaf in cut.children] == [2, 3]
    # The call that names no document: its own group, with only what it holds.
    (nowhere,) = tree[1].children
    (error,) = nowhere.children
    assert error.label == "call 9: unknown tool: list_files -- the last call: never retried"
    # Every line of the CLI's report is in the tree, word for word (the re-read
    # line is split into one node per page).
    shown = {label for _, label, _ in labels(tree)}
    for line in report_text(found).splitlines()[2:]:
        line = line.strip()
        if line and not line.startswith("read more than once") and not line.endswith(":"):
            assert line in shown or line.endswith(" none"), line


def find(node: TreeNode[int | None], label: str) -> TreeNode[int | None]:
    for each in node.children:
        if str(each.label) == label:
            return each
        try:
            return find(each, label)
        except LookupError:
            continue
    raise LookupError(label)


def replay_text(app: SiftApp) -> str:
    return str(app.query_one("#replay", ReplayStatus).render())


def test_r_shows_the_report_and_a_chosen_call_is_replayed(log: Path) -> None:
    entries = read_log(log)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: "same bytes" in replay_text(app))
        await settle(app, pilot)
        footer = [key.description for key in app.screen.query(FooterKey)]
        assert "Report" in footer
        assert any(command.title == "Report (r)" for command in system_commands(app))
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, LogReportScreen))
        tree: Tree[int | None] = app.screen.query_one("#report-tree", Tree)
        loop = find(tree.root, 'pages="2-3" on book.json: calls 3, 4')
        assert loop.parent is not None and loop.parent.is_expanded and not loop.is_expanded
        assert str(find(tree.root, "never read: 6-8").label) == "never read: 6-8"
        tree.move_cursor(loop)
        await pilot.press("space")
        assert loop.is_expanded
        tree.move_cursor(find(loop, "call 4"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, LogReportScreen))
        calls = app.query_one(CallList)
        assert calls.cursor_row == 3 and app.focused is calls
        await wait_until(
            pilot,
            lambda: (
                app.answer is not None
                and app.answer.options == entries[3].options
                and "same bytes" in replay_text(app)
            ),
        )
        assert app.answer is not None and app.answer.rendered == entries[3].rendered
        # A finding jumps to its first call; the error's call shows what the agent got.
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, LogReportScreen))
        tree = app.screen.query_one("#report-tree", Tree)
        tree.move_cursor(
            find(tree.root, "call 9: unknown tool: list_files -- the last call: never retried")
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: "call 9" in replay_text(app))
        assert "the agent got an error: unknown tool: list_files" in replay_text(app)
        assert app.query_one(CallList).cursor_row == 8
        # Escape closes without moving.
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, LogReportScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, LogReportScreen))
        assert app.query_one(CallList).cursor_row == 8

    run(create_log_app(read_log(log)), scenario, size=(140, 40))


def test_the_report_key_is_only_in_a_replay(tmp_path: Path) -> None:
    pdf = write_doc(book_doc(), tmp_path)

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert "Report" not in [key.description for key in app.screen.query(FooterKey)]
        assert not any(command.title == "Report (r)" for command in system_commands(app))
        await pilot.press("r")
        await pilot.pause()
        assert not isinstance(app.screen, LogReportScreen)

    run(SiftApp(pdf), scenario, size=(140, 40))


def test_a_changed_file_is_not_counted_as_what_the_agent_read(log: Path, tmp_path: Path) -> None:
    entries = read_log(log)
    changed = book_doc()
    write_doc(changed.__class__("Changed", 8, changed.pages[::-1], ()), tmp_path, "book.json")

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        await wait_until(pilot, lambda: "file changed since the call" in replay_text(app))
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, LogReportScreen))
        tree: Tree[int | None] = app.screen.query_one("#report-tree", Tree)
        document = tree.root.children[0]
        read = [str(n.label) for n in document.children if str(n.label).startswith("pages read")]
        # The pages come from the map's header; the share would need the logged text.
        assert read == [document_lines(report(entries).documents[0])[1]]
        assert read[0].endswith(" runes (the document's size is unknown))")
        assert str(find(tree.root, "never read: 6-8").label) == "never read: 6-8"

    run(create_log_app(entries), scenario, size=(140, 40))


def test_a_log_without_findings_says_none_in_each_section(tmp_path: Path) -> None:
    assert report_tree(report([])) == ()
    path = write_doc(book_doc(), tmp_path, "book.json")
    entries = read_log(careless_log(book_doc(), str(path), tmp_path))[:1]  # the map only
    (document,) = report_tree(report(entries, {entries[0].sha256 or "": book_doc()}))
    sections = [node.label for node in document.children if node.label.endswith(": none")]
    assert sections == [
        "identical calls repeated (loops): none",
        "errors: none",
        "grep patterns with no matches: none",
        "cut answers: none",
    ]


def test_an_unexpected_failure_is_one_line_and_the_replay_goes_on(
    log: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from siftui.sources.log import report_run

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    def broken(entries: object) -> dict[str, object]:
        raise RuntimeError("disk on fire")

    # replay_flow imports it when the report is asked for, so the broken one is used.
    monkeypatch.setattr(report_run, "documents_of", broken)

    app = RecordingApp(None, None, LogReplay(read_log(log)))

    async def scenario(app: SiftApp, pilot: Pilot[int]) -> None:
        assert isinstance(app, RecordingApp)
        await wait_until(pilot, lambda: "same bytes" in replay_text(app))
        await pilot.press("r")
        await wait_until(pilot, lambda: any("disk on fire" in seen for seen in app.seen))
        (message,) = [seen for seen in app.seen if "disk on fire" in seen]
        assert message.startswith("making the log report: unexpected RuntimeError: disk on fire")
        assert "\n" not in message
        assert not isinstance(app.screen, LogReportScreen)
        await pilot.press("down")
        await wait_until(pilot, lambda: app.query_one(CallList).cursor_row == 1)

    run(app, scenario, size=(140, 40))
