"""One budget per player for everything that makes frames for the others (issue 23, finding 2),
over real TLS: a seated player flooding one kind of request at the message rate for one and a
half seconds — with a watcher at the table — makes the other seat receive at most
:func:`host.budget.bound` frames (on 930923a: 300–400 frames, 0.4–1.1 MiB each)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from client.session import Session
from host.budget import bound
from host.journal import read_records
from tests.waiting import answered, eventually

pytestmark = pytest.mark.timeout(90)

FLOOD_SECONDS = 1.5  # (an unbudgeted flood: ~180 frames; the bound: 18)
EVERY = 1 / 120  # messages a second the attacker sends: within the host's message budget


class Counted:
    """The frames and bytes a session's connection receives (counted as its reader reads
    them: each frame is a 4-byte length, then the payload)."""

    def __init__(self, session: Session) -> None:
        self.frames = self.bytes = 0
        reader = session._reader
        real = reader.readexactly

        async def readexactly(n: int) -> bytes:
            data = await real(n)
            self.bytes += len(data)
            self.frames += n == 4  # (a frame's head; a 4-byte payload is no frame of ours)
            return data

        reader.readexactly = readexactly  # type: ignore[method-assign]

    def now(self) -> tuple[int, int]:
        return self.frames, self.bytes


async def connect(host: Any, cfg, name: str) -> Session:
    return await Session.connect("127.0.0.1", host.port, name=name, code=host.room_code,
                                 config_dir=cfg, accept_new=True, heartbeat=3600)


async def drain(session: Session, seconds: float) -> None:
    """Read what comes for ``seconds`` (so the reader counts it)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            await session.next_message(left)
        except TimeoutError:
            return


def flood_of(kind: str, table: int, seat: int, stale: int) -> list[dict[str, Any]]:
    """The two messages a flood of ``kind`` alternates (the same one twice if it does not
    toggle)."""
    return {
        "start": [{"type": "start", "table": table}] * 2,
        "add_bot": [{"type": "add_bot", "table": table, "seat": None,
                     "policy": "heuristic"}] * 2,
        "sit": [{"type": "sit", "table": table, "seat": seat}] * 2,
        "leave_sit": [{"type": "leave"}, {"type": "sit", "table": table, "seat": seat}],
        "watch_sit": [{"type": "watch", "table": table},
                      {"type": "sit", "table": table, "seat": None}],
        "chat": [{"type": "chat", "text": "spam " * 50, "channel": "table"}] * 2,
        "chat_empty": [{"type": "chat", "text": " ", "channel": "table"}] * 2,
        "act": [{"type": "act", "table": table, "state_id": stale,
                 "action": {"type": "pass"}}] * 2,
        "watch_rules": [{"type": "watch_rules", "table": table, "allowed": False},
                        {"type": "watch_rules", "table": table, "allowed": True}],
        "look": [{"type": "look", "on": True}, {"type": "look", "on": False}],
    }[kind]


KINDS = ["start", "add_bot", "sit", "leave_sit", "watch_sit", "chat", "chat_empty", "act",
         "watch_rules", "look"]


async def attacked_table(host: Any, attacker: Session, victim: Session,
                         watcher: Session) -> int:
    """The attacker's table (it is its creator, seat 0): the victim sits, the game starts,
    the attacker plays once — the toy game then waits on the victim alone — and the watcher
    watches. Its id."""
    await attacker.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
    await eventually(lambda: attacker.you.get("table") is not None, "the attacker's table")
    tid = int(attacker.you["table"])
    await victim.send({"type": "sit", "table": tid, "seat": 1})
    await eventually(lambda: victim.you.get("table") == tid, "the victim seated")
    await attacker.send({"type": "start", "table": tid})
    await eventually(lambda: attacker.views.get(tid) is not None, "the game's first view")
    view = attacker.views[tid]
    await attacker.send({"type": "act", "table": tid, "state_id": view["state_id"],
                         "action": {"type": "play", "card": view["hand"][0]}})
    await eventually(lambda: (victim.views.get(tid) or {}).get("state_id", 0)
                     > view["state_id"], "the attacker's move seen by the victim")
    await watcher.send({"type": "watch", "table": tid})
    await drain(victim, 0.5)
    table = host.lobby.tables[tid]
    assert table.waiting_for() == [1] and table.status == "playing"
    return tid


