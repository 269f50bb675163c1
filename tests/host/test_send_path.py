"""The host's send path at scale (issue 10), in the sans-I/O core: acts that arrive in one tick
go out as one frame per seat; lobby updates are coalesced deltas that no client can multiply
and that players at a playing table do not get; one host holds hundreds of tables."""

from __future__ import annotations

from host.core import Send
from host.lobby import Lobby
from host.registry import MAX_TABLES
from tests.host.test_lobby import Recorder, ident


def lobby_of(n: int, batched: bool = True) -> tuple[Lobby, Recorder]:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7, batched=batched)
    for c in range(1, n + 1):
        lb.connect(c, ident(c), f"p{c}")
    lb.send_due()
    lb.send_lobby()
    rec.take()
    return lb, rec


def test_acts_that_arrive_in_one_tick_go_out_as_one_frame_per_seat() -> None:
    lb, rec = lobby_of(3)
    lb.handle(1, {"type": "create", "game": "toy", "seats": 3, "options": {}})
    for c in (2, 3):
        lb.handle(c, {"type": "sit", "table": 1, "seat": None})
    lb.handle(1, {"type": "start", "table": 1})
    lb.send_due()
    t = lb.tables[1]
    lb.handle(1, {"type": "act", "table": 1, "state_id": t.state_id,
                  "action": {"type": "play", "card": t.state["hands"][0][0]}})
    lb.send_due()
    sid = t.state_id  # seats 1 and 2 must both nod: they do, in the same tick
    rec.take()
    lb.handle(2, {"type": "act", "table": 1, "state_id": sid, "action": {"type": "nod"}})
    lb.handle(3, {"type": "act", "table": 1, "state_id": sid, "action": {"type": "nod"}})
    assert rec.frames() == {}  # nothing leaves before the tick (journal records did)
    lb.send_due()
    frames = rec.frames()
    assert sorted(frames) == [1, 2, 3] and all(len(f) == 1 for f in frames.values())
    views = {c: rec.sent(c, "view")[-1] for c in (1, 2, 3)}
    # two actions, one burst: the seats' state id counts publications (issue 22), not actions
    assert {v["view"]["state_id"] for v in views.values()} == {sid + 1}
    assert views[2]["answered"] == sid and views[3]["answered"] == sid
    assert "answered" not in views[1]


def test_a_client_toggling_its_seat_cannot_flood_the_others() -> None:
    lb, rec = lobby_of(40)
    lb.handle(1, {"type": "create", "game": "toy", "seats": 4, "options": {}})
    lb.send_lobby()
    rec.take()
    for _ in range(100):  # as fast as the message limit allows, for a second
        lb.handle(2, {"type": "sit", "table": 1, "seat": None})
        lb.handle(2, {"type": "leave"})
    lb.send_lobby()  # the host sends at most a few of these a second
    for c in range(3, 41):
        sent = [e for e in rec.effects if isinstance(e, Send) and e.conn == c]
        assert len(sent) == 1 and len(sent[0].data or b"") < 1024
        assert rec.sent(c, "lobby")[-1]["tables"][0]["seats"][1]["kind"] == "empty"
    # the one toggling got its own answers (one per request), nothing more
    assert len([e for e in rec.effects if isinstance(e, Send) and e.conn == 2]) == 201


def test_players_at_a_playing_table_get_no_lobby_updates_until_they_are_back() -> None:
    lb, rec = lobby_of(4)
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.handle(2, {"type": "sit", "table": 1, "seat": None})
    lb.handle(1, {"type": "start", "table": 1})
    lb.send_due()
    lb.send_lobby()
    rec.take()
    lb.handle(3, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.send_lobby()
    assert rec.sent(1, "lobby") == rec.sent(2, "lobby") == []
    assert [t["id"] for t in rec.sent(4, "lobby")[-1]["tables"]] == [1, 2]
    t = lb.tables[1]
    for _ in range(50):  # play the toy game to its end: both are back in the lobby
        if t.status == "over":
            break
        seat = t.waiting_for()[0]
        lb.handle(seat + 1, {"type": "act", "table": 1, "state_id": t.state_id,
                             "action": {"type": "pass"}})
        lb.send_due()
    lb.send_lobby()
    assert [t["id"] for t in rec.sent(1, "lobby")[-1]["tables"]] == [1, 2]


def test_one_host_holds_hundreds_of_tables_and_lists_them_all() -> None:
    assert MAX_TABLES >= 500
    lb, rec = lobby_of(1, batched=False)
    for _ in range(MAX_TABLES):
        lb.create_table("toy", 2, {})
    lb.connect(9, ident(9), "late")
    assert len(rec.sent(9, "lobby")[-1]["tables"]) == MAX_TABLES


def test_a_burst_of_tables_starting_at_once_is_rendered_over_several_ticks() -> None:
    """Every table starting in one tick: each tick renders at most ``TICK_TABLES`` tables'
    frames (the first that changed first) and asks for the next tick for the rest, so the
    host reads again between them; every seat gets its frame in the end."""
    from host.core import TablesChanged
    from host.lobby import TICK_TABLES

    tables = 2 * TICK_TABLES + 5
    lb, rec = lobby_of(2 * tables)
    for t in range(tables):
        lb.handle(2 * t + 1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
        lb.handle(2 * t + 2, {"type": "sit", "table": t + 1, "seat": None})
    for t in range(tables):
        lb.handle(2 * t + 1, {"type": "start", "table": t + 1})
    rec.take()
    got: list[set[int]] = []
    for _ in range(3):
        lb.send_due()
        effects = rec.take()
        got.append({(conn + 1) // 2 for conn in rec.frames(effects)})
        assert any(isinstance(e, TablesChanged) for e in effects) == (len(got) < 3)
    assert [len(g) for g in got] == [TICK_TABLES, TICK_TABLES, 5]
    assert got[0] == set(range(1, TICK_TABLES + 1))  # first come, first rendered
    assert set().union(*got) == set(range(1, tables + 1))
