"""Checking a play directly (``legal.play_allowed``, what ``apply`` uses for speed) accepts
exactly the plays ``legal_actions`` lists: same fields, values and value types."""

import random

from hexnet.engine import find_legal
from hexnet.games.hexenhammer import GAME, legal

# values a field of a forged play may carry instead of the real one
ODD = [None, 0, 1, True, False, -1, 2, "", "nobody", "karl", "c1"]


def _variants(action: dict, villagers: list[str]) -> list[dict]:
    """``action`` and plays a little off it: each field changed, dropped, or one added."""
    out = [dict(action)]
    for key in action:
        if key in ("type", "card"):
            continue
        for value in [*ODD, *villagers]:
            out.append({**action, key: value})
        out.append({k: v for k, v in action.items() if k != key})
    for key in ("accuser", "target", "sign", "other"):
        if key not in action:
            out.extend({**action, key: value} for value in [*ODD[:6], villagers[0]])
    return out


def test_a_play_checked_directly_is_legal_exactly_when_it_is_listed():
    checked = 0
    for players, seed in ((3, 1), (4, 2), (5, 3), (4, 4)):
        state = GAME.setup([f"p{i}" for i in range(players)], seed, {})
        r = random.Random(seed)
        villagers = list(state["villagers"])
        while GAME.outcome(state) is None:
            seat = r.choice(GAME.waiting_for(state))
            listed = GAME.legal_actions(state, seat)
            if (state["window"] is None and state["choice"] is None
                    and state["phase"] in (1, 2, 3)):
                for cid in state["hands"][seat]:
                    mine = [a for a in listed if a.get("card") == cid]
                    bases = mine or [{"type": "play", "card": cid, "target": villagers[0]}]
                    for base in bases[:4]:
                        for action in _variants(base, villagers):
                            assert legal.play_allowed(state, seat, action) == (
                                find_legal(action, mine) is not None), (state["phase"], action)
                            checked += 1
            GAME.apply(state, seat, r.choice(listed))
    assert checked > 10_000
