"""Setting up a game: the random deal, or the position ``options["scenario"]`` stacks.

Card instances get ids ``c1``…``c78`` drawn at random, so an id says nothing about the card.
The draw pile is kept top-last (``state["deck"][-1]`` is drawn next).
"""

from __future__ import annotations

from typing import Any

from hexnet import rng
from hexnet.engine import IllegalAction, State
from hexnet.games.hexenhammer import data

SCENARIO_KEYS = frozenset(
    {"villagers", "start", "suspicion", "hands", "deck", "phase", "turn", "inquisitor"})


def new_state(state: State) -> None:
    """Fill ``state`` (which holds players, rng, log, options) with a fresh game."""
    n = len(state["players"])
    deck = data.full_deck()
    ids = [f"c{i + 1}" for i in range(len(deck))]
    rng.shuffle(state, ids)
    state.update({
        "phase": 1, "round": 1, "inquisitor": None, "turn": 0, "turns_left": n,
        "villagers": {}, "cards": {cid: [k, v] for cid, (k, v) in zip(ids, deck, strict=True)},
        "hands": [[] for _ in range(n)], "deck": [], "discard": [], "removed": [],
        "kept": [[] for _ in range(n)], "taken": [[] for _ in range(n)],
        "empty_stakes": [[] for _ in range(n)], "accusers_used": [], "done": [],
        "window": None, "interrupted": None, "choice": None, "protected": None, "windows": 0,
        "outcome": None,
    })
    scenario = state["options"].get("scenario")
    if scenario is None:
        _deal(state, ids)
    else:
        _stack(state, scenario, ids)


def _deal(state: State, ids: list[str]) -> None:
    n = len(state["players"])
    pool = data.villagers_for(n)
    rng.shuffle(state, pool)
    stakes = data.stake_pool()
    rng.shuffle(state, stakes)
    for i, vid in enumerate(pool[:n * data.PER_PLAYER]):
        _place(state, vid, i // data.PER_PLAYER, stakes[i], stakes[i])
    order = list(ids)
    rng.shuffle(state, order)
    state["deck"] = order
    for seat in range(n):
        for _ in range(data.HAND_SIZE):
            state["hands"][seat].append(state["deck"].pop())
    state["turn"] = state["villagers"]["berta"]["owner"] if "berta" in state["villagers"] else 0


def _place(state: State, vid: str, owner: int, start: int, suspicion: int) -> None:
    state["villagers"][vid] = {"owner": owner, "start": start,
                               "suspicion": max(start, min(data.TOP, suspicion)), "alive": True}


def _stack(state: State, sc: Any, ids: list[str]) -> None:
    n = len(state["players"])
    if not isinstance(sc, dict) or "villagers" not in sc or set(sc) - SCENARIO_KEYS:
        raise IllegalAction("scenario_shape", keys=sorted(SCENARIO_KEYS))
    rows = sc["villagers"]
    if not isinstance(rows, list) or len(rows) != n:
        raise IllegalAction("scenario_villagers")
    starts = dict(sc.get("start") or {})
    suspicion = dict(sc.get("suspicion") or {})
    stakes = data.stake_pool()
    for v in starts.values():
        if v in stakes:
            stakes.remove(v)
    rng.shuffle(state, stakes)
    for seat, row in enumerate(rows):
        for vid in row:
            if vid not in data.VILLAGERS or vid in state["villagers"]:
                raise IllegalAction("scenario_villager", villager=str(vid))
            start = starts[vid] if vid in starts else (stakes.pop() if stakes else 1)
            _place(state, vid, seat, start, suspicion.get(vid, start))
    # card instances by (kind, value), each id used once
    free: dict[tuple[str, int], list[str]] = {}
    for cid in ids:
        free.setdefault(tuple(state["cards"][cid]), []).append(cid)

    def take(spec: Any) -> str:
        key = data.parse_spec(str(spec))
        if not free.get(key):
            raise IllegalAction("scenario_no_copy", spec=str(spec))
        return free[key].pop(0)

    hands = sc.get("hands") or [[] for _ in range(n)]
    if len(hands) != n:
        raise IllegalAction("scenario_hands")
    for seat, hand in enumerate(hands):
        state["hands"][seat] = [take(s) for s in hand]
    if "deck" in sc:
        top_first = [take(s) for s in sc["deck"]]
        state["removed"] = [c for group in free.values() for c in group]
    else:
        top_first = [c for group in free.values() for c in group]
        rng.shuffle(state, top_first)
    state["deck"] = top_first[::-1]
    phase = sc.get("phase", 1)
    if phase not in (1, 2, 3, 4):
        raise IllegalAction("scenario_phase")
    inq = sc.get("inquisitor")
    if inq is not None and inq not in range(n):
        raise IllegalAction("scenario_inquisitor")
    if inq is None and phase in (2, 3):
        inq = sc.get("turn", 0)
    turn = sc.get("turn")
    if turn is None:
        if phase == 1:
            turn = state["villagers"]["berta"]["owner"] if "berta" in state["villagers"] else 0
        else:
            turn = inq if inq is not None else 0
    if turn not in range(n):
        raise IllegalAction("scenario_turn")
    state.update({"phase": phase, "inquisitor": inq, "turn": turn, "turns_left": n})
