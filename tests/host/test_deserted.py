"""A table nobody is left at waits for its players (:meth:`host.playing.Play.deserted`): no bot
sits there and none of its players is connected, so nothing is played for its absent seats and
its clock is held — until a player is back. A tournament's table plays on, a move for the
absent as each deadline runs out, and waits too if their moves would never end the game.
Driven on the sans-I/O core, no sockets."""

from __future__ import annotations

from typing import Any

import pytest

from hexnet import rng
from hexnet.engine import LOG_LENGTH, visible
from host.core import CancelTimer, SetTimer
from host.journal import JournalContents
from host.lobby import Lobby
from host.playing import RESUME_LEAST
from host.recovery import rebuild_table
from host.render import secret_of
from host.table import MAX_HOST_STEPS, absent_run
from protocol.traffic import LOG_KEEP
from tests.host.test_lobby import Recorder, ident, seated_table
from tests.host.test_party import Clock
from tests.host.test_traffic import seated


def played(table: Any) -> list[dict[str, Any]]:
    """The actions applied at ``table`` that are not presence records."""
    return [a for _, a in table.history if a["type"] != "presence"]


def everyone_leaves(lb: Lobby, tid: int, conns: range) -> None:
    """Every player's connection ends and each seat's grace runs out."""
    for conn in conns:
        lb.disconnect(conn)
    for seat in range(len(lb.tables[tid].seats)):
        lb.absent_if_gone(tid, seat)


@pytest.mark.parametrize(("game", "seats"), [("hexenhammer", 4), ("fang", 8), ("hranice", 4)])
def test_a_table_nobody_is_left_at_plays_nothing_for_its_absent_seats(game: str,
                                                                       seats: int) -> None:
    lb, rec = seated(game, seats, 5)
    table = lb.tables[1]
    before = len(played(table))
    everyone_leaves(lb, 1, range(1, seats + 1))
    for _ in range(20):  # a secret step's ticks go on; none plays a default
        if secret_of(table) is not None:
            lb.cadence(1)
    assert table.status == "playing" and table.deserted
    assert all(s.absent for s in table.seats)
    assert len(played(table)) == before
    # (before: Hexenhammer's passes ran 10,000 host steps at once, Hranice played to its end)


def test_when_a_player_is_back_the_game_plays_for_the_absent_ones_again() -> None:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    tid = seated_table(lb, rec)
    table = lb.tables[tid]
    lb.handle(1, {"type": "act", "table": tid, "state_id": table.state_id,
                  "action": {"type": "play", "card": table.state["hands"][0][0]}})
    assert table.waiting_for() == [1, 2]  # the others' nods
    everyone_leaves(lb, tid, range(1, 4))
    assert table.waiting_for() == [1, 2] and len(played(table)) == 1
    lb.connect(4, ident(1), "p1")  # p1 is back: p2 and p3 nod by default, and play their turns
    assert table.deserted is False
    assert [a["seat"] for a in played(table)[1:3]] == [1, 2]
    assert {a["type"] for a in played(table)[1:]} == {"absent"}
    assert table.status == "over" or table.waiting_for() == [0]


def test_a_deserted_tables_clock_is_held_and_runs_on_when_a_player_is_back() -> None:
    rec, clock = Recorder(), Clock()
    lb = Lobby(rec, clock=clock)
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    tid = seated_table(lb, rec)
    table = lb.tables[tid]
    clock.now += 10  # 20 s of p1's 30 s turn left
    rec.take()
    for conn in (1, 2):
        lb.disconnect(conn)
    assert not [e for e in rec.take() if isinstance(e, CancelTimer)]  # p3 is still here
    lb.disconnect(3)
    assert [e for e in rec.take() if isinstance(e, CancelTimer)] == [CancelTimer(tid)]
    assert table.timer_held == 20.0
    clock.now += 500
    lb.timeout(tid, "turn0")  # a timer the shell had already fired: nothing is played
    assert played(table) == [] and table.timer_key == "turn0"
    lb.connect(4, ident(2), "p2")
    assert [(e.key, e.seconds) for e in rec.take() if isinstance(e, SetTimer)] == [
        ("turn0", 20.0)]


