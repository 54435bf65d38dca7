"""`siftui reader`'s command line: bad options are one line before anything starts, and
the link that joins the host to the reader speaks the host's words."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from siftui import cli
from siftui.cli.reader import SeamLink
from siftui.serve.edit.reader_link import ReaderAway
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.edit.registry import WorkingCopies
from siftui.tui.reader.copies import CopiesBackend
from siftui.tui.reader.seam import ReaderSeam

if TYPE_CHECKING:
    from siftui.sources.edit.working_copy import WorkingCopy
    from siftui.tui.reader.app import ReaderApp


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--approval-timeout", "0"], "--approval-timeout must be > 0, not 0"),
        (["--port", "70000"], "--port must be from 0 (a free one) to 65535, not 70000"),
        (["--port", "-1"], "--port must be from 0 (a free one) to 65535, not -1"),
        (["--tools", "read,edit"], "--tools: the edit tools work on documents pdf_open opened"),
        (["--tools", "nope"], "--tools:"),
    ],
)
def test_bad_options_are_one_line(
    options: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["reader", "--root", str(tmp_path), *options]) == 2
    error = capsys.readouterr().err
    assert said in error and error.count("\n") == 1


def test_a_root_that_is_not_there_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["reader", "--root", str(tmp_path / "missing")]) == 2
    assert "no such directory" in capsys.readouterr().err


def test_with_no_reader_attached_the_link_says_the_reader_is_away(tmp_path: Path) -> None:
    seam = ReaderSeam()
    link = SeamLink(seam, CopiesBackend(WorkingCopies(DraftStore(tmp_path / "drafts"))))
    assert list(link.tabs()) == []
    with pytest.raises(ReaderAway):
        link.jump("tab-1", 2)
    with pytest.raises(ReaderAway):
        link.ask_save(str(tmp_path / "a.pdf"), 1, 5.0)


def reader_on(pdf: Path, tmp_path: Path) -> tuple[CopiesBackend, SeamLink, ReaderApp]:
    """A reader on ``pdf``, not yet running, and the link a host calls it through."""
    from siftui.tui.reader.app import ReaderApp

    backend = CopiesBackend(WorkingCopies(DraftStore(tmp_path / "drafts")))
    seam = ReaderSeam()
    return backend, SeamLink(seam, backend), ReaderApp(backend, seam, [pdf])


def agent_highlight(copy: WorkingCopy, comment: str) -> None:
    """The agent's highlight on page 1 (``comment`` its words), the draft's revision 1."""
    from siftui.core.edit.operations import AGENT_AUTHOR, AddAnnotation, Transaction

    quad = (72.0, 780.0, 200.0, 780.0, 72.0, 766.0, 200.0, 766.0)
    added = AddAnnotation(
        1, "Highlight", (quad,), None, "#ffff00", comment, "siftui-1-1", AGENT_AUTHOR, "D:1"
    )
    copy.commit(0, Transaction((added,), "pdf_annotation_create"))


def test_the_link_puts_a_save_with_its_changes_before_the_person(tmp_path: Path) -> None:
    import asyncio
    import threading
    from concurrent.futures import Future

    from support.pdfs import make_pdf
    from support.tui_support import wait_until

    from siftui.tui.reader.approval import ApprovalScreen

    pdf = make_pdf(tmp_path / "notes.pdf", ["Field notes\nentropy at dawn"], stable=True)
    backend, link, app = reader_on(pdf, tmp_path)
    asked: list[Future[bool]] = []
    jumped: list[int] = []

    async def main() -> None:
        async with app.run_test(size=(110, 34)) as pilot:
            await wait_until(pilot, lambda: len(link.tabs()) == 1)
            [tab] = link.tabs()
            assert (tab.tab_id, tab.path, tab.page) == ("tab-1", str(pdf), 1)
            copy = backend.copies.get(str(pdf))
            assert copy is not None
            agent_highlight(copy, "dawn")

            # The host's threads call the link.
            def calls() -> None:
                jumped.append(link.jump("tab-1", 1))
                asked.append(link.ask_save(str(pdf), 1, 30.0))

            host = threading.Thread(target=calls)
            host.start()
            await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
            screen = app.screen
            assert isinstance(screen, ApprovalScreen)
            assert screen.request.path == pdf and screen.request.timeout == 30.0
            assert [line.what for line in screen.request.changes] == [
                'added   Highlight siftui-1-1 by siftui agent "dawn"'
            ]
            await pilot.press("y")
            await wait_until(pilot, lambda: bool(asked) and asked[0].done())
            host.join(5)

    asyncio.run(main())
    assert jumped == [1]
    assert asked[0].result() is True
    with pytest.raises(ReaderAway):  # the reader has closed
        link.jump("tab-1", 1)


def test_a_repaired_file_s_save_dialog_says_it_rewrites_the_file_whole(tmp_path: Path) -> None:
    """The person approves a save knowing it rewrites the file whole (MuPDF repaired it
    on open); the line under the tabs says so once, naming the file."""
    import asyncio
    import threading
    from concurrent.futures import Future

    from support.pdfs import make_pdf
    from support.tui_support import wait_until
    from textual.widgets import Static

    from siftui.sources.edit.save import REPAIRED
    from siftui.tui.reader.approval import ApprovalScreen

    pdf = make_pdf(tmp_path / "notes.pdf", ["Field notes\nentropy at dawn"], stable=True)
    data = pdf.read_bytes()
    pdf.write_bytes(data[: data.rfind(b"startxref")] + b"startxref\n999999\n%%EOF\n")
    backend, link, app = reader_on(pdf, tmp_path)
    assert backend.open(pdf, None).note == f"notes.pdf: {REPAIRED}"
    asked: list[Future[bool]] = []
    shown: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(110, 34)) as pilot:
            await wait_until(pilot, lambda: len(link.tabs()) == 1)
            copy = backend.copies.get(str(pdf))
            assert copy is not None
            agent_highlight(copy, "")
            host = threading.Thread(target=lambda: asked.append(link.ask_save(str(pdf), 1, 30.0)))
            host.start()
            await wait_until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
            screen = app.screen
            assert isinstance(screen, ApprovalScreen)
            assert screen.request.whole == REPAIRED
            shown.extend(str(static.render()) for static in screen.query(Static))
            await pilot.press("n")
            await wait_until(pilot, lambda: bool(asked) and asked[0].done())
            host.join(5)

    asyncio.run(main())
    assert REPAIRED in shown
    assert asked[0].result() is False
