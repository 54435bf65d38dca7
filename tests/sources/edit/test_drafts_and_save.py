# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""Drafts kept on disk after every change and offered back; the approved save's
re-checks and atomic write; the saved file read by other readers."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pymupdf
import pytest
from support.editing import Editing, make_lines_pdf, open_editing, text_under_quads

from siftui.core.edit.tools_annotations import Create, annotation_create
from siftui.core.evidence.errors import EvidenceError
from siftui.sources.edit import drafts as drafts_module
from siftui.sources.edit.documents import fingerprint
from siftui.sources.edit.drafts import DraftStore, default_drafts_folder
from siftui.sources.edit.registry import WorkingCopies
from siftui.sources.edit.working_copy import Revised


def highlight(editing: Editing, text: str, page: int = 1) -> str:
    target = {"kind": "reference", "refId": editing.ref(page, text)}
    asked = Create(editing.copy.revision, "Highlight", target)
    result = annotation_create(editing.session, editing.copy, "doc-1", asked)
    annotations = result["annotations"]
    assert isinstance(annotations, list)
    return str(annotations[0]["annotationId"])


def test_the_drafts_folder_follows_xdg_state_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", "/somewhere/state")
    assert default_drafts_folder() == Path("/somewhere/state/siftui/drafts")
    monkeypatch.delenv("XDG_STATE_HOME")
    assert default_drafts_folder() == Path.home() / ".local/state/siftui/drafts"


def test_every_change_is_kept_and_restored_at_its_revision(tmp_path: Path) -> None:
    drafts = tmp_path / "drafts"
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), drafts)
    highlight(editing, "beta")
    highlight(editing, "zeta", page=2)
    editing.copy.undo()
    assert stat.S_IMODE(os.stat(drafts).st_mode) == 0o700
    (kept,) = drafts.glob("*.json")
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    # a snapshot at the first change, then one line for each change after it
    snapshot, write, undo = (json.loads(line) for line in kept.read_text().splitlines())
    assert (snapshot["revision"], len(snapshot["applied"]), len(snapshot["undone"])) == (1, 1, 0)
    assert (write["event"], write["revision"], undo) == (
        "write",
        2,
        {"event": "undo", "revision": 3},
    )
    kept_draft = DraftStore(drafts).load(str(editing.path))
    assert kept_draft is not None
    history = kept_draft.history
    assert (history.revision, len(history.applied), len(history.undone)) == (3, 1, 1)
    # a reader that died: a new host opens the same bytes
    again = WorkingCopies(DraftStore(drafts)).open(str(editing.path), editing.path.read_bytes())
    assert again.note is not None and again.note.kind == "restored"
    assert again.note.message == (
        f"restored the draft kept for {editing.path} at revision 3 (1 change not saved)"
    )
    assert again.copy.revision == 3
    assert [a.annotation_id for a in again.copy.annotations()] == ["siftui-1-1"]
    again.copy.redo()
    assert [a.annotation_id for a in again.copy.annotations()] == ["siftui-1-1", "siftui-2-1"]


def test_a_last_line_cut_short_is_not_a_change_and_a_bad_one_sets_the_draft_aside(
    tmp_path: Path,
) -> None:
    drafts = tmp_path / "drafts"
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), drafts)
    highlight(editing, "beta")
    highlight(editing, "zeta", page=2)
    (kept,) = drafts.glob("*.json")
    whole = kept.read_bytes()
    kept.write_bytes(whole[:-7])  # a crash in the middle of the second change's line
    draft = DraftStore(drafts).load(str(editing.path))
    assert draft is not None and draft.history.revision == 1
    kept.write_bytes(whole + b'{"event": "redo", "revision": 3}\n')  # nothing to redo
    assert DraftStore(drafts).load(str(editing.path)) is None
    assert [path.name.split(".aside-")[1] for path in drafts.glob("*.aside-*")] == [
        "unreadable.json"
    ]


