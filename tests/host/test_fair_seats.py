"""Fair seats (issue 9): only the host gives an absent seat to a bot and its player gets it
back; names are unique per host; one player cannot fill the host with tables, and open tables
nobody sits at expire. Driven on the sans-I/O lobby core."""

from __future__ import annotations

from host.core import Send
from host.lobby import Lobby
from tests.host.test_lobby import Recorder, ident, seated_table


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def lobby(**kw) -> tuple[Lobby, Recorder]:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7, **kw)
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    rec.take()
    return lb, rec


def errors(rec: Recorder, conn: int) -> list[str]:
    return [m["code"] for m in rec.sent(conn, "error")]


# -- item 5: an absent seat is freed only by the host, and its player gets it back ---------

def test_a_seated_player_cannot_give_an_absent_players_seat_to_a_bot() -> None:
    lb, rec = lobby()
    tid = seated_table(lb, rec)
    lb.disconnect(3)
    lb.absent_if_gone(tid, 2)
    rec.take()
    lb.handle(1, {"type": "add_bot", "table": tid, "seat": 2, "policy": "random"})
    assert errors(rec, 1) == ["host_only"]
    seat = lb.tables[tid].seats[2]
    assert (seat.kind, seat.identity, seat.absent) == ("human", ident(3), True)
    lb.connect(9, ident(3), "p3")
    assert lb.where(ident(3)) == (lb.tables[tid], 2)


def test_a_returning_player_gets_their_seat_back_from_the_hosts_bot() -> None:
    lb, rec = lobby()
    tid = seated_table(lb, rec)
    table = lb.tables[tid]
    lb.disconnect(3)
    lb.absent_if_gone(tid, 2)
    lb.add_bot(tid, 2, "random")  # the host's own decision
    assert (table.seats[2].kind, table.seats[2].name) == ("bot", "p3")
    assert lb.holds_seat(ident(3))  # may come back without the room code
    rec.take()
    lb.connect(9, ident(3), "p3")
    seat = table.seats[2]
    assert (seat.kind, seat.identity, seat.policy, seat.absent) == ("human", ident(3), None,
                                                                     False)
    views = rec.sent(9, "view")
    assert views and views[-1]["view"]["seat"] == 2
    assert lb.conns[9].name == "p3"


def test_a_player_who_left_sits_again_and_takes_the_seat_back_from_the_bot() -> None:
    lb, rec = lobby()
    tid = seated_table(lb, rec)
    table = lb.tables[tid]
    lb.handle(3, {"type": "leave"})
    lb.add_bot(tid, 2, "random")
    lb.handle(3, {"type": "sit", "table": tid, "seat": None})
    assert (table.seats[2].kind, table.seats[2].identity) == ("human", ident(3))


def test_a_kicked_player_does_not_get_the_seat_back() -> None:
    lb, rec = lobby()
    tid = seated_table(lb, rec)
    lb.kick(tid, 2)
    lb.add_bot(tid, 2, "random")
    lb.connect(9, ident(3), "p3")
    assert lb.tables[tid].seats[2].kind == "bot" and lb.where(ident(3)) is None


def test_seat_changes_during_play_are_reported_for_the_journal() -> None:
    from host.core import SeatsChanged

    lb, rec = lobby()
    tid = seated_table(lb, rec)
    rec.take()
    lb.disconnect(3)
    lb.absent_if_gone(tid, 2)
    lb.add_bot(tid, 2, "random")
    changes = [e for e in rec.take() if isinstance(e, SeatsChanged)]
    assert changes and changes[-1].seats[2]["kind"] == "bot"
    assert changes[-1].seats[2]["reserved"] == ident(3)


# -- item 7: names are unique per host ------------------------------------------------------

