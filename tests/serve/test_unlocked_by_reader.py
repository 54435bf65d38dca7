# mypy: disallow-untyped-calls=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml)
"""An encrypted PDF the person unlocked in the reader, read and edited by an agent.

A real host over Streamable HTTP with the official MCP client; the person's side is
the reader's own backend (siftui.tui.reader.copies), whose open with the right
password tells the host. Before that, and once the bytes change, the file is refused
as `siftui mcp` refuses it; the password is never written anywhere.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pymupdf
import pypdf
import pytest
from support.edit_host import ApprovingReader
from support.http_host import client, result_lines, serving
from support.pdfs import make_pdf

from siftui.serve.edit.state import EditHost
from siftui.serve.limits import WorkerJob
from siftui.sources.cache import DocCache, cache_key
from siftui.sources.edit.drafts import DraftStore
from siftui.sources.hidden.cache import hidden_key
from siftui.sources.unlocked import Unlock
from siftui.tui.reader.copies import CopiesBackend
from siftui.tui.reader.model import OpenRefused

PASSWORD = "tangerine-Quokka-7731"
PAGES = ["The quarterly figures were audited twice", "Nothing was found missing"]
LOCKED = (
    "the file is encrypted and needs a password, which an agent cannot give; the "
    "server's operator can supply it (siftui extract FILE --password ... -o FILE.json "
    "under a root gives a Doc JSON this tool reads)"
)
TOOLS = {"read", "evidence", "edit"}


def encrypted(path: Path, pages: list[str]) -> Path:
    document = pymupdf.open()
    for text in pages:
        document.new_page().insert_text((72, 72), text, fontname="helv")
    document.save(path, encryption=pymupdf.mupdf.PDF_ENCRYPT_AES_256, user_pw=PASSWORD)
    document.close()
    return path


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A disk cache of this test's own (the workers inherit it)."""
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    yield folder


def every_file(*folders: Path) -> Iterator[Path]:
    for folder in folders:
        yield from (path for path in folder.rglob("*") if path.is_file())


Calls = list[tuple[str, dict[str, Any]]]


def session_lines(host: Any, calls: Calls) -> list[str]:
    """Each call's first line as the client received it (JSON or "error: ...")."""
    answers: list[str] = []

    async def agent() -> None:
        async with client(host) as session:
            for tool, arguments in calls:
                answers.append(result_lines(await session.call_tool(tool, arguments))[-1])

    anyio.run(agent)
    return answers


