"""Random actions thrown at every game's ``apply`` from every seat (and the host) in every phase:
each is either one of that seat's legal actions (exactly, types included) or refused with
:class:`IllegalAction` and the state byte-identical. The actions are legal ones mutated: wrong
value types (bools for ints, ints for strings, …), other seats' values (their card ids, their
targets), out-of-range ints, missing and extra keys, another action type."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hexnet.engine import Game, IllegalAction
from hexnet.games import get_game

GAMES = {"hexenhammer": (3, 5), "fang": (4, 12), "hranice": (2, 6)}
GAMES_EACH = {"hexenhammer": 3, "fang": 6, "hranice": 6}
CHECK_EVERY = {"hexenhammer": 15, "fang": 3, "hranice": 3}  # steps between two volleys

VOLLEY = 8  # mutated actions per seat per volley
WEIRD: list[Any] = [None, True, False, 0, -1, 1, 2**31, -(2**40), 10**12, "", "x",
                    "i999", "seat", 1.5, [], {}, [1], {"a": 1}]


def same_action(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal keys, values and value types (``True`` is not ``1``)."""
    return a.keys() == b.keys() and all(
        type(a[k]) is type(b[k]) and a[k] == b[k] for k in a)


def mutate(action: dict[str, Any], pool: list[Any], types: list[str],
           r: random.Random) -> dict[str, Any]:
    """A variant of ``action``: one to three random edits."""
    out = dict(action)
    for _ in range(r.randint(1, 3)):
        keys = [k for k in out if k != "type"] or ["type"]
        op = r.randrange(8)
        key = r.choice(keys)
        if op == 0:  # a value of the wrong kind
            out[key] = r.choice(WEIRD)
        elif op == 1:  # someone else's value (another seat's card, target, place…)
            if pool:
                out[key] = r.choice(pool)
        elif op == 2 and isinstance(out.get(key), int) and not isinstance(out[key], bool):
            out[key] = out[key] + r.choice([-100, -2, -1, 1, 2, 13, 2**31])
        elif op == 3 and isinstance(out.get(key), int):
            out[key] = bool(out[key]) if not isinstance(out[key], bool) else int(out[key])
        elif op == 4 and isinstance(out.get(key), (int, bool)):
            out[key] = str(out[key])
        elif op == 5 and len(out) > 1:
            out.pop(key, None)
        elif op == 6:
            out[r.choice(["extra", "seat", "card", "target", "to", key + "_"])] = r.choice(WEIRD)
        else:
            out["type"] = r.choice(types + ["", "TIMEOUT", "absent", "timeout"])
    return out


def shorthand(name: str, action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Hexenhammer's documented shorthand: a brown card played without ``accuser`` is played
    by the seat's default accuser — legal if the play with some accuser is."""
    return name == "hexenhammer" and action.get("type") == "play" and "accuser" not in action \
        and any(same_action({**action, "accuser": a.get("accuser")}, a) for a in legal
                if "accuser" in a)


def throw(game: Game, name: str, state: dict[str, Any], players: int,
          r: random.Random) -> int:
    """One volley at every seat and the host; the number of refused actions."""
    waiting = game.waiting_for(state)
    legal = {s: game.legal_actions(state, s) if s in waiting else [] for s in range(players)}
    all_legal = [a for acts in legal.values() for a in acts]
    pool = [v for a in all_legal for k, v in a.items() if k != "type"]
    types = sorted({a["type"] for a in all_legal})
    deadline = game.deadline(state)
    host_legal = [{"type": "absent", "seat": s} for s in waiting]
    if deadline is not None:
        host_legal.append({"type": "timeout", "key": deadline.key})
    refused = 0
    before = game.dump(state)
    for seat in [*range(players), None]:
        mine = host_legal if seat is None else legal[seat]
        seeds = all_legal or host_legal or [{"type": "pass"}]
        for _ in range(VOLLEY):
            action = mutate(r.choice(seeds), pool + list(range(-1, players + 1)), types, r)
            if any(same_action(action, a) for a in mine) or shorthand(name, action, mine):
                continue  # happened to be legal: fine either way
            try:
                game.apply(state, seat, action)
            except IllegalAction:
                refused += 1
            else:
                raise AssertionError(f"seat {seat} got {action!r} accepted; legal: {mine}")
            after = game.dump(state)
            assert after == before, f"refused {action!r} from seat {seat} changed the state"
    return refused


@pytest.mark.parametrize("name", sorted(GAMES))
def test_mutated_actions_from_every_seat_are_legal_or_change_nothing(name: str) -> None:
    game = get_game(name)
    lo, hi = GAMES[name]
    refused = 0
    phases: set[Any] = set()
    for g in range(GAMES_EACH[name]):
        players = lo + g % (hi - lo + 1)
        r = random.Random(f"{name}-{g}")
        state = game.setup([f"p{i}" for i in range(players)], g, {})
        for step in range(20_000):
            if game.outcome(state) is not None:
                break
            if step % CHECK_EVERY[name] == 0:
                refused += throw(game, name, state, players, r)
                phases.add(tuple(sorted({a["type"] for s in game.waiting_for(state)
                                         for a in game.legal_actions(state, s)})))
            waiting = game.waiting_for(state)
            if not waiting:
                game.apply(state, None, {"type": "timeout", "key": game.deadline(state).key})
                continue
            seat = r.choice(waiting)
            game.apply(state, seat, r.choice(game.legal_actions(state, seat)))
        assert game.outcome(state) is not None
    assert refused > 1000 and len(phases) >= 3, (refused, phases)
