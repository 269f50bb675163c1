"""Replays: every position of a recorded game, from a seat, the public or everyone; rounds."""

from __future__ import annotations

import pytest

from hexnet.engine import visible
from hexnet.games import get_game
from hexnet.record import Record, verify_record
from hexnet.replay import ALL, Replay, ReplayError
from tests.replays.games import play

PLAYERS = ["Ada", "Bert", "Cili"]


@pytest.fixture(scope="module")
def hexenhammer() -> Record:
    return play("hexenhammer", PLAYERS, seed=7)


@pytest.fixture(scope="module")
def fang() -> Record:
    return play("fang", ["Ada", "Bert", "Cili", "Dora", "Emil"], seed=3)


def _engine_view_after(record: Record, steps: int, seat: int | None) -> dict:
    engine = get_game(record.game)
    state = engine.setup(record.players, record.seed, record.options)
    for s, action, _digest in record.steps[:steps]:
        engine.apply(state, s, action)
    return engine.view(state, seat)


def test_positions_run_from_the_deal_to_after_the_last_step(hexenhammer):
    replay = Replay(hexenhammer, 1)
    assert replay.last == len(hexenhammer.steps)
    assert replay.positions[0].action is None and replay.positions[0].index == 0
    assert [p.action for p in replay.positions[1:]] == [a for _s, a, _d in hexenhammer.steps]
    assert replay.view_at(replay.last)["outcome"] == hexenhammer.outcome


@pytest.mark.parametrize("seat", [0, 2, None])
def test_a_seat_sees_at_each_position_exactly_the_view_it_was_sent(hexenhammer, seat):
    replay = Replay(hexenhammer, seat)
    for index in (0, 1, 17, 40, replay.last // 2, replay.last):
        assert replay.view_at(index) == _engine_view_after(hexenhammer, index, seat)


def test_stepping_back_shows_what_stepping_forward_showed(hexenhammer):
    replay = Replay(hexenhammer, 0)
    forward = [replay.view_at(i) for i in range(0, 60)]
    backward = [replay.view_at(i) for i in reversed(range(0, 60))]
    assert forward == backward[::-1]


def test_round_jumps_land_where_the_round_number_changes(hexenhammer):
    replay = Replay(hexenhammer, None)
    rounds = [replay.view_at(i)["round"] for i in range(replay.last + 1)]
    starts = [0] + [i for i in range(1, len(rounds)) if rounds[i] != rounds[i - 1]]
    assert replay.round_starts() == starts and len(starts) > 2
    second, third = starts[1], starts[2]
    assert replay.next_round(0) == second
    assert replay.next_round(second) == third
    assert replay.previous_round(second + 3) == second  # back to the start of this round
    assert replay.previous_round(second) == 0  # at a start: the round before
    assert replay.next_round(starts[-1]) == replay.last  # no round after the last one


def test_everyone_sees_every_event_with_its_audience_only_after_the_end(fang):
    replay = Replay(fang, ALL)
    private = [e for e in replay.view_at(0)["log"] if "to" in e]
    assert {tuple(e["to"]) for e in private if e["key"] == "role"} == {(s,) for s in range(5)}
    assert all(replay.sees(e) for p in replay.positions for e in p.events)
    running = Record(**{**fang.__dict__, "steps": fang.steps[:20], "outcome": None,
                        "finished": False})
    with pytest.raises(ReplayError):
        Replay(running, ALL)


def test_a_seat_replaying_a_running_game_sees_only_its_own_moves_and_events(fang):
    running = Record(**{**fang.__dict__, "steps": fang.steps[:30], "outcome": None,
                        "finished": False})
    replay = Replay(running, 3)
    for position in replay.positions[1:]:
        assert replay.sees_action(position) == (position.seat == 3)
        for event in position.events:
            assert replay.sees(event) == visible(event, 3)
    assert Replay(fang, 3).sees_action(replay.positions[1])  # once over: every step is public


def test_a_seat_that_is_not_at_the_table_is_refused(hexenhammer):
    with pytest.raises(ReplayError):
        Replay(hexenhammer, 3)


def test_the_record_is_verified_and_a_changed_seed_is_caught(hexenhammer):
    assert verify_record(hexenhammer).ok
    forged = Record(**{**hexenhammer.__dict__, "seed": hexenhammer.seed + 1})
    verdict = verify_record(forged)
    assert not verdict.ok and "commitment" in verdict.lines[-1]
