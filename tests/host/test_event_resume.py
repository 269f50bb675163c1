"""A tournament resumed after the host stopped between journaling a round and learning its
tables' journals (host.event): the tables that came back go on under their ids, the ones that
are gone are seated again; the event then plays to its end. Real host, real files."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from host.event import CURRENT, EVENTS_DIR, Director
from host.journal import Journal, read_records
from host.server import Host

pytestmark = pytest.mark.timeout(120)


def event(tmp_path: Path, lines: list[str], bot_delay: float) -> tuple[Host, Director]:
    host = Host("Resume", tmp_path / "cfg", tmp_path / "data", open=True,
                bot_delay=bot_delay, games=["hranice"], log=lines.append)
    director = Director(host, game="hranice", fmt="swiss", size=4, rounds=2, bots=8,
                        options={"variant": "tutorial"}, start_when=8, pause=0.0,
                        log=lines.append)
    return host, director


def drop_last_record(path: Path, kind: str) -> None:
    """The journal as it was before its last record (which must be ``kind``) was written."""
    records, _ = read_records(path)
    assert records[-1]["kind"] == kind
    path.unlink()
    journal = Journal.create(path, {k: v for k, v in records[0].items() if k != "kind"})
    for rec in records[1:-1]:
        journal.append(rec)
    journal.close()


async def until(check: Any, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.parametrize("tables_kept", [True, False], ids=["tables-back", "tables-gone"])
async def test_a_round_journaled_without_its_tables_journals_resumes(tmp_path,
                                                                     tables_kept) -> None:
    lines: list[str] = []
    host, director = event(tmp_path, lines, bot_delay=30.0)  # nobody moves before the stop
    director.load()
    await host.start("127.0.0.1", 0)
    director.begin()
    await until(lambda: director.status == "playing", 10, "round 1")
    first_ids = [tid for tid, _ in director.rounds.current]  # checked below
    director.close()
    await host.stop()
    drop_last_record(tmp_path / "data" / EVENTS_DIR / CURRENT, "journals")
    if not tables_kept:
        shutil.rmtree(tmp_path / "data" / "journals")

    lines.clear()
    host, director = event(tmp_path, lines, bot_delay=0.0)
    director.load()
    await host.start("127.0.0.1", 0)
    director.begin()
    try:
        await until(lambda: director.status == "over", 90, "the end of the event")
    finally:
        director.close()
        await host.stop()
    text = "\n".join(lines)
    if tables_kept:
        assert all(f"round 1 table {i} goes on as table {tid}" in text
                   for i, tid in enumerate(first_ids, 1))
    else:
        assert text.count("round 1 table ") >= 2 and "seated again as table" in text
    data = director.results_data()
    assert [(g["round"], g["failed"]) for g in sorted(data["games"], key=lambda g: (
        g["round"], g["table"]))] == [(1, False), (1, False), (2, False), (2, False)]
    assert all(r["games"] == 2 for r in data["standings"])