def test_the_agent_reads_and_saves_what_the_person_unlocked(tmp_path: Path, cache: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    locked = encrypted(root / "locked.pdf", PAGES)
    plain = make_pdf(root / "plain.pdf", ["Open to all"])
    versions = [sha256_of(locked)]
    log = tmp_path / "calls.jsonl"
    edit = EditHost(drafts=DraftStore(tmp_path / "drafts"))
    with serving(root, TOOLS, log=log, edit=edit) as host:
        edit.attach(ApprovingReader())
        person = CopiesBackend(edit.copies, unlocked=host.host.store.unlocked)
        before = session_lines(
            host,
            [
                ("pdf_open", {"path": "locked.pdf"}),
                ("read_pdf", {"path": "locked.pdf"}),
                ("pdf_info", {"path": "locked.pdf"}),
                ("read_pdf", {"path": "plain.pdf"}),
            ],
        )
        assert "Open to all" in before[3]
        assert before[:2] == [f"error: {locked}: {LOCKED}"] * 2
        assert json.loads(before[2])["needsPassword"] is True

        # A wrong password in the reader gives the host nothing.
        with pytest.raises(OpenRefused, match="wrong password"):
            person.open(locked, "not-it")
        assert session_lines(host, [("pdf_open", {"path": "locked.pdf"})]) == before[:1]

        tab = person.open(locked, PASSWORD)  # the reader's password prompt succeeded
        tab.release()  # the tab closed: the file stays unlocked while the reader runs
        target = {"kind": "reference", "refId": "ref-2"}  # the search's hit
        create = {"documentId": "doc-1", "expectedRevision": 0, "subtype": "Highlight"}
        after = session_lines(
            host,
            [
                ("pdf_info", {"path": "locked.pdf"}),
                ("pdf_open", {"path": "locked.pdf"}),
                ("pdf_page_read", {"documentId": "doc-1", "page": 2}),
                ("read_pdf", {"path": "locked.pdf", "pages": "1"}),
                ("pdf_page_render", {"documentId": "doc-1", "page": 1, "dpi": 72}),
                ("pdf_keyword_search", {"documentId": "doc-1", "query": "audited twice"}),
                ("pdf_annotation_create", {**create, "target": target}),
                ("pdf_save", {"documentId": "doc-1", "expectedRevision": 1}),
                ("pdf_page_read", {"documentId": "doc-1", "page": 1}),
                ("pdf_open", {"path": "locked.pdf"}),
            ],
        )
        info, opened, page_two, text, drawn, found, made, saved, page_one, again = after
        info_keys = json.loads(info)
        assert info_keys["encrypted"] is True and info_keys["pages"] == 2
        assert "needsPassword" not in info_keys
        assert json.loads(opened)["pages"] == 2
        assert json.loads(page_two)["pages"][0]["text"] == PAGES[1] + "\n"
        assert PAGES[0] in text
        assert json.loads(drawn)["page"] == 1
        assert json.loads(found)["hits"][0]["refId"] == "ref-2"
        assert json.loads(made)["annotations"][0]["page"] == 1
        assert json.loads(saved)["saved"] is True
        assert json.loads(page_one)["pages"][0]["text"] == PAGES[0] + "\n"
        assert json.loads(again)["reopened"] is True  # the saved bytes stay unlocked

        versions.append(sha256_of(locked))
        # The saved file is still encrypted with the same password, and holds the highlight.
        with pymupdf.open(locked) as document:
            assert document.needs_pass
            assert document.authenticate(PASSWORD)
            page = document[0]
            [annotation] = list(page.annots())
            assert annotation.type[1] == "Highlight"
            assert "audited twice" in page.get_textbox(annotation.rect)
        reader = pypdf.PdfReader(locked)
        assert reader.is_encrypted
        assert reader.decrypt(PASSWORD)
        assert "audited twice" in reader.pages[0].extract_text()
        refused = subprocess.run(["pdfinfo", str(locked)], capture_output=True, text=True)
        assert refused.returncode != 0
        shown = subprocess.run(
            ["pdfinfo", "-upw", PASSWORD, str(locked)], capture_output=True, text=True
        )
        assert shown.returncode == 0 and re.search(r"^Encrypted:\s+yes", shown.stdout, re.M)

        # Other bytes at the same path are locked again, even with the same password.
        encrypted(locked, ["Another text altogether"])
        changed = session_lines(
            host, [("pdf_open", {"path": "locked.pdf"}), ("read_pdf", {"path": "locked.pdf"})]
        )
        assert changed == before[:2]
    for path in every_file(tmp_path):
        assert PASSWORD.encode() not in path.read_bytes(), path
    # What was read with the password never went to the disk cache; the plain file's did.
    store = DocCache(cache / "siftui")
    assert store.entry(cache_key(sha256_of(plain), None, None, name=str(plain))).is_file()
    for sha256 in versions:
        assert not store.entry(cache_key(sha256, None, None, name=str(locked))).exists()
        assert not (store.directory / f"{hidden_key(sha256, None)}.hidden").exists()
    # Its pages were inspected for hidden text with the password too.
    entries = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    inspected = [e["hidden"] for e in entries if "findings_of" in e and e["path"] == str(locked)]
    assert inspected and all("findings" in hidden for hidden in inspected)


def test_no_value_shows_the_password() -> None:
    unlock = Unlock("ab" * 32, PASSWORD)
    job = WorkerJob("locked.pdf", "pdf", 1, 1, 1.0, unlock=unlock)
    assert PASSWORD not in repr(unlock) and PASSWORD not in repr(job)
    assert (unlock.password_for("ab" * 32), unlock.password_for("cd" * 32)) == (PASSWORD, None)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
