"""A table's watching rules survive a host restart (host/watchers.py, host/recovery.py): a table
still seating keeps them in the seating file, a playing table in its journal (``watch``
records: at the start when not the defaults, and at every switch). Real TLS on 127.0.0.1, real
files; the first host is crashed without goodbye."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest

from client.session import Session
from host.journal import read_journal
from host.watchers import WatchRules
from tests.e2e.crash import crash, journals, make_host

pytestmark = pytest.mark.timeout(60)


async def until(check, what: str, seconds: float = 10.0) -> None:
    """Poll ``check`` until it is true (bounded in time and count)."""
    deadline = time.monotonic() + seconds
    for _ in range(100_000):
        if check():
            return
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def seating_watch(data: Path) -> list[Any]:
    """The watching rules each table of the seating file keeps ([] if none yet)."""
    try:
        return [t.get("watch") for t in msgpack.unpackb(
            (data / "journals" / "seating").read_bytes())]
    except (OSError, ValueError):
        return []


async def connect(host: Any, name: str, cfg: Path) -> Session:
    return await Session.connect("127.0.0.1", host.port, name=name, code=host.room_code,
                                 config_dir=str(cfg), accept_new=True)


async def refused_watching(session: Session, tid: int) -> str:
    """Ask to watch ``tid``; the code of the refusal (or "" if it was let in)."""
    await session.send({"type": "watch", "table": tid})
    for _ in range(100):
        msg = await session.next_message(0.1)
        if msg is not None and msg["type"] == "error":
            return str(msg["code"])
        if session.you.get("watching") == tid:
            return ""
    raise AssertionError("neither a refusal nor watching")


async def test_a_seating_tables_forbidden_watching_and_delay_survive_a_restart(dirs) -> None:
    first = make_host(dirs)
    port = await first.start("127.0.0.1", 0)
    ada = await connect(first, "ada", dirs["client"])
    await ada.send({"type": "create", "game": "toy", "seats": 2,
                    "options": {"watch": False, "watch_delay": 4}})
    while ada.you.get("table") is None:
        await ada.next_message(5)
    tid = int(ada.you["table"])
    await until(lambda: seating_watch(dirs["host_data"]) == [{"allowed": False, "delay": 4}],
                "the seating file with the rules")
    crash(first)
    ada.close()
    second = make_host(dirs)
    await second.start("127.0.0.1", port)
    bea = await connect(second, "bea", dirs["client2"])
    try:
        assert second.lobby.rules_of(tid) == WatchRules(allowed=False, delay=4)
        await until(lambda: bea.lobby is not None, "the lobby")
        entry = next(t for t in bea.lobby["tables"] if t["id"] == tid)
        assert (entry["watch"], entry["watch_delay"]) == (False, 4)
        assert await refused_watching(bea, tid) == "no_watching"
    finally:
        await bea.aclose()
        await second.stop()


async def test_a_playing_tables_delay_and_switch_survive_a_restart_in_its_journal(dirs) -> None:
    first = make_host(dirs, bot_delay=30.0)  # the bot holds the game still
    port = await first.start("127.0.0.1", 0)
    ada = await connect(first, "ada", dirs["client"])
    await ada.send({"type": "create", "game": "toy", "seats": 2,
                    "options": {"watch_delay": 3}})
    while ada.you.get("table") is None:
        await ada.next_message(5)
    tid = int(ada.you["table"])
    await ada.send({"type": "add_bot", "table": tid, "seat": 1, "policy": "random"})
    await ada.send({"type": "start", "table": tid})
    await until(lambda: first.lobby.tables[tid].status == "playing", "the start")
    await ada.send({"type": "watch_rules", "table": tid, "allowed": False})  # the creator
    await until(lambda: not first.lobby.rules_of(tid).allowed, "watching forbidden")
    await until(lambda: read_journal(journals(dirs["host_data"])[0]).watch is not None
                and read_journal(journals(dirs["host_data"])[0]).watch["allowed"] is False,
                "the switch journaled")
    crash(first)
    ada.close()
    second = make_host(dirs, bot_delay=30.0)
    await second.start("127.0.0.1", port)
    bea = await connect(second, "bea", dirs["client2"])
    try:
        assert second.lobby.tables[tid].status == "playing"
        assert second.lobby.rules_of(tid) == WatchRules(allowed=False, delay=3)
        await until(lambda: bea.lobby is not None, "the lobby")
        assert await refused_watching(bea, tid) == "no_watching"
        second.lobby.set_watch_rules(tid, True)  # the host allows it again: journaled too
        assert await refused_watching(bea, tid) == ""
        assert second.lobby.rules_of(tid) == WatchRules(allowed=True, delay=3)
    finally:
        await bea.aclose()
        await second.stop()
    records = [r for r in _records(journals(dirs["host_data"])[0]) if r["kind"] == "watch"]
    assert [(r["allowed"], r["delay"]) for r in records] == [(True, 3), (False, 3), (True, 3)]


def _records(path: Path) -> list[dict[str, Any]]:
    from host.journal import read_records

    return read_records(path)[0]
