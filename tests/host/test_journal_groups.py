"""The journal in groups (issue 25): a tick's records written with one write per journal, held
until then by the batched host; fsyncs grouped in a window by the writer thread; a new table's
journal fsynced (file and directory) on that thread, never on the caller's."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from host.core import Accepted, TableStarted
from host.journal import Journal, Syncer, read_journal
from host.recovery import Recorder


def started(table: int = 1) -> TableStarted:
    return TableStarted(table, "hexenhammer", ["a", "b", "c"], {}, bytes(32), b"s" * 16,
                        [{"kind": "human", "name": n} for n in "abc"])


def steps(table: int, count: int) -> list[Accepted]:
    return [Accepted(table, 0, {"type": "pass"}, i + 1, [], digest="0" * 16)
            for i in range(count)]


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of the thread of every fsync (the real call still made)."""
    calls: list[str] = []
    real = os.fsync

    def fsync(fd: Any) -> None:
        calls.append(threading.current_thread().name)
        real(fd)
    monkeypatch.setattr(os, "fsync", fsync)
    return calls


def test_a_new_tables_journal_is_fsynced_by_the_writer_thread_not_the_caller(
        tmp_path: Path, fsyncs: list[str]) -> None:
    recorder = Recorder(tmp_path, lambda line: None)
    recorder.record([started()])
    assert threading.current_thread().name not in fsyncs  # nothing on the caller's thread
    recorder.close()  # (syncs what is marked, then ends the thread)
    assert fsyncs.count("journal-fsync") >= 2  # the file and its directory
    assert set(fsyncs) == {"journal-fsync"}
    [path] = (tmp_path / "journals").glob("*.journal")
    assert read_journal(path).header["table"] == 1


def test_a_ticks_records_are_held_and_then_written_with_one_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(tmp_path, lambda line: None)
    recorder.record([started()])
    [path] = (tmp_path / "journals").glob("*.journal")
    writes: list[int] = []
    real = Journal.write

    def write(self: Journal, records: bytes) -> None:
        writes.append(len(records))
        real(self, records)
    monkeypatch.setattr(Journal, "write", write)
    size = path.stat().st_size
    for step in steps(1, 5):  # five acts of one tick, as the batched host records them
        recorder.record([step], hold=True)
    assert path.stat().st_size == size and writes == []  # held: nothing written yet
    recorder.write()  # the tick, before its frames leave
    assert len(writes) == 1 and path.stat().st_size == size + writes[0]
    assert len(read_journal(path).steps) == 5
    recorder.close()


def test_marks_within_one_window_share_one_fsync_round(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "t.journal", {"game": "x"}, sync=False)
    syncer = Syncer(every=30.0)  # a window longer than the test
    syncer.dirty(journal)  # the first round goes at once…
    for _ in range(50):
        journal.write(b"")
        syncer.dirty(journal)  # …what comes within the window waits for the next
        time.sleep(0.002)  # (time for the thread to run, were it not waiting)
    syncer.stop()  # (which syncs what is left at once)
    assert syncer.rounds <= 2