def test_a_deadline_that_ran_out_as_the_last_player_left_runs_again_with_the_least() -> None:
    rec, clock = Recorder(), Clock()
    lb = Lobby(rec, clock=clock)
    for n in (1, 2):
        lb.connect(n, ident(n), f"p{n}")
    tid = seated_table(lb, rec, 2)
    table = lb.tables[tid]
    lb.disconnect(2)
    conn = 1
    for _ in range(10):  # p1 comes and goes until its presence budget is spent: its last
        rec.take()       # leaving is not a step, and the clock is not held then
        lb.disconnect(conn)
        if not [e for e in rec.take() if isinstance(e, CancelTimer)]:
            break
        conn += 10
        lb.connect(conn, ident(1), "p1")
    assert table.timer_due is not None and not lb.people.connected(table)[0]
    clock.now += 30
    lb.timeout(tid, "turn0")  # it ran out with nobody there: held, with nothing left
    assert played(table) == [] and table.timer_held == 0.0 and table.deserted
    rec.take()
    lb.connect(99, ident(1), "p1")
    assert [(e.key, e.seconds) for e in rec.take() if isinstance(e, SetTimer)] == [
        ("turn0", RESUME_LEAST)]


def test_a_tournaments_table_plays_on_to_its_end_when_nobody_is_left() -> None:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    lb.hosts_event = True
    for n in (1, 2):
        lb.connect(n, ident(n), f"p{n}")
    tid = lb.create_table("toy", 2)
    lb.place(tid, 0, "p1", ident(1))
    lb.place(tid, 1, "p2", ident(2))
    lb.start(tid)
    table = lb.tables[tid]
    everyone_leaves(lb, tid, range(1, 3))
    assert table.status == "playing" and not table.deserted  # a turn waits for its deadline
    for _ in range(50):  # each turn as its deadline runs out (the seat passes: no nods)
        if table.status != "playing":
            break
        assert table.timer_due is not None
        lb.timeout(tid, table.timer_key)
    assert table.status == "over" and not table.deserted
    assert {a["type"] for a in played(table)} == {"timeout"}


def everyone_leaves_a_tournaments_hexenhammer_table(turn_seconds: int
                                                    ) -> tuple[Lobby, Recorder, Any, int]:
    """A tournament's Hexenhammer table every player left (a minute a turn, as its tables
    have unless the organiser says otherwise), and the moves played before the last went."""
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    lb.hosts_event = True
    for n in range(1, 5):
        lb.connect(n, ident(n), f"p{n}")
    tid = lb.create_table("hexenhammer", 4, {"turn_seconds": turn_seconds})
    for seat in range(4):
        lb.place(tid, seat, f"p{seat + 1}", ident(seat + 1))
    lb.start(tid)
    for conn in range(1, 5):
        lb.disconnect(conn)
    for seat in range(3):
        lb.absent_if_gone(tid, seat)
    before = len(played(lb.tables[tid]))
    rec.take()
    lb.absent_if_gone(tid, 3)  # the last one: nobody is left
    return lb, rec, lb.tables[tid], before


def test_a_tournaments_table_nobody_is_at_plays_a_move_as_each_deadline_runs_out() -> None:
    # (before: as the last player went absent, 10,000 moves at once — an absent player's
    # Hexenhammer turn ends it and never calls the Inquisition — and again at every deadline)
    lb, rec, table, before = everyone_leaves_a_tournaments_hexenhammer_table(60)
    assert len(played(table)) == before and not table.deserted
    assert table.timer_due is not None  # its clock runs: not held
    rec.take()
    turns = []
    for n in range(1, 5):
        waited = table.waiting_for()
        turns += waited
        lb.timeout(table.id, table.timer_key)
        assert len(played(table)) == before + n
        assert table.waiting_for() == [(waited[0] + 1) % 4]  # the next turn, timed afresh
        assert [(e.key, e.seconds) for e in rec.take() if isinstance(e, SetTimer)] == [
            (table.timer_key, 60.0)]
    assert sorted(turns) == [0, 1, 2, 3]
    lb.connect(9, ident(1), "p1")  # p1 is told of the move made for them
    assert table.history[-1][1] == {"type": "presence", "seat": 0, "state": "played",
                                    "count": 1}


