"""Checks every engine must pass, used by each game's property tests.

``random_game`` plays a game with uniform-random bots and, at every step, checks the contract:
stable legal actions, illegal and malformed actions refused without touching the state, and
``load(dump(s))`` continuing identically.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from hexnet.engine import Game, IllegalAction

MALFORMED: list[Any] = [
    None, 3, "play", [], {}, {"type": 7}, {"type": "play", "card": [1, 2]},
    {"type": "play", "card": {"x": 1}}, {"type": "x" * 500},
    {"type": "play", **{f"k{i}": i for i in range(20)}}, {"type": "nonsense"},
    {"type": "play", "card": "no-such-card"}, {"type": "pass", "extra": True},
]


def random_game(game: Game, players: int, seed: int, options: dict | None = None,
                check_every: int = 1, max_actions: int = 50_000
                ) -> tuple[dict[str, Any], list[tuple[int | None, dict]]]:
    """Play to the end with random choices; return the final state and the action list."""
    state = game.setup([f"p{i}" for i in range(players)], seed, options or {})
    r = random.Random(seed)
    history: list[tuple[int | None, dict]] = []
    step = 0
    while game.outcome(state) is None:
        waiting = game.waiting_for(state)
        if not waiting:
            # only a running deadline may leave nobody to wait for: the host lets it expire
            timer = game.deadline(state)
            assert timer is not None, "the game waits for nobody but has not ended"
            action = {"type": "timeout", "key": timer.key}
            game.apply(state, None, action)
            history.append((None, action))
            step += 1
            continue
        assert waiting == sorted(set(waiting))
        seat = waiting[r.randrange(len(waiting))]
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is waited on but has no legal action"
        assert legal == game.legal_actions(state, seat), "legal actions are not stable"
        if step % check_every == 0:
            before = game.dump(state)
            bad = r.choice(MALFORMED)
            with pytest.raises(IllegalAction):
                game.apply(state, seat, bad)
            idle = [s for s in range(players) if s not in waiting]
            if idle:
                with pytest.raises(IllegalAction):
                    game.apply(state, r.choice(idle), legal[0])
            assert game.dump(state) == before, "a refused action changed the state"
            copy = game.load(before)
            assert game.dump(copy) == before
        action = r.choice(legal)
        game.apply(state, seat, action)
        history.append((seat, action))
        step += 1
        assert step <= max_actions, "the game did not end"
    return state, history


def replay(game: Game, players: int, seed: int, history: list[tuple[int | None, dict]],
           options: dict | None = None) -> dict[str, Any]:
    """The state after re-applying ``history`` to a fresh setup."""
    state = game.setup([f"p{i}" for i in range(players)], seed, options or {})
    for seat, action in history:
        game.apply(state, seat, action)
    return state
