"""Presence over the network (issue 14, item 1; real TLS on 127.0.0.1): a player whose link
drops is shown to the table as reconnecting with the countdown to absent, then disconnected
(one whose client said goodbye: at once), then absent; a bot standing in
is shown as such; the lobby shows it too; every change is a log line; the returning player is
told how many moves were played for them — and only they are. Also the table's chat kept
across a reconnect (item 8), and an answer for a timed window that closed is "too late"
(item 3)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from client.session import Session
from host.core import one_by_one
from host.server import Host

pytestmark = pytest.mark.timeout(60)

GRACE = 1.0  # seconds before a lost seat counts as absent


@pytest.fixture
async def quick_host(dirs):
    """A host (toy game, no bot delay) whose lost seats count as absent after GRACE s."""
    h = Host("Presence", dirs["host_cfg"], dirs["host_data"], bot_delay=0, games=["toy"],
             idle_timeout=30, absent_after=GRACE, open=True)
    await h.start("127.0.0.1", 0)
    try:
        yield h
    finally:
        await h.stop()


async def connect(host: Host, cfg: Any, name: str) -> Session:
    return await Session.connect("127.0.0.1", host.port, name=name, config_dir=cfg,
                                 accept_new=True)


async def until(session: Session, pred, seconds: float = 8.0) -> dict:
    async def go() -> dict:
        async for msg in session.messages():
            if pred(msg):
                return msg
        raise AssertionError("closed")
    return await asyncio.wait_for(go(), seconds)


def keys(view_msg: dict) -> list[tuple[str, Any]]:
    """The presence lines of a view's log: (key, seat)."""
    return [(e["key"], e.get("seat")) for e in view_msg["view"]["log"]
            if str(e.get("key", "")).startswith("presence_")]


def state_of(view_msg: dict, seat: int) -> str:
    return view_msg["view"]["presence"][seat]["state"]


async def two_players(host: Host, dirs: Any) -> tuple[Session, Session, int]:
    """Ada (seat 0) and Bob (seat 1) at a started toy table; Ada moves first."""
    a = await connect(host, dirs["client"], "ada")
    b = await connect(host, dirs["client2"], "bob")
    await a.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
    await until(a, lambda m: m["type"] == "lobby" and m["you"]["table"] is not None)
    tid = a.you["table"]
    await b.send({"type": "sit", "table": tid, "seat": 1})
    await until(b, lambda m: m["type"] == "lobby" and m["you"]["seat"] == 1)
    await a.send({"type": "start", "table": tid})
    first = await until(a, lambda m: m["type"] == "view")
    assert [p["state"] for p in first["view"]["presence"]] == ["connected", "connected"]
    await until(b, lambda m: m["type"] == "view")
    return a, b, tid


async def test_a_lost_player_reads_lost_with_the_countdown_then_absent_then_back(
        quick_host, dirs) -> None:
    a, b, tid = await two_players(quick_host, dirs)
    await b.aclose()  # bob's client dies
    lost = await until(a, lambda m: m["type"] == "view"
                       and state_of(m, 1) == "disconnected")
    assert 0 <= lost["view"]["presence"][1]["absent_in"] <= GRACE
    assert ("presence_disconnected", 1) in keys(lost)
    event = next(e for e in lost["view"]["log"] if e["key"] == "presence_disconnected")
    assert event["count"] == round(GRACE)
    absent = await until(a, lambda m: m["type"] == "view" and state_of(m, 1) == "absent")
    assert ("presence_absent", 1) in keys(absent)
    # ada plays a card: bob must nod; the game nods for him (a move played for him)
    view = absent
    await a.send({"type": "act", "table": tid, "state_id": view["view"]["state_id"],
                  "action": next(x for x in view["legal"] if x["type"] == "play")})
    await until(a, lambda m: m["type"] == "view" and m.get("answered") is not None)
    played = quick_host.lobby.tables[tid].played_for.get(1, 0)
    assert played >= 1  # his nod (and his turn's pass, if it came round)
    back = await connect(quick_host, dirs["client2"], "bob")
    seen = await until(back, lambda m: m["type"] == "view"
                       and ("presence_played", 1) in keys(m))
    told = next(e for e in seen["view"]["log"] if e["key"] == "presence_played")
    assert told["count"] == played and state_of(seen, 1) == "connected"
    ada_sees = await until(a, lambda m: m["type"] == "view"
                           and ("presence_back", 1) in keys(m))
    assert state_of(ada_sees, 1) == "connected"
    # what was played for bob is told to bob only (it came in the same change as his return)
    assert ("presence_played", 1) not in keys(ada_sees)
    host_log = quick_host.lobby.state_of(tid)["log"]
    assert [e["to"] for e in host_log if e["key"] == "presence_played"] == [[1]]
    await a.aclose()
    await back.aclose()


