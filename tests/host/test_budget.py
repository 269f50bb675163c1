"""One budget per player for everything that makes frames for the others (host/budget.py), in
the sans-I/O core on a clock the test moves: what would change nothing changes nothing, every
kind of request a seated player floods reaches the other seat only as its budget allows, and
presence changes — asked for or made by coming and going — are journaled within the presence
budget only. (Over real TLS, with figures: tests/e2e/test_flood_budget.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from host.budget import BURST, PRESENCE_BURST, PRESENCE_EVERY, RATE, Budget, bound
from host.core import Accepted, SeatsChanged, Send, WatchRulesChanged
from host.lobby import Lobby
from tests.host.test_watchers import Wire, ident, read_frames, toy_table


def seated(absent_after: float | None = 60.0) -> tuple[Lobby, Wire, list[float], int]:
    """p1 (the table's creator) and p2 playing the toy game, p3 watching it; the toy game
    waits on p2 alone (p1 played a card)."""
    now = [0.0]
    wire = Wire()
    lb = Lobby(wire, seed_source=lambda: 11, clock=lambda: now[0], absent_after=absent_after)
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    tid = toy_table(lb)
    table = lb.tables[tid]
    lb.handle(1, {"type": "act", "table": tid, "state_id": table.state_id,
                  "action": {"type": "play", "card": table.state["hands"][0][0]}})
    lb.handle(3, {"type": "watch", "table": tid})
    assert table.waiting_for() == [1]
    return lb, wire, now, tid


def frames_to(wire: Wire, conn: int) -> int:
    return sum(1 for e in wire.effects if isinstance(e, Send) and e.conn == conn)


def steps(wire: Wire) -> int:
    """Steps journaled (presence changes are steps too)."""
    return sum(1 for e in wire.effects if isinstance(e, Accepted))


def records(wire: Wire) -> int:
    """Journal records of every kind: steps, seats, watching rules."""
    return sum(1 for e in wire.effects
               if isinstance(e, Accepted | SeatsChanged | WatchRulesChanged))


def test_sitting_in_ones_own_seat_while_there_changes_nothing() -> None:
    lb, wire, _, tid = seated()
    before = len(wire.effects)
    for _ in range(50):
        lb.handle(1, {"type": "sit", "table": tid, "seat": 0})
        lb.handle(1, {"type": "sit", "table": tid, "seat": None})
    assert wire.effects[before:] == []  # no frame to anyone, no journal record, no timer


def test_leaving_while_absent_changes_nothing() -> None:
    lb, wire, _, tid = seated()
    lb.handle(1, {"type": "leave"})
    assert lb.tables[tid].seats[0].absent
    before = len(wire.effects)
    for _ in range(50):
        lb.handle(1, {"type": "leave"})
    assert wire.effects[before:] == []


FLOODS: dict[str, list[dict[str, Any]]] = {
    "start": [{"type": "start", "table": 1}],
    "add_bot": [{"type": "add_bot", "table": 1, "seat": None, "policy": "heuristic"}],
    "sit_elsewhere": [{"type": "sit", "table": 1, "seat": 1}],
    "act": [{"type": "act", "table": 1, "state_id": 0, "action": {"type": "pass"}}],
    "chat": [{"type": "chat", "text": "spam", "channel": "table"}],
    "chat_empty": [{"type": "chat", "text": " ", "channel": "table"}],
    "leave_sit": [{"type": "leave"}, {"type": "sit", "table": 1, "seat": 0}],
    "watch_sit": [{"type": "watch", "table": 1}, {"type": "sit", "table": 1, "seat": None}],
    "watch_rules": [{"type": "watch_rules", "table": 1, "allowed": False},
                    {"type": "watch_rules", "table": 1, "allowed": True}],
    "look": [{"type": "look", "on": True}, {"type": "look", "on": False}],
}


@pytest.mark.parametrize("kind", sorted(FLOODS))
def test_a_flood_of_any_request_reaches_the_other_seat_only_as_the_budget_allows(
        kind: str) -> None:
    lb, wire, now, tid = seated()
    assert tid == 1
    flood = FLOODS[kind]
    before, journaled = frames_to(wire, 2), records(wire)
    for second in range(3):  # 100 messages a second, for three seconds
        for i in range(100):
            now[0] = second + i / 100
            lb.handle(1, flood[i % len(flood)])
    now[0] = 3.0
    got = frames_to(wire, 2) - before
    assert got <= bound(3.0), (kind, got)
    assert records(wire) - journaled <= bound(3.0), (kind, records(wire) - journaled)
    assert lb.tables[tid].status == "playing"


def test_refusals_ride_in_every_seats_frames_within_the_budget_then_go_to_the_sender_alone(
        ) -> None:
    lb, wire, now, tid = seated()
    before = frames_to(wire, 2)
    for _ in range(50):
        lb.handle(1, {"type": "start", "table": tid})
    assert frames_to(wire, 2) - before == BURST
    errors = [m["code"] for m in read_frames(wire, 1) if m["type"] == "error"]
    assert errors[-50:] == ["not_open"] * 50  # the sender hears every one
    now[0] += 1.0
    for _ in range(5):
        lb.handle(1, {"type": "add_bot", "table": tid, "seat": None, "policy": "heuristic"})
    assert frames_to(wire, 2) - before == BURST + RATE


def test_a_players_leave_and_return_are_journaled_within_its_presence_budget() -> None:
    lb, wire, now, tid = seated()
    table = lb.tables[tid]
    records = steps(wire)
    for _ in range(20):
        lb.handle(1, {"type": "leave"})
        lb.handle(1, {"type": "sit", "table": tid, "seat": 0})
    # the first PRESENCE_BURST changes: absent, back (+ "played"), absent, back (+ "played")
    assert steps(wire) - records == PRESENCE_BURST // 2 * 3
    assert not table.seats[0].absent
    refused = [m["code"] for m in read_frames(wire, 1) if m["type"] == "error"]
    assert refused and set(refused) == {"too_often"}
    now[0] += PRESENCE_EVERY  # one more change later
    lb.handle(1, {"type": "leave"})
    assert table.seats[0].absent and steps(wire) - records == PRESENCE_BURST // 2 * 3 + 1


def test_a_player_reconnecting_in_a_loop_is_journaled_within_its_presence_budget() -> None:
    lb, wire, now, tid = seated()
    table = lb.tables[tid]
    before, records = frames_to(wire, 2), steps(wire)
    for n in range(50):  # the same identity, a new connection each time
        lb.disconnect(1 if n == 0 else 100 + n - 1)
        lb.connect(100 + n, ident(1), "p1")
    assert steps(wire) - records <= 2 * PRESENCE_BURST
    assert frames_to(wire, 2) - before <= PRESENCE_BURST
    assert lb.presence_of(table)[0]["state"] == "connected"
    # the budget is the identity's: a new connection does not refill it
    assert lb.conns[149].budget is lb.conns[149].budget is lb.people.budget_of(ident(1))


def test_a_budget_spends_the_shared_part_only_when_the_kinds_own_pace_allows() -> None:
    now = [0.0]
    budget = Budget(lambda: now[0])
    assert [budget.spend("watch") for _ in range(7)] == [True] * 5 + [False] * 2
    assert [budget.spend() for _ in range(6)] == [True] * 5 + [False]  # 10 in all
    now[0] += 1.0
    assert budget.spend("watch") and budget.spend() and not budget.spend("chat")


def test_a_watcher_coming_and_going_in_a_loop_reaches_the_seats_only_as_its_budget_allows(
        ) -> None:
    from host.budget import WATCH_BURST

    lb, wire, now, tid = seated()
    lb.disconnect(3)  # p3 stops watching: from now on it comes and goes
    lb.handle(1, {"type": "act", "table": tid, "state_id": 0, "action": {"type": "x"}})
    before = frames_to(wire, 2)
    for n in range(50):  # a new connection of the same key each time: watch, then go
        lb.connect(200 + n, ident(3), "p3")
        lb.handle(200 + n, {"type": "watch", "table": tid})
        lb.disconnect(200 + n)
    # at most a frame per watch its budget paid for (its going is told with the table's next
    # burst, not with a frame of its own; here its coming back changes nothing the seats see)
    assert frames_to(wire, 2) - before <= WATCH_BURST
