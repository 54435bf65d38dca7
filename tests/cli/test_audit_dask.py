"""`siftui audit --dask`: a local Dask cluster gives the process pool's lines, keeps the
pool's bounds, stops and resumes as the pool does; distributed is imported only then."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.audit_store import long_pages, make_store, untimed
from support.cli_support import siftui
from support.pdfs import USER_PASSWORD, make_pdf

from siftui.sources.audit.document import AuditOptions
from siftui.sources.audit.pool import Pool
from siftui.sources.audit.store import read_records

CORPUS_PASSWORD = "openpassword"  # libreoffice-writer-password.pdf's (MANIFEST.tsv)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    # Imported here: only the slow tests start a cluster, and everyday collection
    # need not import distributed (~0.5 s on an idle machine).
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        yield str(cluster.scheduler_address)


def _run(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    done = siftui("audit", *args)
    assert done.returncode == 0, done.stderr.decode()
    return done


@pytest.mark.slow  # a Dask cluster: run by `pytest -m slow` (CI runs it)
def test_the_cluster_gives_the_pools_lines(scheduler: str, tmp_path: Path) -> None:
    store = make_store(tmp_path / "store")
    pool, dask = tmp_path / "pool.jsonl", tmp_path / "dask.jsonl"
    # with the corpus's password its encrypted file opens and locked.pdf's is wrong
    corpus = (store / "libreoffice-writer-password.pdf").exists()
    common = ("--hidden", "--no-cache", "--password", CORPUS_PASSWORD if corpus else USER_PASSWORD)
    _run(store, "--out", pool, "--jobs", "2", *common)
    done = _run(store, "--out", dask, "--dask", scheduler, *common)
    pooled = untimed(pool)
    assert untimed(dask) == pooled
    assert len(dask.read_bytes().splitlines()) == len(pooled) >= 8
    assert any(r.get("password_worked") for r in pooled)
    assert any(r.get("error") for r in pooled) and any(not r.get("error") for r in pooled)
    assert b"Totals" in done.stdout


@pytest.mark.slow  # a Dask cluster: run by `pytest -m slow` (CI runs it)
def test_a_document_on_the_cluster_keeps_the_memory_bound(scheduler: str, tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", long_pages(5))
    dask = tmp_path / "dask.jsonl"  # 1 MiB of address space: nothing fits
    _run(tmp_path / "a.pdf", "--out", dask, "--memory", "1", "--no-cache", "--dask", scheduler)
    (record,) = read_records(str(dask))
    assert record["error"]
    _run(tmp_path / "a.pdf", "--out", tmp_path / "fine.jsonl", "--dask", scheduler)
    (fine,) = read_records(str(tmp_path / "fine.jsonl"))
    assert "error" not in fine and fine["pages"] == 5  # the worker after it is a fresh one


@pytest.mark.slow  # a Dask cluster: run by `pytest -m slow` (CI runs it)
def test_the_workers_a_dask_task_starts_keep_the_time_bound(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["text"])
    slow = Pool(AuditOptions(1000), jobs=1, seconds=0.001, fork=False)
    (record,) = slow.run([str(tmp_path / "a.pdf")])
    assert record["error_kind"] == "TimedOut" and record["sha256"]
    kept = Pool(AuditOptions(1000), jobs=1, fork=False)
    first = list(kept.feed([str(tmp_path / "a.pdf")]))
    second = list(kept.feed([str(tmp_path / "a.pdf")]))
    (worker,) = kept._slots
    worker.process.kill()  # dead between two tasks: the next document is not blamed
    while worker.process.is_alive():
        time.sleep(0.01)
    third = list(kept.feed([str(tmp_path / "a.pdf")]))
    kept.close()
    assert first[0]["pages"] == second[0]["pages"] == third[0]["pages"] == 1
    assert "error" not in first[0] and "error" not in third[0]


@pytest.mark.slow  # over a minute on 2 cores at load 11, with the cluster started
def test_ctrl_c_stops_the_client_cleanly_and_a_rerun_finishes(
    scheduler: str, tmp_path: Path
) -> None:
    root = tmp_path / "many"
    root.mkdir()
    for n in range(16):
        make_pdf(root / f"d{n:02}.pdf", long_pages(20))
    out = tmp_path / "audit.jsonl"
    command = [sys.executable, "-m", "siftui", "audit", str(root), "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--dask", scheduler, "--hidden", "--no-cache"], stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or not out.read_bytes()):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    assert b"Traceback" not in stderr
    first = read_records(str(out))
    assert out.read_bytes().endswith(b"\n") and 1 <= len(first) < 16
    assert len(out.read_bytes().splitlines()) == len(first)  # whole lines only
    _run(root, "--out", out, "--dask", scheduler, "--no-cache")
    assert sorted(r["path"] for r in read_records(str(out))) == sorted(
        str(path) for path in root.iterdir()
    )


@pytest.mark.slow  # imports distributed and runs its event loop
def test_ctrl_c_inside_distributed_sync_is_raised_as_our_own(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What a Ctrl-C in a Dask audit meets, made certain: distributed's sync() waiting on a
    call its event loop has not begun (the loop busy). A KeyboardInterrupt there schedules
    a cancel that runs before the coroutine has made the future it cancels, and tornado
    logs the NameError with its traceback (the test above saw it on one run in many);
    audit's own interruption goes through sync() untouched and nothing is logged."""
    import asyncio
    import logging
    import threading

    from distributed.utils import LoopRunner, sync

    from siftui.sources.interrupts import Interrupted, interrupted_as_our_own

    before = signal.getsignal(signal.SIGINT)
    runner = LoopRunner(asynchronous=False)
    runner.start()
    busy = threading.Event()

    async def forever() -> None:
        await asyncio.sleep(60)

    def hold_the_loop() -> None:
        busy.set()
        time.sleep(1.0)

    def interrupt() -> None:
        busy.wait()
        time.sleep(0.1)  # sync() is waiting by now
        os.kill(os.getpid(), signal.SIGINT)

    try:
        with caplog.at_level(logging.ERROR, logger="tornado.application"):
            runner.loop.add_callback(hold_the_loop)
            timer = threading.Thread(target=interrupt)
            with interrupted_as_our_own():
                timer.start()
                with pytest.raises(Interrupted):
                    sync(runner.loop, forever)
                timer.join()
            time.sleep(1.5)  # the loop runs what was scheduled
    finally:
        runner.stop()
    assert "NameError" not in caplog.text and "Traceback" not in caplog.text
    assert signal.getsignal(signal.SIGINT) is before  # restored


