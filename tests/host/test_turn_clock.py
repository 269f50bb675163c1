"""A timed decision's clock (``turn_seconds``) runs from when the game first waited on it:
a presence record — a player's coming and going, journaled as a host action — moves the state
and so the turn's key, but changes no decision, so the clock runs on under the new key instead
of starting a fresh minute (before: a player who reconnected every ten seconds, within their
presence budget, held a tournament's table for ever). Driven on the sans-I/O core."""

from __future__ import annotations

from typing import Any

from host.core import SetTimer
from host.lobby import Lobby
from tests.host.test_lobby import Recorder, ident
from tests.host.test_party import Clock


def timed_hexenhammer() -> tuple[Lobby, Recorder, Clock, Any]:
    """Four players at a Hexenhammer table with a minute a turn; seat 0's turn."""
    rec, clock = Recorder(), Clock()
    lb = Lobby(rec, seed_source=lambda: 7, clock=clock)
    for n in range(1, 5):
        lb.connect(n, ident(n), f"p{n}")
    tid = lb.create_table("hexenhammer", 4, {"turn_seconds": 60})
    for seat in range(4):
        lb.place(tid, seat, f"p{seat + 1}", ident(seat + 1))
    lb.start(tid)
    table = lb.tables[tid]
    assert table.waiting_for() == [0] and table.timer_key is not None
    rec.take()
    return lb, rec, clock, table


def timers(rec: Recorder) -> list[tuple[str, float]]:
    return [(e.key, e.seconds) for e in rec.take() if isinstance(e, SetTimer)]


def test_a_players_coming_and_going_gives_the_seat_waited_on_no_fresh_minute() -> None:
    lb, rec, clock, table = timed_hexenhammer()
    first = table.timer_key
    clock.now += 50
    lb.disconnect(2)
    lb.connect(20, ident(2), "p2")  # a presence record: the state, and the turn's key, move
    assert [a["type"] for _, a in table.history] == ["presence"]
    assert table.timer_key != first
    assert timers(rec) == [(table.timer_key, 10.0)]  # the 10 s it had left, not 60
    clock.now += 10
    key = table.timer_key
    lb.timeout(table.id, key)
    assert table.history[-1][1] == {"type": "timeout", "key": key}
    assert table.waiting_for() == [1]  # seat 0's turn ran out: ended for them
    assert timers(rec) == [(table.timer_key, 60.0)]  # the next decision: its whole minute


def test_a_deadline_whose_key_a_presence_record_moved_still_runs_out() -> None:
    # a presence record applied with no step after it leaves the shell's timer on the old key
    lb, rec, clock, table = timed_hexenhammer()
    old = table.timer_key
    table.act(None, {"type": "presence", "seat": 2, "state": "disconnected", "count": 0})
    assert table.deadline().key != old
    lb.timeout(table.id, old)
    assert table.history[-1][1] == {"type": "timeout", "key": f"turn-{table.state['version'] - 1}"}
    assert table.waiting_for() == [1]


def test_a_move_gives_the_next_decision_its_whole_time() -> None:
    lb, rec, clock, table = timed_hexenhammer()
    clock.now += 30
    lb.handle(1, {"type": "act", "table": table.id, "state_id": table.state_id,
                  "action": {"type": "pass"}})
    assert table.waiting_for() == [1]
    assert timers(rec)[-1] == (table.timer_key, 60.0)
