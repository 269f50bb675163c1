"""Determinizations: ``Game.sample_state(view, rng)`` builds a full state from one seat's view.

Checked on positions of random and heuristic play, in every seat: the sample's view equals the
view it was built from (byte for byte, as msgpack), the sample plays on to the end, and its
hidden part changes with the generator's seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from hexnet.games import get_game, get_policy
from hexnet.games.fang import belief
from hexnet.games.fang import data as fang_data
from hexnet.games.hranice import cards
from hexnet.search import Playout

CASES = [
    ("hexenhammer", 3, {}), ("hexenhammer", 4, {}),
    ("hexenhammer", 5, {"reaction_seconds": 11, "panic_seconds": 40}),
    ("hexenhammer", 3, {"turn_seconds": 25}),
    ("hranice", 2, {}), ("hranice", 4, {"manual_flip": True, "reaction_seconds": 0}),
    ("hranice", 6, {"ask_holders_only": True, "reaction_seconds": 9}),
    ("hranice", 3, {"turn_seconds": 45}),
    ("fang", 4, {}), ("fang", 6, {"time_limits": True}), ("fang", 8, {}), ("fang", 9, {}),
    ("fang", 12, {"time_limits": True}),
]


def positions(game_name: str, players: int, seed: int, options: dict[str, Any],
              every: int = 3) -> Iterator[tuple[dict[str, Any], int]]:
    """(state, seat) along one game of mixed random and heuristic play, every few steps."""
    game = get_game(game_name)
    heuristic = get_policy(game_name, "heuristic")
    state = game.setup([f"p{i}" for i in range(players)], seed, options)
    r = random.Random(seed)
    step = 0
    while game.outcome(state) is None and step < 600:
        waiting = game.waiting_for(state)
        if not waiting:
            game.apply(state, None, {"type": "timeout", "key": game.deadline(state).key})
            continue
        if step % every == 0:
            for seat in range(players):
                yield state, seat
        seat = r.choice(waiting)
        legal = game.legal_actions(state, seat)
        action = (heuristic(game.view(state, seat), legal, r) if r.random() < 0.6
                  else r.choice(legal))
        game.apply(state, seat, action)
        step += 1
    yield state, 0


def packed(view: dict[str, Any]) -> bytes:
    return msgpack.packb(view, use_bin_type=True)


@pytest.mark.parametrize(("game_name", "players", "options"), CASES)
def test_a_sampled_state_shows_the_seat_exactly_its_view(game_name, players, options):
    game = get_game(game_name)
    checked = 0
    for seed in (1, 2):
        for state, seat in positions(game_name, players, seed, options):
            view = game.view(state, seat)
            sample = game.sample_state(view, random.Random(checked))
            assert packed(game.view(sample, seat)) == packed(view), (seed, seat, checked)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(("game_name", "players"), [("hexenhammer", 4), ("hranice", 4),
                                                    ("fang", 6), ("fang", 10)])
def test_a_sampled_state_plays_on_to_the_end(game_name, players):
    game = get_game(game_name)
    playout = Playout(game, get_policy(game_name, "search").spec.__class__(
        engine=game, rollout=get_policy(game_name, "heuristic")))
    done = 0
    for seed in range(5, 10):  # games until three positions were played on (short games: more)
        for i, (state, seat) in enumerate(positions(game_name, players, seed, {}, every=17)):
            if game.outcome(state) is not None or i % players:
                continue
            sample = game.sample_state(game.view(state, seat), random.Random(i))
            value = playout.run(sample, seat, random.Random(i))
            assert game.outcome(sample) is not None and value is not None and 0 <= value <= 1
            done += 1
        if done >= 3:
            break
    assert done >= 3


def hidden_part(game_name: str, state: dict[str, Any], seat: int) -> Any:
    """What the seat cannot see: other hands (and the pile), or the other roles."""
    if game_name == "fang":
        return [r for s, r in enumerate(state["roles"]) if s != seat]
    if game_name == "hexenhammer":
        return [sorted(tuple(state["cards"][c]) for c in h)
                for s, h in enumerate(state["hands"]) if s != seat] + [
            [tuple(state["cards"][c]) for c in state["deck"]]]
    return [sorted(h) for s, h in enumerate(state["hands"]) if s != seat] + [state["pile"]]


@pytest.mark.parametrize(("game_name", "players"), [("hexenhammer", 4), ("hranice", 4),
                                                    ("fang", 8)])
def test_the_hidden_part_of_a_sample_varies_with_the_seed(game_name, players):
    game = get_game(game_name)
    state = game.setup([f"p{i}" for i in range(players)], 3)
    view = game.view(state, 1)
    hidden = {repr(hidden_part(game_name, game.sample_state(view, random.Random(k)), 1))
              for k in range(8)}
    assert len(hidden) >= 4
    again = [game.sample_state(view, random.Random(5)) for _ in range(2)]
    assert packed(again[0]) == packed(again[1])  # the same seed, the same sample


def test_a_hexenhammer_sample_keeps_every_card_once():
    game = get_game("hexenhammer")
    for state, seat in positions("hexenhammer", 4, 9, {}, every=25):
        sample = game.sample_state(game.view(state, seat), random.Random(seat))
        places = [c for h in sample["hands"] for c in h] + sample["deck"] + sample["discard"] \
            + sample["removed"] + [c for k in sample["kept"] for c in k]
        if sample["protected"]:
            places.append(sample["protected"]["card"])
        window = sample["window"]
        if window and window["trigger"].get("card"):
            places.append(window["trigger"]["card"])
        if sample["choice"] and sample["choice"]["trial"]:
            places.append(sample["choice"]["trial"]["card"])
        assert sorted(places) == sorted(sample["cards"]) and len(sample["cards"]) == 78


def test_a_hranice_sample_keeps_every_card_once():
    game = get_game("hranice")
    for state, seat in positions("hranice", 4, 9, {}, every=25):
        sample = game.sample_state(game.view(state, seat), random.Random(seat))
        places = [c for key in ("hands", "councils", "burned") for row in sample[key]
                  for c in row] + sample["pyre"] + sample["pile"] + sample["discard"]
        assert sorted(places) == sorted(cards.deck())


def test_what_a_hranice_seat_saw_of_a_hand_stays_in_that_hand():
    game = get_game("hranice")
    state = game.setup(["a", "b", "c"], 1, {"scenario": {
        "hands": [["vyslech", "zebrak"], ["alibi", "kovar", "soudce"], ["rolnik"]],
        "first_player": 0}})
    game.apply(state, 0, {"type": "action", "card": "vyslech", "player": 1})
    while state["step"] is None or state["step"]["stage"] != "choose":
        game.apply(state, game.waiting_for(state)[0], {"type": "pass"})
    game.apply(state, 0, {"type": "discard", "card": "alibi"})
    view = game.view(state, 0)
    for k in range(6):
        sample = game.sample_state(view, random.Random(k))
        assert sorted(sample["hands"][1]) == sorted(state["hands"][1])


def test_a_seer_finding_holds_in_every_fang_sample():
    game = get_game("fang")
    roles = ["seherin", "hexe", "hexe", "dorfkatze", "kraeuterkundige", "beschuetzer"]
    state = game.setup([f"p{i}" for i in range(6)], 1, {"scenario": {"roles": roles}})
    state["seer_results"] = [[1, 1, "witch"], [1, 3, "no_witch"]]
    view = game.view(state, 0)
    for k in range(12):
        dealt = game.sample_state(view, random.Random(k))["roles"]
        assert dealt[0] == fang_data.SEER and dealt[1] == fang_data.WITCH
        assert dealt[3] != fang_data.WITCH and sorted(dealt) == sorted(roles)


def test_fang_suspicion_falls_on_the_members_of_a_failed_ritual():
    view = {"seat": 0, "players": ["a", "b", "c", "d"], "role": "dorfkatze",
            "roles": ["dorfkatze", None, None, None], "forms": ["cat"] * 4, "outcome": None,
            "day": 3, "deal": "standard", "my_lays": [], "record": [
                {"k": "ritual", "day": 1, "members": [1, 2], "success": False,
                 "required": ["pilz", "pilz"]},
                {"k": "ritual", "day": 2, "members": [2, 3], "success": True,
                 "required": ["pilz", "pilz"]}]}
    odds = belief.judge(view).witch
    assert odds[1] > odds[2] > odds[3] and odds[0] == 0.0
    assert sum(odds) == pytest.approx(1.0)  # one witch at four seats
