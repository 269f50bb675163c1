"""Property tests over random games for 2–6 players: the engine contract, determinism,
dump/load, secrecy of hands and the pile, and that every game ends."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from hexnet.engine import log_for
from hexnet.games.hranice import GAME, cards
from tests.hexnet.contract import random_game, replay

GAMES_PER_COUNT = 100
CARD_ID = re.compile(r"^[a-z]+-\d+$")
PRIVATE_KINDS = {"drawn", "stolen", "peek"}


def _strings(tree: Any) -> set[str]:
    if isinstance(tree, str):
        return {tree}
    if isinstance(tree, dict):
        return set().union(*(_strings(v) for v in tree.values())) if tree else set()
    if isinstance(tree, list | tuple):
        return set().union(*(_strings(v) for v in tree)) if tree else set()
    return set()


def _check_log_privacy(state: dict[str, Any]) -> None:
    for event in state["log"]:
        if event.get("kind") in PRIVATE_KINDS:
            assert event["to"] is not None, event
    assert all(e.get("kind") not in PRIVATE_KINDS for e in log_for(state, None, 10_000))


def _check_secrecy(state: dict[str, Any]) -> None:
    n = len(state["players"])
    for seat in [*range(n), None]:
        view = GAME.view(state, seat)
        hidden = set(state["pile"])
        for other in range(n):
            if other != seat:
                hidden |= set(state["hands"][other])
        peek = view.pop("peek", None)
        if peek is not None:
            step = state["step"]
            assert seat == step["seat"] and peek["hand"] == state["hands"][step["player"]]
        view.pop("log")
        leaked = {s for s in _strings(view) if CARD_ID.match(s)} & hidden
        assert not leaked, f"seat {seat} sees {leaked}"


def _all_cards(state: dict[str, Any]) -> list[str]:
    places = [state["pile"], state["discard"], state["pyre"], state.get("box", [])]
    for key in ("hands", "councils", "burned"):
        places.extend(state[key])
    return sorted(c for place in places for c in place)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_the_contract_and_always_end(players):
    results: Counter[str] = Counter()
    for seed in range(GAMES_PER_COUNT):
        state, history = random_game(GAME, players, seed * 7919 + players, check_every=6)
        out = GAME.outcome(state)
        results[out["result"]] += 1
        assert out["winners"] and len(out["scores"]) == players
        assert out["first_player"] in range(players) and out["turns"] >= 1
        assert _all_cards(state) == sorted(cards.deck())
        if seed % 10 == 0:
            again = replay(GAME, players, seed * 7919 + players, history)
            assert GAME.dump(again) == GAME.dump(state), "the same seed and actions diverged"
    assert sum(results.values()) == GAMES_PER_COUNT
    # a random game may hit the turn cap, but only rarely
    assert results["turn_cap"] <= GAMES_PER_COUNT // 10, results


@pytest.mark.parametrize("players", [2, 4, 6])
def test_no_view_shows_another_hand_or_the_pile(players):
    for seed in range(10):
        state = GAME.setup([f"p{i}" for i in range(players)], seed, {})
        r = random.Random(seed)
        while GAME.outcome(state) is None:
            _check_secrecy(state)
            seat = GAME.waiting_for(state)[0]
            GAME.apply(state, seat, r.choice(GAME.legal_actions(state, seat)))
        _check_secrecy(state)
        _check_log_privacy(state)


def test_vyslech_peek_is_seen_by_the_looker_only_in_random_play():
    seen = 0
    for seed in range(60):
        state = GAME.setup(["a", "b", "c"], seed, {})
        r = random.Random(seed)
        while GAME.outcome(state) is None:
            step = state["step"]
            if step is not None and step["stage"] == "choose":
                seen += 1
                _check_secrecy(state)
            seat = GAME.waiting_for(state)[0]
            GAME.apply(state, seat, r.choice(GAME.legal_actions(state, seat)))
    assert seen > 0


def test_dump_and_load_continue_identically():
    state, history = random_game(GAME, 4, 99, check_every=1000)
    half = len(history) // 2
    early = replay(GAME, 4, 99, history[:half])
    copy = GAME.load(GAME.dump(early))
    for seat, action in history[half:]:
        GAME.apply(early, seat, action)
        GAME.apply(copy, seat, action)
    assert GAME.dump(copy) == GAME.dump(early) == GAME.dump(state)


@pytest.mark.parametrize("options", [{"manual_flip": True}, {"ask_holders_only": True},
                                     {"variant": "tutorial"}, {"variant": "long",
                                                               "variant_step": 2}])
def test_options_play_to_the_end(options):
    for seed in range(20):
        state, _ = random_game(GAME, 3 + seed % 3, seed, options, check_every=8)
        assert GAME.outcome(state) is not None


@pytest.mark.timeout(900)  # a hang bound for a long run on a loaded machine
@pytest.mark.slow
def test_a_thousand_more_random_games_end_and_keep_the_contract():
    results: Counter[str] = Counter()
    for i in range(1000):
        players = 2 + i % 5
        state, _ = random_game(GAME, players, 10_000 + i, check_every=40)
        results[GAME.outcome(state)["result"]] += 1
    assert results["win"] + results["turn_cap"] == 1000
    assert results["turn_cap"] <= 10, results
