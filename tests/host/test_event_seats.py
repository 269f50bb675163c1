"""One seat per player when a tournament seats them (:meth:`host.lobby.Lobby.place`, used by
:mod:`host.event`): a player still playing a table of their own is seated for the round and
leaves that seat absent — the game's absent rules play it — and cannot take it back while the
tournament's table plays. Driven on the sans-I/O core, no sockets."""

from __future__ import annotations

from host.lobby import Lobby
from tests.host.test_lobby import Recorder, ident, seated_table


def lobby() -> tuple[Lobby, Recorder]:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    rec.take()
    return lb, rec


def test_a_player_seated_by_the_host_while_playing_elsewhere_holds_one_seat() -> None:
    lb, rec = lobby()
    casual = seated_table(lb, rec)  # p1, p2 and p3 play a table of their own
    seat = lb.tables[casual].seat_of(ident(2))
    event = lb.create_table("toy", 2)
    lb.place(event, 0, "p2", ident(2))
    lb.place(event, 1, "p3", ident(3))
    lb.start(event)
    assert lb.where(ident(2)) == (lb.tables[event], 0)
    assert lb.tables[casual].seats[seat].absent  # left as leaving leaves it
    assert [s.absent for s in lb.tables[event].seats] == [False, False]
    rec.take()
    lb.handle(2, {"type": "sit", "table": casual, "seat": seat})
    assert lb.tables[casual].seats[seat].absent
    assert rec.sent(2, "error")[-1]["code"] == "playing"


def test_a_seat_at_a_table_still_seating_is_given_up_for_the_hosts_seat() -> None:
    lb, rec = lobby()
    lb.handle(2, {"type": "create", "game": "toy", "seats": 3, "options": {}})
    casual = max(lb.tables)
    event = lb.create_table("toy", 2)
    lb.place(event, 0, "p2", ident(2))
    assert lb.tables[casual].seat_of(ident(2)) is None
    assert lb.where(ident(2)) == (lb.tables[event], 0)


def test_a_bot_standing_in_keeps_the_seat_while_its_player_plays_the_hosts_table() -> None:
    lb, rec = lobby()
    casual = seated_table(lb, rec)
    table = lb.tables[casual]
    lb.disconnect(3)
    lb.absent_if_gone(casual, 2)
    lb.add_bot(casual, 2, "random")  # the host's bot keeps p3's seat
    event = lb.create_table("toy", 2)
    lb.place(event, 0, "p3", ident(3))  # p3 is away: seated absent
    lb.place(event, 1, "p1", ident(1))
    lb.start(event)
    lb.connect(9, ident(3), "p3")
    assert lb.where(ident(3)) == (lb.tables[event], 0)
    assert not lb.tables[event].seats[0].absent  # back at the tournament's table
    assert (table.seats[2].kind, table.seats[2].reserved) == ("bot", ident(3))  # still kept
    lb.handle(9, {"type": "sit", "table": casual, "seat": 2})
    assert table.seats[2].kind == "bot"
