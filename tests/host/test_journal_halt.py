"""No play without a journal, when the writer thread's fsync is what fails: the table is halted
on the loop's thread, its players are told, its journal gets nothing more. (A failed write is
tested on a real host process in tests/e2e/test_recovery_branches.py.)"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from host.journal import Journal
from host.lobby import Lobby
from host.recovery import Recorder
from tests.host.test_lobby import Recorder as Effects
from tests.host.test_lobby import ident, seated_table
from tests.waiting import eventually


async def test_a_failed_fsync_halts_the_table_and_tells_its_players(tmp_path: Path) -> None:
    effects = Effects()
    logs: list[str] = []
    recorder: Recorder | None = None

    def shell(batch: list[Any]) -> None:  # what the host's shell does: journal first
        assert recorder is not None
        recorder.record(batch)
        effects(batch)

    lb = Lobby(shell, seed_source=lambda: 7)
    recorder = Recorder(tmp_path, logs.append, halt=lb.halt)
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    tid = seated_table(lb, effects)
    [on_disk] = (tmp_path / "journals").glob("*.journal")
    # from here the table's records go to a FIFO: written fine, but fsync(2) of a FIFO fails
    # (EINVAL) — a real failure of the real call, in the writer thread
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    recorder.journals[tid] = Journal(fifo, open(fifo, "wb"))  # noqa: SIM115 - closed by it
    try:
        effects.take()
        lb.handle(1, {"type": "act", "table": tid, "state_id": lb.tables[tid].state_id,
                      "action": {"type": "pass"}})
        await eventually(lambda: lb.tables[tid].status == "halted", "the table halted")
        for conn in (1, 2, 3):
            assert [m["code"] for m in effects.sent(conn, "error")] == ["journal_failed"]
        assert any(f"table {tid}: JOURNAL WRITE FAILED: fsync" in line for line in logs), logs
        assert tid in recorder.lost and tid not in recorder.journals
        size = on_disk.stat().st_size
        effects.take()
        lb.handle(2, {"type": "act", "table": tid, "state_id": lb.tables[tid].state_id,
                      "action": {"type": "pass"}})
        assert effects.sent(2) == [{"type": "rejected", "table": tid, "code": "not_playing",
                                    "message": f"Table {tid} is not playing."}]
        assert effects.sent(1) == [] and effects.sent(3) == []
        assert on_disk.stat().st_size == size
    finally:
        recorder.close()
        os.close(reader)