def test_a_kept_draft_nested_too_deep_is_set_aside(tmp_path: Path) -> None:
    """A draft file nesting deeper than Python's parser goes (a RecursionError, no
    ValueError) is unreadable like any other: set aside, never applied, nothing raised."""
    drafts = tmp_path / "drafts"
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), drafts)
    highlight(editing, "beta")
    (kept,) = drafts.glob("*.json")
    kept.write_bytes(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    assert DraftStore(drafts).load(str(editing.path)) is None
    assert [path.name.split(".aside-")[1] for path in drafts.glob("*.aside-*")] == [
        "unreadable.json"
    ]


def test_the_snapshot_is_written_again_after_many_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drafts_module, "COMPACT_AFTER", 3)
    drafts = tmp_path / "drafts"
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), drafts)
    highlight(editing, "beta")
    for _ in range(3):
        editing.copy.undo()
        editing.copy.redo()
    (kept,) = drafts.glob("*.json")
    lines = kept.read_text().splitlines()
    # changes 2-4 were lines after the first snapshot; the 5th wrote a snapshot again
    assert len(lines) == 3
    assert json.loads(lines[0])["revision"] == 5
    draft = DraftStore(drafts).load(str(editing.path))
    assert draft is not None and draft.history.revision == 7 == editing.copy.revision
    assert len(draft.history.applied) == 1


def test_a_draft_of_other_bytes_is_kept_aside_never_applied(tmp_path: Path) -> None:
    drafts = tmp_path / "drafts"
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), drafts)
    highlight(editing, "beta")
    make_lines_pdf(editing.path, pages=3)  # the file changed since
    again = WorkingCopies(DraftStore(drafts)).open(str(editing.path), editing.path.read_bytes())
    assert again.note is not None and again.note.kind == "aside"
    assert again.note.message.startswith(
        f"a draft kept for {editing.path} was not applied: the file changed since it was made;"
        " it is kept aside ("
    )
    assert Path(again.note.aside).is_file()
    assert again.copy.revision == 0 and again.copy.annotations() == []
    again.copy.discard()  # the person's: the draft kept aside goes too
    assert not Path(again.note.aside).exists()


def test_discard_is_a_revision_and_removes_the_kept_draft(tmp_path: Path) -> None:
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), tmp_path / "drafts")
    told: list[Revised] = []
    editing.copy.listen(told.append)
    highlight(editing, "beta")
    assert editing.copy.discard() == 2
    assert [(c.kind, c.revision, c.unsaved) for c in told] == [
        ("write", 1, True),
        ("discard", 2, False),
    ]
    assert editing.copy.annotations() == [] and not list((tmp_path / "drafts").glob("*.json"))


def test_a_save_writes_atomically_and_starts_again_from_the_saved_bytes(tmp_path: Path) -> None:
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), tmp_path / "drafts")
    os.chmod(editing.path, 0o640)
    before = editing.path.read_bytes()
    with pytest.raises(EvidenceError, match=r"^nothing to save: the draft has no changes$"):
        editing.copy.save(0)
    name = highlight(editing, "gamma 1\ndelta")
    changes = editing.copy.changes()
    assert [(c.kind, c.page, c.annotation_id) for c in changes.changes] == [("added", 1, name)]
    with pytest.raises(EvidenceError) as stale:
        editing.copy.save(0)
    assert str(stale.value) == (
        "revision is 1, not 0: the draft changed while waiting; nothing saved"
    )
    saved = editing.copy.save(1, "a.pdf")
    data = editing.path.read_bytes()
    assert data.startswith(before) and not saved.whole  # appended: an incremental update
    assert (saved.revision, saved.bytes) == (2, len(data))
    assert stat.S_IMODE(os.stat(editing.path).st_mode) == 0o640
    assert not [p for p in editing.path.parent.iterdir() if p.name.startswith(".a.pdf")]
    assert editing.copy.revision == 2 and not editing.copy.unsaved
    assert editing.copy.content_version == saved.content_version
    assert [a.annotation_id for a in editing.copy.file_annotations()] == [name]
    assert text_under_quads(editing.path, name) == "gamma1delta"