async def test_a_dropped_link_reads_reconnecting_then_disconnected_then_absent_each_logged(
        quick_host, dirs) -> None:
    """No goodbye from bob's client (its link drops): "reconnecting" with the countdown, in the
    frames, the lobby and the log; once a client would have come back (``reconnect_for``) it
    reads "disconnected" with what is left of the countdown; then absent."""
    quick_host.lobby.presence.reconnect_for = 0.3  # < GRACE: the host's timer ends the window
    a, b, tid = await two_players(quick_host, dirs)
    watcher = await connect(quick_host, dirs["host_cfg"].parent / "carol", "carol")
    b._writer.transport.abort()  # the Wi-Fi goes away: no bye
    dropped = await until(a, lambda m: m["type"] == "view" and state_of(m, 1) == "reconnecting")
    assert 0 <= dropped["view"]["presence"][1]["absent_in"] <= GRACE
    event = next(e for e in dropped["view"]["log"] if e["key"] == "presence_reconnecting")
    assert (event["seat"], event["count"]) == (1, round(GRACE))
    entry = await until(watcher, lambda m: m["type"] in ("lobby", "lobby_delta") and m["tables"]
                        and m["tables"][0]["seats"][1].get("presence") == "reconnecting")
    assert 0 <= entry["tables"][0]["seats"][1]["absent_in"] <= GRACE
    gone = await until(a, lambda m: m["type"] == "view" and state_of(m, 1) == "disconnected")
    assert 0 <= gone["view"]["presence"][1]["absent_in"] <= GRACE  # (whole seconds, ceiled)
    assert ("presence_disconnected", 1) in keys(gone)
    absent = await until(a, lambda m: m["type"] == "view" and state_of(m, 1) == "absent")
    assert ("presence_absent", 1) in keys(absent)
    assert [k for k, seat in keys(absent) if seat == 1] == [
        "presence_reconnecting", "presence_disconnected", "presence_absent"]
    await a.aclose()
    await watcher.aclose()


async def test_a_client_that_says_goodbye_reads_disconnected_not_reconnecting(
        quick_host, dirs) -> None:
    a, b, tid = await two_players(quick_host, dirs)
    await b.aclose()  # bob closes his client: it sends bye first
    gone = await until(a, lambda m: m["type"] == "view" and state_of(m, 1) != "connected")
    assert state_of(gone, 1) == "disconnected"
    assert [k for k, seat in keys(gone) if seat == 1] == ["presence_disconnected"]
    await a.aclose()


async def test_a_bot_keeping_a_seat_is_shown_in_the_frames_and_the_lobby(
        quick_host, dirs) -> None:
    a, b, tid = await two_players(quick_host, dirs)
    watcher = await connect(quick_host, dirs["host_cfg"].parent / "carol", "carol")
    await b.aclose()
    entry = await until(watcher, lambda m: m["type"] == "lobby" and m["tables"]
                        and m["tables"][0]["seats"][1].get("presence") == "disconnected")
    seat = entry["tables"][0]["seats"][1]
    assert 0 <= seat["absent_in"] <= GRACE and seat["connected"] is False
    await until(a, lambda m: m["type"] == "view" and state_of(m, 1) == "absent")
    quick_host.lobby.add_bot(tid, 1, "random")  # the host gives bob's seat to a bot
    bot = await until(a, lambda m: m["type"] == "view" and state_of(m, 1) == "stand_in")
    assert ("presence_bot", 1) in keys(bot)
    entry = await until(watcher, lambda m: m["type"] == "lobby" and m["tables"]
                        and m["tables"][0]["seats"][1].get("presence") == "stand_in")
    assert entry["tables"][0]["seats"][1]["kind"] == "bot"
    await a.aclose()
    await watcher.aclose()


async def test_every_frame_of_a_presence_change_has_one_length(quick_host, dirs) -> None:
    """The traffic rule: presence is public, sent alike to every seat."""
    a = await connect(quick_host, dirs["client"], "ada")
    b = await connect(quick_host, dirs["client2"], "bob")
    c = await connect(quick_host, dirs["host_cfg"].parent / "cas", "cas")
    await a.send({"type": "create", "game": "toy", "seats": 3, "options": {}})
    await until(a, lambda m: m["type"] == "lobby" and m["you"]["table"] is not None)
    tid = a.you["table"]
    for s, seat in ((b, 1), (c, 2)):
        await s.send({"type": "sit", "table": tid, "seat": seat})
        await until(s, lambda m, seat=seat: m["type"] == "lobby" and m["you"]["seat"] == seat)
    await a.send({"type": "start", "table": tid})
    for s in (a, b):
        await until(s, lambda m: m["type"] == "view")
    sizes: list[tuple[int, int]] = []
    quick_host.add_listener(lambda effects: sizes.extend(
        (e.conn, len(e.data)) for e in one_by_one(effects)
        if getattr(e, "data", None) is not None and e.msg.get("type") == "view"))
    await c.aclose()
    await until(a, lambda m: m["type"] == "view" and state_of(m, 2) == "disconnected")
    await until(b, lambda m: m["type"] == "view" and state_of(m, 2) == "disconnected")
    assert len({n for _, n in sizes[:2]}) == 1 and {conn for conn, _ in sizes[:2]} == {1, 2}
    await a.aclose()
    await b.aclose()


