"""Hexenhammer views made by the real engine from a stacked scenario and real actions (no host,
nothing written by hand, so they cannot drift from what the engine sends): for screen tests and
snapshots, and for looking (``python -m tests.client.harness [your_turn|reaction|over]``)."""

from __future__ import annotations

import random
from typing import Any

from hexnet.engine import State
from hexnet.games.hexenhammer import GAME, POLICIES

PLAYERS = ["Ada", "Bela", "Cora", "Dan"]
Views = tuple[dict[str, Any], list[dict[str, Any]]]

# (villager, seat, stake's start, suspicion now)
VILLAGERS = [
    ("karl", 0, 3, 7), ("maria", 0, 2, 2), ("luitger", 0, 4, 6), ("heinbichl", 1, 1, 5),
    ("berta", 1, 5, 5), ("theresa", 1, 2, 14), ("raphael", 2, 3, 3), ("bertram", 2, 1, 17),
    ("markwart", 2, 4, 6), ("griseldis", 3, 6, 6), ("katharina", 3, 2, 11), ("tochter", 3, 3, 4)]

# Bela begins round 1; Ada holds three brown cards, a yellow one and two reactions.
SCENARIO = {
    "villagers": [[v for v, seat, *_ in VILLAGERS if seat == s] for s in range(4)],
    "start": {v: start for v, _seat, start, _now in VILLAGERS},
    "suspicion": {v: now for v, _seat, _start, now in VILLAGERS},
    "hands": [["verleumdung", "falsches_zeugnis:3", "ableugnung", "gegenanklage", "spende:2",
               "keyne_inquisition"],
              ["verleumdung", "falsches_zeugnis:3", "beweys:1", "spende:1", "widerruf"],
              ["beweys:2", "ableugnung", "advocatus", "verwechslung", "spende:1"],
              ["falsches_zeugnis:4", "beweys:1", "geteyltes_leyd", "wasserprobe_sinkt"]],
    "turn": 1,
}


def card(state: State, seat: int, kind: str) -> str:
    """The id of the first ``kind`` card in ``seat``'s hand."""
    return next(c for c in state["hands"][seat] if state["cards"][c][0] == kind)


def accuse(state: State, seat: int, kind: str, accuser: str, target: str) -> None:
    """``seat`` plays its ``kind`` card, ``accuser`` naming ``target``; nobody answers."""
    GAME.apply(state, seat, {"type": "play", "card": card(state, seat, kind),
                             "accuser": accuser, "target": target})
    while state["window"] is not None:
        for asked in list(state["window"]["pending"]):
            GAME.apply(state, asked, {"type": "pass"})


def start() -> State:
    return GAME.setup(PLAYERS, 7, {"scenario": SCENARIO})


def your_turn_state() -> State:
    """Bela, Cora and Dan each play a brown card and end their turns: Ada's turn, phase 1."""
    state = start()
    accuse(state, 1, "verleumdung", "theresa", "bertram")
    GAME.apply(state, 1, {"type": "pass"})
    accuse(state, 2, "ableugnung", "raphael", "theresa")
    GAME.apply(state, 2, {"type": "pass"})
    accuse(state, 3, "falsches_zeugnis", "katharina", "luitger")
    GAME.apply(state, 3, {"type": "pass"})
    assert GAME.waiting_for(state) == [0] and state["phase"] == 1
    return state


def your_turn_view() -> Views:
    """Phase 1, Ada (seat 0) to act: brown cards to play, the Inquisition to call, or pass."""
    state = your_turn_state()
    return GAME.view(state, 0), GAME.legal_actions(state, 0)


def reaction_view() -> Views:
    """Bela's Heinbichl accuses Ada's Karl with Falsches Zeugnis +3; Ada, holding
    Gegenanklage, is asked (timed) with the others."""
    state = start()
    GAME.apply(state, 1, {"type": "play", "card": card(state, 1, "falsches_zeugnis"),
                          "accuser": "heinbichl", "target": "karl"})
    assert 0 in state["window"]["pending"] and GAME.deadline(state) is not None
    return GAME.view(state, 0), GAME.legal_actions(state, 0)


def over_view() -> Views:
    """From Ada's turn, heuristic bots play every seat to the end: the score breakdown."""
    state = your_turn_state()
    choose = POLICIES["heuristic"]
    rnd = random.Random(7)
    for _ in range(20_000):
        if GAME.outcome(state) is not None:
            break
        waiting = GAME.waiting_for(state)
        if not waiting:
            GAME.apply(state, None, {"type": "timeout", "key": GAME.deadline(state).key})
            continue
        seat = waiting[0]
        legal = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, choose(GAME.view(state, seat), legal, rnd))
    assert GAME.outcome(state) is not None
    return GAME.view(state, 0), []
