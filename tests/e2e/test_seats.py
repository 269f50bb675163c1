"""Seats over the network: resuming with the identity key, being kicked, host-side bots."""

from __future__ import annotations

import asyncio

import pytest

from client.session import ConnectionLost, Session
from tests.waiting import eventually

pytestmark = pytest.mark.timeout(60)


async def connect(host, cfg, name: str, code: str | None = "") -> Session:
    return await Session.connect("127.0.0.1", host.port, name=name, config_dir=cfg,
                                 code=host.room_code if code == "" else code, accept_new=True)


async def until(session: Session, pred, seconds: float = 5.0) -> dict:
    async def go() -> dict:
        async for msg in session.messages():
            if pred(msg):
                return msg
        raise AssertionError("closed")
    return await asyncio.wait_for(go(), seconds)


async def test_a_player_resumes_its_seat_by_identity_without_the_code(host, dirs) -> None:
    a = await connect(host, dirs["client"], "ada")
    await a.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
    await until(a, lambda m: m["type"] == "lobby" and m["you"]["table"] is not None)
    tid = a.you["table"]
    await a.send({"type": "add_bot", "table": tid, "seat": 1, "policy": "random"})
    await a.send({"type": "start", "table": tid})
    first = await until(a, lambda m: m["type"] == "view")
    await a.aclose()
    await eventually(lambda: not host.connections, "the host saw ada go")
    assert host.lobby.tables[tid].seats[0].kind == "human"
    back = await connect(host, dirs["client"], "ada", code=None)  # same identity file
    view = await until(back, lambda m: m["type"] == "view")
    assert view["table"] == tid and view["view"]["seat"] == 0
    state = host.lobby.state_of(tid)
    assert view["view"]["state_id"] == host.lobby.tables[tid].state_id >= first["view"][
        "state_id"]  # (the table's publications, issue 22)
    assert view["view"]["hand"] == state["hands"][0]
    assert back.you == {"name": "ada", "table": tid, "seat": 0, "open": False}
    await back.aclose()


async def test_a_kicked_player_is_told_and_disconnected_others_stay(host, dirs) -> None:
    a = await connect(host, dirs["client"], "ada")
    b = await connect(host, dirs["client2"], "bob")
    await a.send({"type": "create", "game": "toy", "seats": 3, "options": {}})
    await until(a, lambda m: m["type"] == "lobby" and m["you"]["table"] is not None)
    tid = a.you["table"]
    await b.send({"type": "sit", "table": tid, "seat": 2})
    await until(b, lambda m: m["type"] == "lobby" and m["you"]["seat"] == 2)
    host.lobby.kick(tid, 2)
    err = await until(b, lambda m: m["type"] == "error")
    assert err["code"] == "kicked"
    with pytest.raises(ConnectionLost):
        await until(b, lambda m: False)
    lobby = await until(a, lambda m: m["type"] == "lobby"
                        and m["tables"][0]["seats"][2]["kind"] == "empty")
    assert lobby["tables"][0]["seats"][0]["connected"] is True
    await a.aclose()


async def test_the_engines_deadline_is_timed_by_the_host(host, dirs) -> None:
    a = await connect(host, dirs["client"], "ada")
    await a.send({"type": "create", "game": "toy", "seats": 2,
                  "options": {"turn_seconds": 0.3}})
    await until(a, lambda m: m["type"] == "lobby" and m["you"]["table"] is not None)
    tid = a.you["table"]
    await a.send({"type": "add_bot", "table": tid, "seat": 1, "policy": "random"})
    await a.send({"type": "start", "table": tid})
    first = await until(a, lambda m: m["type"] == "view")
    assert first["view"]["deadline"]["key"] == "turn0" and first["legal"]
    # ada never acts: after 0.3 s the host applies the timeout (ada passes), the bot moves on
    later = await until(a, lambda m: m["type"] == "view" and "passes" in str(m["view"]["log"]),
                        seconds=5)
    assert "answered" not in later
    assert host.lobby.tables[tid].history[0] == (None, {"type": "timeout", "key": "turn0"})
    await a.aclose()