async def test_the_tables_chat_comes_back_to_a_player_who_reconnects(quick_host, dirs) -> None:
    a, b, tid = await two_players(quick_host, dirs)
    await a.send({"type": "chat", "text": "who has the frog?", "channel": "table"})
    line = await until(b, lambda m: m["type"] == "chat")
    assert isinstance(line["n"], int)
    await b.aclose()
    back = await connect(quick_host, dirs["client2"], "bob")
    again = await until(back, lambda m: m["type"] == "chat")
    assert (again["from"], again["text"], again["n"]) == ("ada", "who has the frog?",
                                                         line["n"])
    await a.aclose()
    await back.aclose()


async def test_an_answer_for_a_timed_window_that_closed_is_too_late_not_illegal(
        dirs) -> None:
    h = Host("Late", dirs["host_cfg"], dirs["host_data"], bot_delay=0.5, games=["toy"],
             idle_timeout=30, open=True)
    await h.start("127.0.0.1", 0)
    try:
        a = await connect(h, dirs["client"], "ada")
        await a.send({"type": "create", "game": "toy", "seats": 2,
                      "options": {"turn_seconds": 0.3}})
        await until(a, lambda m: m["type"] == "lobby" and m["you"]["table"] is not None)
        tid = a.you["table"]
        await a.send({"type": "add_bot", "table": tid, "seat": 1, "policy": "random"})
        await a.send({"type": "start", "table": tid})
        first = await until(a, lambda m: m["type"] == "view" and m["legal"])
        # ada waits: the window (her turn, 0.3 s) closes and she passes by timeout
        await until(a, lambda m: m["type"] == "view" and not m["legal"])
        await a.send({"type": "act", "table": tid, "state_id": first["view"]["state_id"],
                      "action": first["legal"][0]})
        refused = await until(a, lambda m: m["type"] == "rejected")
        assert refused["code"] == "too_late"
        assert refused["reason"] == {"key": "too_late", "args": {}}
        await a.aclose()
    finally:
        await h.stop()


async def test_an_idle_player_at_fangs_untimed_ready_screen_no_longer_holds_the_table(
        dirs) -> None:
    """Fang's ready screen is untimed by its rules: with ``idle_absent`` the connected player
    who never confirms counts as absent after it, and the game goes on for everyone."""
    h = Host("Idle", dirs["host_cfg"], dirs["host_data"], bot_delay=0, games=["fang"],
             idle_timeout=30, open=True, idle_absent=2.0)
    await h.start("127.0.0.1", 0)
    ida = await connect(h, dirs["client"], "ida")
    try:
        tid = h.lobby.create_table("fang", 5, {"time_limits": True}, seed=3)
        await ida.send({"type": "sit", "table": tid, "seat": 0})
        await until(ida, lambda m: m["type"] == "lobby" and (m.get("you") or {}).get("seat") == 0)
        for seat in range(1, 5):
            h.lobby.add_bot(tid, seat, "heuristic")
        h.lobby.start(tid)
        first = await until(ida, lambda m: m["type"] == "view")
        table = h.lobby.tables[tid]
        assert table.waiting_for() == [0]  # the four bots confirmed; only Ida holds the table
        assert {a["type"] for a in first["legal"]} == {"ready"}  # the untimed ready screen
        absent = await until(ida, lambda m: m["type"] == "view" and "presence" in m["view"]
                             and state_of(m, 0) == "absent", seconds=15)
        assert ("presence_absent", 0) in keys(absent) or table.seats[0].absent
        moved = await until(ida, lambda m: m["type"] == "view" and m["view"]["state_id"]
                            > absent["view"]["state_id"], seconds=15)
        assert moved["view"].get("scene") != first["view"].get("scene")  # past the ready screen
        # She comes back by sitting at her seat (b at the table).
        await ida.send({"type": "sit", "table": tid, "seat": 0})
        back = await until(ida, lambda m: m["type"] == "view" and "presence" in m["view"]
                           and state_of(m, 0) == "connected", seconds=15)
        assert ("presence_back", 0) in keys(back)
    finally:
        await ida.aclose()
        await h.stop()