def journal_records(host: Any, tid: int) -> int:
    return len(read_records(host.recorder.path_of(tid))[0])


@pytest.mark.parametrize("kind", KINDS)
async def test_a_flood_of_table_requests_reaches_the_other_seat_only_as_the_budget_allows(
        host, tmp_path, kind: str) -> None:
    attacker = await connect(host, tmp_path / "att", "att")
    victim = await connect(host, tmp_path / "vic", "vic")
    watcher = await connect(host, tmp_path / "wat", "wat")
    try:
        tid = await attacked_table(host, attacker, victim, watcher)
        table = host.lobby.tables[tid]
        counted = Counted(victim)
        records_before = journal_records(host, tid)
        messages = flood_of(kind, tid, 0, table.state_id - 1)
        began = time.monotonic()
        sent = 0

        async def flood() -> None:
            nonlocal sent
            while time.monotonic() - began < FLOOD_SECONDS:
                await attacker.send(messages[sent % 2])
                sent += 1
                await asyncio.sleep(EVERY)

        await asyncio.gather(flood(), drain(victim, FLOOD_SECONDS + 0.5),
                             drain(attacker, FLOOD_SECONDS + 0.5))
        frames, size = counted.now()
        await answered(attacker, "the flood handled")  # (and its journal records written)
        records = journal_records(host, tid) - records_before
        print(f"\n{kind}: {sent} messages in {FLOOD_SECONDS:g} s -> the other seat got "
              f"{frames} frames, {size / 1024:.0f} KiB ({frames / FLOOD_SECONDS:.1f}/s); "
              f"{records} journal records")
        assert sent > 100  # (it did flood)
        assert frames <= bound(FLOOD_SECONDS), (kind, frames, size)
        # presence toggles and switches of who may watch are journaled within the budget only
        assert records <= 2 * bound(FLOOD_SECONDS), (kind, records)
        assert table.status == "playing"
    finally:
        for s in (attacker, victim, watcher):
            await s.aclose()


async def test_a_player_reconnecting_in_a_loop_reaches_the_other_seat_only_as_its_budget_allows(
        host, tmp_path) -> None:
    attacker = await connect(host, tmp_path / "att", "att")
    victim = await connect(host, tmp_path / "vic", "vic")
    watcher = await connect(host, tmp_path / "wat", "wat")
    try:
        tid = await attacked_table(host, attacker, victim, watcher)
        await attacker.aclose()
        await drain(victim, 0.5)
        counted = Counted(victim)
        records_before = journal_records(host, tid)
        began, loops = time.monotonic(), 0

        async def reconnect() -> None:
            nonlocal loops
            while time.monotonic() - began < FLOOD_SECONDS:
                again = await connect(host, tmp_path / "att", "att")
                await again.aclose()
                loops += 1

        await asyncio.gather(reconnect(), drain(victim, FLOOD_SECONDS + 0.5))
        frames, size = counted.now()
        await eventually(lambda: all(c.name != "att" for c in host.lobby.conns.values()),
                         "the attacker's last connection closed")
        await answered(victim, "the close handled")  # (its journal records written)
        records = journal_records(host, tid) - records_before
        print(f"\nreconnect: {loops} reconnects in {FLOOD_SECONDS:g} s -> the other seat got "
              f"{frames} frames, {size / 1024:.0f} KiB; {records} journal records")
        assert loops >= 5
        assert frames <= bound(FLOOD_SECONDS), (frames, size)
        assert records <= 2 * bound(FLOOD_SECONDS)
    finally:
        for s in (attacker, victim, watcher):
            await s.aclose()