def test_an_untimed_tournaments_table_whose_absent_moves_never_end_the_game_waits() -> None:
    # no deadline to pace it (the organiser turned turn_seconds off): the moves are made at
    # once; with every seat absent phase 1 goes round for ever, so after MAX_HOST_STEPS moves
    # the table waits as a deserted one (before: 10,000 moves more at every change)
    lb, rec, table, before = everyone_leaves_a_tournaments_hexenhammer_table(0)
    assert len(played(table)) == before + MAX_HOST_STEPS
    assert table.status == "playing" and table.state["phase"] == 1
    assert table.stalled and table.deserted


def test_a_player_back_at_a_table_played_on_without_them_gets_their_view_in_frames_that_fit(
        ) -> None:
    lb, rec, table, _ = everyone_leaves_a_tournaments_hexenhammer_table(0)
    rec.take()
    lb.connect(9, ident(1), "p1")  # (every frame the recorder reads is decoded: within the limit)
    assert not table.deserted and table.waiting_for() == [0]
    held = rec.sent(9, "view")[-1]["view"]  # what p1's client holds: its own view
    view = table.engine.view(table.state, 0)
    assert held["hand"] == view["hand"] and held["turn"] == view["turn"] == 0
    # the last LOG_LENGTH events (not the 20,000 missed), numbered among those seat 0 sees
    assert [without_n(e) for e in held["log"]] == [without_n(e) for e in view["log"]]
    seen = sum(1 for e in table.state["log"] if visible(e, 0))
    assert [e["n"] for e in held["log"]] == list(range(seen - LOG_LENGTH, seen))


def without_n(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "n"}


def test_a_watcher_of_a_table_played_on_at_once_gets_frames_that_fit() -> None:
    # 20,000 events in one change: the watcher's next frame is whole (its last LOG_KEEP), not
    # the events since its last (before: a frame of 511,996 bytes, over the limit)
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    lb.hosts_event = True
    for n in (*range(1, 5), 30):
        lb.connect(n, ident(n), f"p{n}")
    tid = lb.create_table("hexenhammer", 4, {"turn_seconds": 0})
    for seat in range(4):
        lb.place(tid, seat, f"p{seat + 1}", ident(seat + 1))
    lb.start(tid)
    lb.handle(30, {"type": "watch", "table": tid})
    everyone_leaves(lb, tid, range(1, 5))  # (every frame the recorder reads is decoded)
    table = lb.tables[tid]
    assert table.stalled
    frame = rec.sent(30, "watch_view")[-1]  # (as it came: the recorder keeps no watcher's book)
    assert frame["log_reset"] is True and len(frame["log"]) == LOG_KEEP
    assert frame["log"][-1]["key"] == table.state["log"][-1]["key"]


def test_a_stalled_table_recovered_from_its_journal_waits_without_playing_them_again() -> None:
    # a restart replays the journal: its last 10,000 steps are the absent seats' moves, so the
    # rebuilt table has stalled too (before: it played 10,000 more as it was taken back)
    lb, _, table, _ = everyone_leaves_a_tournaments_hexenhammer_table(0)
    contents = JournalContents(
        header={"game": table.game_name, "options": table.options, "seed": table.seed,
                "salt": table.salt, "rng": rng.ALGORITHM, "table": table.id,
                "seats": [seat.record() for seat in table.seats]},
        steps=[{"seat": seat, "action": action} for seat, action in table.history])
    rebuilt = rebuild_table(contents, lambda line: None)
    assert rebuilt.digests == table.digests and rebuilt.stalled
    again = Lobby(Recorder(), seed_source=lambda: 7)
    again.hosts_event = True
    again.resume_table_id(rebuilt)
    again.resume_table(rebuilt)
    assert len(played(rebuilt)) == len(played(table)) and rebuilt.deserted
    # a table whose last steps were played by its players is not taken for a stalled one
    assert absent_run(table.history[:-MAX_HOST_STEPS]) < MAX_HOST_STEPS
