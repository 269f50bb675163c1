"""The engine's fast paths give what the plain ones gave: ``log_for`` the same events as a scan
of the whole log, ``Game.copy_state`` a state that plays on exactly as ``load(dump(state))``
(and leaves the original alone), events that share nothing with the state they came from."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hexnet.engine import Game, emit, log_for
from hexnet.games import get_game

GAMES = [("hexenhammer", 4), ("fang", 8), ("hranice", 4)]


def scanned(state: dict[str, Any], seat: int | None, last: int) -> list[dict[str, Any]]:
    """The last ``last`` events ``seat`` may see, found by the plain backwards scan."""
    out = []
    for event in reversed(state["log"]):
        if "to" in event:
            if seat is None or seat not in event["to"]:
                continue
            event = {k: v for k, v in event.items() if k != "to"}
        out.append(event)
        if len(out) >= last:
            break
    return out[::-1]


def test_log_for_gives_the_events_a_plain_scan_of_the_log_gives():
    r = random.Random(7)
    for _ in range(600):
        state: dict[str, Any] = {"log": []}
        private = r.random()
        for i in range(r.randrange(0, 300)):
            if r.random() < private:
                emit(state, "secret", to=r.sample(range(8), r.randrange(1, 3)), x=i)
            else:
                emit(state, "public", x=i)
        for seat in (None, 0, 3, 7):
            for last in (1, 7, 40):
                assert log_for(state, seat, last) == scanned(state, seat, last)


def step(game: Game, state: dict[str, Any], r: random.Random) -> None:
    """One random step: a waited seat's random legal action, or the running deadline."""
    waiting = game.waiting_for(state)
    if not waiting:
        game.apply(state, None, {"type": "timeout", "key": game.deadline(state).key})
        return
    seat = waiting[r.randrange(len(waiting))]
    game.apply(state, seat, r.choice(game.legal_actions(state, seat)))


def shared_containers(value: Any, out: set[int]) -> set[int]:
    if isinstance(value, dict | list):
        out.add(id(value))
        for v in value.values() if isinstance(value, dict) else value:
            shared_containers(v, out)
    return out


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_copied_state_plays_on_exactly_as_the_original(name: str, players: int):
    game = get_game(name)
    for seed in range(1, 4):
        state = game.setup([f"p{i}" for i in range(players)], seed, {})
        r = random.Random(seed)
        moves = 0
        while game.outcome(state) is None:
            if moves % 37 == 5:
                before = game.dump(state)
                copy = game.copy_state(state)
                assert game.dump(copy) == before
                fork, ahead = random.Random(moves), random.Random(moves)
                for _ in range(25):  # the copy and a loaded dump, played on alike
                    if game.outcome(copy) is not None:
                        break
                    loaded = game.load(game.dump(copy))
                    step(game, copy, fork)
                    step(game, loaded, ahead)
                    assert game.dump(copy) == game.dump(loaded)
                    fork.setstate(ahead.getstate())
                assert game.dump(state) == before, "playing the copy changed the original"
            step(game, state, r)
            moves += 1


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_events_share_no_list_or_map_with_the_state(name: str, players: int):
    game = get_game(name)
    for seed in range(1, 4):
        state = game.setup([f"p{i}" for i in range(players)], seed, {})
        r = random.Random(seed)
        while game.outcome(state) is None:
            step(game, state, r)
            inside: set[int] = set()
            for key, value in state.items():
                if key != "log":
                    shared_containers(value, inside)
            for event in state["log"][-8:]:
                for value in event.values():
                    assert not shared_containers(value, set()) & inside, event


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_view_without_the_log_is_the_view_less_its_log(name: str, players: int):
    # the host sends the log as deltas (view(log=False)); the rest must be the very same
    game = get_game(name)
    state = game.setup([f"p{i}" for i in range(players)], 2, {})
    r = random.Random(2)
    views = 0
    while game.outcome(state) is None and views < 400:
        for seat in [*range(players), None]:
            full = game.view(state, seat)
            bare = game.view(state, seat, log=False)
            assert "log" not in bare and full.pop("log") == log_for(state, seat)
            assert bare == full
            views += 1
        step(game, state, r)
    assert views >= 100
