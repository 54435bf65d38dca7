"""The staleness check cannot be made to stall the server: a size
change is a change without reading; only a file of the size opened is hashed, within
the store's timeout; an equal hash refreshes the fingerprint, so a touched file is
hashed once, not at every later call."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.pdfs import make_pdf

from siftui.serve.access import Roots
from siftui.serve.docstore import DocStore
from siftui.serve.evidence.files import Files, Origin
from siftui.serve.limits import StoreLimits
from siftui.sources.filehash import fingerprint


@pytest.fixture
def store() -> Iterator[DocStore]:
    made = DocStore(StoreLimits(workers=1, timeout=5))
    yield made
    made.shutdown()


class CountingSha256:
    """hashlib.sha256 as the module calls it, counting the hashes begun."""

    def __init__(self) -> None:
        self.begun = 0
        self.sha256 = hashlib.sha256  # the module is hashlib itself: keep the real one

    def __call__(self, *args: Any) -> Any:
        self.begun += 1
        return self.sha256(*args)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> CountingSha256:
    counter = CountingSha256()
    monkeypatch.setattr(hashlib, "sha256", counter)
    return counter


def _source(path: Path) -> Origin:
    with path.open("rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    return Origin(path.name, digest, fingerprint(os.stat(path)))


def test_a_touched_file_is_hashed_once_then_its_fingerprint_is_kept(
    tmp_path: Path, store: DocStore, counted: CountingSha256
) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["alpha"])
    files = Files(Roots([tmp_path]), store)
    source = _source(pdf)
    counted.begun = 0
    os.utime(pdf, ns=(1_000_000_000, 1_000_000_000))
    refreshed = files.unchanged(source)
    assert refreshed is not None and refreshed.seen != source.seen
    assert counted.begun == 1
    for _ in range(5):  # the refreshed fingerprint answers without reading
        assert files.unchanged(refreshed) == refreshed
    assert counted.begun == 1


def test_a_new_size_is_a_change_told_without_hashing(
    tmp_path: Path, store: DocStore, counted: CountingSha256
) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["alpha"])
    files = Files(Roots([tmp_path]), store)
    source = _source(pdf)
    counted.begun = 0
    with open(pdf, "r+b") as handle:  # a sparse 20 GB file in its place
        handle.truncate(20 << 30)
    assert files.unchanged(source) is None
    assert counted.begun == 0


def test_hashing_stops_at_the_stores_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["alpha"])
    store = DocStore(StoreLimits(workers=1, timeout=0.5))
    try:
        files = Files(Roots([tmp_path]), store)
        source = _source(pdf)
        os.utime(pdf, ns=(1_000_000_000, 1_000_000_000))
        clock = iter(range(0, 1000, 10))  # each reading of the clock: 10 s later
        monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
        assert files.unchanged(source) is None  # not proven equal in time: changed
    finally:
        store.shutdown()
