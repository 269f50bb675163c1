"""Fair tables on the batched send path: refusals to a playing seat ride in the table's frames,
the seating journal hooks come with every change even though lobby updates are coalesced, and
the name and stand-in indexes of a host with many tables follow players coming and going.
Driven on the sans-I/O lobby core."""

from __future__ import annotations

from host.core import LobbyDue, SeatingChanged, Send
from host.lobby import Lobby
from tests.host.test_fair_seats import lobby
from tests.host.test_lobby import Recorder, ident, seated_table


def test_a_playing_seats_host_only_refusal_rides_in_one_equal_frame_to_every_seat() -> None:
    lb, rec = lobby()
    tid = seated_table(lb, rec)
    lb.disconnect(3)
    lb.absent_if_gone(tid, 2)
    rec.take()
    lb.handle(1, {"type": "add_bot", "table": tid, "seat": 2, "policy": "random"})
    assert [m["code"] for m in rec.sent(1, "error")] == ["host_only"]
    assert rec.sent(2, "error") == []
    frames = rec.frames()
    assert sorted(frames) == [1, 2] and all(len(f) == 1 for f in frames.values())
    assert len({len(fs[0]) for fs in frames.values()}) == 1
    assert not [e for e in rec.effects if isinstance(e, Send) and e.data is None]


def test_a_lobby_request_of_a_playing_seat_is_answered_as_a_lobby_error() -> None:
    lb, rec = lobby()
    seated_table(lb, rec)
    rec.take()
    lb.handle(1, {"type": "create", "game": "hexenhammer", "seats": 4,
                  "options": {"scenario": {"hands": [[]]}}})
    sent = [e for e in rec.effects if isinstance(e, Send)]
    assert [(e.conn, e.msg["type"], e.msg["code"]) for e in sent] == [(1, "error", "local_only")]


def test_seating_is_reported_for_the_journal_at_once_while_lobby_updates_wait() -> None:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7, batched=True)
    lb.connect(1, ident(1), "p1")
    lb.connect(2, ident(2), "p2")
    lb.send_lobby()
    rec.take()
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.handle(2, {"type": "sit", "table": 1, "seat": None})
    effects = rec.take()
    seating = [e for e in effects if isinstance(e, SeatingChanged)]
    assert [[s["name"] for s in e.tables[0]["seats"]] for e in seating] == [["p1", ""],
                                                                          ["p1", "p2"]]
    assert sum(isinstance(e, LobbyDue) for e in effects) == 1  # one coalesced update due
    assert rec.sent(2, "lobby_delta") == []  # not sent before the shell asks


def test_a_name_is_free_again_once_its_player_is_gone_and_holds_no_seat() -> None:
    lb, rec = lobby()
    lb.connect(4, ident(4), "pi")
    lb.handle(4, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.connect(5, ident(5), "pi")
    assert lb.conns[5].name == "pi (2)"
    lb.handle(4, {"type": "leave"})
    lb.disconnect(4)
    lb.disconnect(5)
    lb.connect(6, ident(6), "PI")
    assert lb.conns[6].name == "PI"


def test_a_bots_name_at_an_expired_table_is_free_again() -> None:
    from tests.host.test_fair_seats import Clock

    clock = Clock()
    lb, rec = lobby(clock=clock, table_expiry=10)
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    tid = max(lb.tables)
    lb.add_bot(tid, 1, "random")
    lb.connect(4, ident(4), "bot 2")
    assert lb.conns[4].name == "bot 2 (2)"
    lb.disconnect(4)
    lb.handle(1, {"type": "leave"})  # only the bot is left: the table expires
    clock.now += 10
    assert lb.expire_tables() == [tid]
    lb.connect(5, ident(5), "bot 2")
    assert lb.conns[5].name == "bot 2"


def test_a_player_who_sat_elsewhere_meanwhile_gets_the_seat_the_bot_kept_and_only_it() -> None:
    lb, rec = lobby()
    tid = seated_table(lb, rec)
    lb.handle(3, {"type": "leave"})  # p3 stays connected, its seat is absent
    lb.add_bot(tid, 2, "random")  # the host's decision: the bot keeps p3's seat
    lb.handle(3, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    other = max(lb.tables)
    assert lb.where(ident(3)) == (lb.tables[other], 0)
    lb.connect(9, ident(3), "p3")  # p3 comes back (a new connection)
    assert lb.where(ident(3)) == (lb.tables[tid], 2)
    assert lb.tables[tid].seats[2].kind == "human"
    assert [s.kind for s in lb.tables[other].seats] == ["empty", "empty"]
    assert lb.holds_seat(ident(3)) and not lb.holds_seat(ident(4))