def test_a_file_changed_on_disk_is_not_saved_over(tmp_path: Path) -> None:
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), tmp_path / "drafts")
    highlight(editing, "beta")
    make_lines_pdf(editing.path, pages=1)
    changed = editing.path.read_bytes()
    with pytest.raises(EvidenceError) as refused:
        editing.copy.save(1, "docs/a.pdf")
    assert str(refused.value) == (
        "docs/a.pdf changed on disk since it was opened: nothing saved (the draft is kept)"
    )
    assert editing.path.read_bytes() == changed and editing.copy.unsaved


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler-utils is not installed")
def test_the_saved_file_reads_in_poppler_and_pypdf(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), tmp_path / "drafts")
    text_before = subprocess.run(
        ["pdftotext", str(editing.path), "-"], capture_output=True, check=True
    ).stdout
    name = highlight(editing, "epsilon zeta")
    editing.copy.save(1)
    info = subprocess.run(
        ["pdfinfo", str(editing.path)], capture_output=True, check=True, text=True
    )
    assert re.search(r"^Pages: +2$", info.stdout, re.MULTILINE)
    assert (
        subprocess.run(
            ["pdftotext", str(editing.path), "-"], capture_output=True, check=True
        ).stdout
        == text_before
    )
    reader = pypdf.PdfReader(editing.path)
    annotations = [a.get_object() for a in reader.pages[0]["/Annots"]]
    (made,) = [a for a in annotations if a.get("/NM") == name]
    assert made["/Subtype"] == "/Highlight" and made["/T"] == "siftui agent"
    assert "/AP" in made and len(made["/QuadPoints"]) == 8
    # poppler draws it: the highlighted words' pixels turn yellow
    png = tmp_path / "page"
    subprocess.run(
        ["pdftoppm", "-r", "72", "-f", "1", "-l", "1", "-png", str(editing.path), str(png)],
        check=True,
    )
    (image,) = tmp_path.glob("page*.png")
    pixmap = pymupdf.Pixmap(str(image))
    left, top, right = made["/QuadPoints"][0], made["/QuadPoints"][1], made["/QuadPoints"][2]
    bottom = made["/QuadPoints"][5]
    yellow = total = 0
    for x in range(int(left) + 1, int(right) - 1):
        for y in range(int(792 - top) + 1, int(792 - bottom) - 1):
            red, green, blue = pixmap.pixel(x, y)[:3]
            total += 1
            yellow += red > 200 and green > 200 and blue < 100
    assert yellow > total / 2  # the words' own glyphs are the rest


def test_after_a_save_the_next_changes_are_against_the_saved_file(tmp_path: Path) -> None:
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), tmp_path / "drafts")
    first = highlight(editing, "beta")
    editing.copy.save(1)
    second = highlight(editing, "zeta", page=2)
    assert editing.copy.revision == 3
    assert [(c.kind, c.annotation_id) for c in editing.copy.changes().changes] == [
        ("added", second)
    ]
    assert [a.annotation_id for a in editing.copy.file_annotations()] == [first]
    editing.copy.undo()
    assert [a.annotation_id for a in editing.copy.annotations()] == [first]
    editing.copy.redo()
    editing.copy.save(5)
    with pymupdf.open(editing.path) as document:
        names = [a.info["id"] for page in document.pages() for a in page.annots()]
    assert names == [first, second]


def test_a_touched_but_unchanged_file_is_saved_over(tmp_path: Path) -> None:
    path = make_lines_pdf(tmp_path / "a.pdf")
    data = path.read_bytes()
    copies = WorkingCopies(DraftStore(tmp_path / "drafts"))
    copy = copies.open(str(path), data, seen=fingerprint(os.stat(path))).copy
    editing = open_editing(path, tmp_path / "other-drafts")
    editing.copy = copy
    highlight(editing, "beta")
    os.utime(path, ns=(1, 1))  # another fingerprint, the same bytes: hashed, saved
    assert copy.save(1).revision == 2


def test_a_copy_replaced_by_new_bytes_writes_no_draft_over_the_new_one(tmp_path: Path) -> None:
    drafts = tmp_path / "drafts"
    editing = open_editing(make_lines_pdf(tmp_path / "a.pdf"), drafts)
    old = editing.copy
    highlight(editing, "beta")
    make_lines_pdf(editing.path, pages=1)  # changed on disk while the copy is held
    opened = editing.copies.open(str(editing.path), editing.path.read_bytes())
    assert opened.copy is not old and opened.note is not None and opened.note.kind == "aside"
    highlight(editing, "gamma")  # the old copy still takes writes (its session is stale)...
    assert not (drafts / DraftStore(drafts).where(str(editing.path)).name).exists()
    editing.copies.release(str(editing.path))
    editing.copies.release(str(editing.path))
    assert editing.copies.paths() == []
