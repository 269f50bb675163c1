"""Helpers for the crash and recovery tests: a host on real files, a crash without goodbye, a
toy table with host-side bots, a player answering every choice."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from client.session import Session
from host.server import Host


def journals(data: Path) -> list[Path]:
    return sorted((data / "journals").glob("*.journal"))


def make_host(dirs: dict[str, Path], logs: list[str] | None = None, **kw: Any) -> Host:
    """A host on ``dirs`` (bots answer at once unless ``bot_delay`` says otherwise)."""
    kw.setdefault("bot_delay", 0)
    return Host("Crash host", dirs["host_cfg"], dirs["host_data"], games=["toy", "hexenhammer"],
                log=(logs.append if logs is not None else None), **kw)


async def connect_ada(host: Host, dirs: dict[str, Path], **kw: Any) -> Session:
    """Ada, a player with her own identity in ``dirs["client"]``, connected to ``host``."""
    return await Session.connect("127.0.0.1", host.port, name="ada", code=host.room_code,
                                 config_dir=dirs["client"], accept_new=True, **kw)


def crash(host: Host) -> None:
    """Stop a host the hard way: no goodbye to anyone, journals left open as they were."""
    host.timers.stop()  # no timer, delayed call or sweep runs any more
    host.dispatch.drop_seating()  # a write still waiting dies with the process
    host.reception.close()
    for link in list(host.links.live.values()):
        link.writer.transport.abort()
    for task in list(host.reception.handlers):
        task.cancel()


async def start_toy(session: Session, seats: int = 3) -> int:
    """Create a toy table with host-side bots in every other seat and start it; its id.

    The creator sits at seat 0 and plays first. After that one action the game cannot end
    without another of hers (her second turn comes before the last); after two it can, if
    the random bots pass every turn (about 1 game in 256), so a test that needs the game
    unfinished plays one."""
    await session.send({"type": "create", "game": "toy", "seats": seats, "options": {}})
    while session.you.get("table") is None:
        await session.next_message(5)
    tid = int(session.you["table"])
    for seat in range(1, seats):
        await session.send({"type": "add_bot", "table": tid, "seat": seat, "policy": "random"})
    await session.send({"type": "start", "table": tid})
    return tid


async def play(session: Session, tid: int, actions: int | None = None,
               seconds: float = 30) -> dict[str, Any] | None:
    """Answer every choice with its first legal action until the game is over (its outcome)
    or ``actions`` were sent (None)."""
    sent = 0
    acted_at = -1

    async def go() -> dict[str, Any] | None:
        nonlocal sent, acted_at
        while True:
            msg = await session.next_message(1.0)
            if msg is not None and msg["type"] == "rejected":
                acted_at = -1
            view, legal = session.views.get(tid), session.legal.get(tid)
            if view is None:
                continue
            if view.get("outcome") is not None:
                return view["outcome"]
            if actions is not None and sent >= actions:
                return None
            if legal and (view["state_id"] != acted_at or msg is None):
                acted_at = view["state_id"]
                sent += 1
                await session.send({"type": "act", "table": tid, "state_id": view["state_id"],
                                    "action": legal[0]})
    return await asyncio.wait_for(go(), seconds)


async def until_message(session: Session, pred, seconds: float = 20) -> dict[str, Any]:
    """The first message ``pred`` accepts, within ``seconds`` (else the test fails)."""
    async def go() -> dict[str, Any]:
        while True:
            msg = await session.next_message(seconds)
            assert msg is not None, "no message in time"
            if pred(msg):
                return msg
    return await asyncio.wait_for(go(), seconds)