def _audit_helpers() -> list[int]:
    """The pool's worker processes (siftui.sources.audit.pool's helpers) among this
    process's descendants: those the local cluster's Dask workers started."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, below = [], {os.getpid()}
    while below:
        below = {pid for pid, parent in parents.items() if parent in below}
        for pid in below:
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"helper_main" in command:
                found.append(pid)
    return sorted(found)


@pytest.mark.slow  # a Dask cluster and four long documents
@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="counts processes in /proc")
def test_ctrl_c_ends_the_helpers_of_the_running_tasks(scheduler: str, tmp_path: Path) -> None:
    """Ctrl-C on the client cancels the tasks and ends every helper they started on the
    workers: those auditing a document then, and those kept for the next one."""
    root = tmp_path / "long"
    root.mkdir()
    for n in range(4):
        make_pdf(root / f"d{n}.pdf", long_pages(300))
    command = [sys.executable, "-m", "siftui", "audit", str(root), "--hidden", "--no-cache"]
    process = subprocess.Popen(
        [*command, "--out", str(tmp_path / "audit.jsonl"), "--dask", scheduler],
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not _audit_helpers() and process.poll() is None:
        time.sleep(0.05)
    assert _audit_helpers(), "no task started a helper"
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    deadline = time.monotonic() + 60  # a bound on the wait, far beyond what it takes
    while time.monotonic() < deadline and _audit_helpers():
        time.sleep(0.1)
    assert _audit_helpers() == []


@pytest.mark.slow  # a Dask cluster: run by `pytest -m slow` (CI runs it)
def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", ["text"])
    environment = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    out = tmp_path / "audit.jsonl"
    for address in ("tcp://127.0.0.1:9", "not an address", "tcp://no-such-host.invalid:8786"):
        done = siftui("audit", tmp_path, "--out", out, "--dask", address, env=environment)
        assert done.returncode == 1
        (line,) = done.stderr.decode().splitlines()
        assert line.startswith(f"siftui: error: cannot reach the Dask scheduler at {address} (")
        assert not out.exists()


def _in_process(tmp_path: Path, before: str, *args: str) -> subprocess.CompletedProcess[str]:
    make_pdf(tmp_path / "a.pdf", ["text"])
    code = (
        f"import sys; {before}; from siftui.cli import main; "
        f"code = main(['audit', {str(tmp_path / 'a.pdf')!r}, *{list(args)!r}]); "
        "print('dask' in sys.modules, 'distributed' in sys.modules, code)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def test_distributed_is_imported_only_with_dask(tmp_path: Path) -> None:
    done = _in_process(tmp_path, "pass", "--out", str(tmp_path / "audit.jsonl"), "--jobs", "1")
    assert done.stdout.splitlines()[-1] == "False False 0", done.stderr


def test_without_distributed_dask_is_one_line(tmp_path: Path) -> None:
    hide = "sys.modules['distributed'] = None"  # what an installation without it imports
    done = _in_process(tmp_path, hide, "--dask", "tcp://127.0.0.1:8786")
    assert done.stdout.splitlines()[-1].endswith(" 1")
    assert done.stderr == (
        "siftui: error: --dask needs Dask's distributed scheduler, which is not installed: "
        "pip install 'siftui[dask]'\n"
    )