def test_a_second_pi_is_pi_2_in_the_lobby_in_chat_and_at_the_table() -> None:
    lb, rec = lobby()
    lb.connect(4, ident(4), "pi")
    lb.connect(5, ident(5), "pi")
    lb.connect(6, ident(6), "PI")
    assert [lb.conns[c].name for c in (4, 5, 6)] == ["pi", "pi (2)", "PI (3)"]
    rec.take()
    lb.handle(5, {"type": "chat", "text": "hello", "channel": "lobby"})
    assert {m["from"] for m in rec.sent(4, "chat")} == {"pi (2)"}
    lb.handle(4, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.handle(5, {"type": "sit", "table": 1, "seat": None})
    lb.handle(4, {"type": "start", "table": 1})
    assert lb.state_of(1)["players"] == ["pi", "pi (2)"]
    assert rec.sent(5, "lobby")[-1]["you"]["name"] == "pi (2)"


def test_a_player_who_comes_back_keeps_the_name_the_table_knows() -> None:
    lb, rec = lobby()
    lb.connect(4, ident(4), "pi")
    lb.connect(5, ident(5), "pi")
    lb.handle(5, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.disconnect(4)
    lb.disconnect(5)
    lb.connect(7, ident(5), "pi")  # the first pi is gone, but the table knows "pi (2)"
    assert lb.conns[7].name == "pi (2)"
    lb.connect(8, ident(8), "pi (2)")
    assert lb.conns[8].name == "pi (2) (2)"


def test_a_bot_never_takes_a_players_name() -> None:
    lb, rec = lobby()
    lb.connect(4, ident(4), "bot 2")
    tid = lb.create_table("toy", 2)
    lb.add_bot(tid, 1, "random")
    assert lb.tables[tid].seats[1].name == "bot 2 (2)"


# -- item 4 (first half): per-player caps, open tables expire -------------------------------

def test_one_player_creating_tables_in_a_loop_does_not_lock_the_others_out() -> None:
    lb, rec = lobby()
    for _ in range(40):
        lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    assert len(lb.tables) == 3 and set(errors(rec, 1)) == {"too_many_tables"}
    rec.take()
    lb.handle(2, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    assert errors(rec, 2) == [] and lb.where(ident(2)) is not None


def test_tables_created_per_player_are_capped_per_hour() -> None:
    clock = Clock()
    lb, rec = lobby(clock=clock, max_open_tables_per_player=100,
                    max_tables_created_per_player=5)
    for _ in range(5):
        lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    msgs = rec.sent(1, "error")
    assert [m["code"] for m in msgs] == ["too_many_tables"]
    assert msgs[0]["message"] == ("You created 5 tables within an hour; you may create "
                                  "another in 61 min.")
    clock.now += 3600
    rec.take()
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    # created; the table p1 sat at alone for that hour went (it is told so)
    assert errors(rec, 1) == ["table_expired"] and lb.where(ident(1)) is not None


def test_an_open_table_nobody_sits_at_expires_and_one_with_a_player_stays() -> None:
    clock = Clock()
    lb, rec = lobby(clock=clock, table_expiry=600)
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.handle(2, {"type": "create", "game": "toy", "seats": 3, "options": {}})
    lb.connect(4, ident(4), "p4")
    lb.handle(4, {"type": "sit", "table": 2, "seat": None})  # a player beside its creator
    hosts_own = lb.create_table("toy", 2)
    lb.handle(1, {"type": "leave"})  # table 1 is empty from now on
    clock.now += 599
    assert lb.expire_tables() == []
    clock.now += 1
    rec.take()
    assert lb.expire_tables() == [1]
    assert sorted(lb.tables) == [2, hosts_own]
    assert [t["id"] for t in rec.sent(3, "lobby")[-1]["tables"]] == [2, hosts_own]


def test_a_table_someone_sits_at_again_starts_its_expiry_anew() -> None:
    clock = Clock()
    lb, rec = lobby(clock=clock, table_expiry=600)
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.handle(1, {"type": "leave"})
    clock.now += 500
    lb.handle(2, {"type": "sit", "table": 1, "seat": None})
    lb.handle(2, {"type": "leave"})
    clock.now += 500
    assert lb.expire_tables() == []
    clock.now += 100
    assert lb.expire_tables() == [1]


def test_the_tables_still_seating_are_reported_for_the_journal() -> None:
    from host.core import SeatingChanged

    lb, rec = lobby()
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {"turn_seconds": 5}})
    seating = [e for e in rec.take() if isinstance(e, SeatingChanged)]
    assert seating[-1].tables == [{
        "id": 1, "game": "toy", "options": {"turn_seconds": 5}, "creator": ident(1), "seed": 0,
        "seats": [{"kind": "human", "name": "p1", "identity": ident(1), "policy": None,
                   "absent": False, "absent_auto": False, "reserved": None},
                  {"kind": "empty", "name": "", "identity": None, "policy": None,
                   "absent": False, "absent_auto": False, "reserved": None}],
        "watch": {"allowed": True, "delay": 0}}]  # its watching rules (host/watchers.py)
    assert not [e for e in rec.effects if isinstance(e, Send) and e.msg["type"] == "error"]
