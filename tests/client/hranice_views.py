"""Hranice views made by the real engine from stacked scenarios and fixed dice (no host): for
snapshots and for looking (``python -m tests.client.hranice_views [table|reaction|over]
[en|hu|de|cs]``)."""

from __future__ import annotations

import sys
from typing import Any

from hexnet.engine import State
from hexnet.games.hranice import GAME
from tests.client.harness import ScreenApp

PLAYERS = ["Ada", "Bela", "Cora", "Dan", "Eva", "Filip"]
Views = tuple[dict[str, Any], list[dict[str, Any]]]

# Six at the table (target 7); Filip begins, accuses Dan's Pradlena onto a pyre of two and
# takes her (+3), then plays a Žebrák; it is Ada's turn.
TABLE = {
    "councils": [["rolnik", "kovar"], ["soudce", "zebrak"], ["knez"],
                 ["rychtar", "pradlena"], ["kat"], []],
    "burned": [[], [], [], [], ["slechtic"], []],
    "pyre": ["zebrak", "rolnik"],
    "hands": [["hostinsky", "muceni", "alibi", "svedek", "zebrak", "udani"],
              ["rolnik", "muceni", "uplatek"], ["pradlena", "protest"],
              ["kovar", "zapaleni"], ["rolnik", "knez"], ["zebrak", "vyslech"]],
    "first_player": 5,
    "dice": [5, 2],
}


def _asked(state: State) -> int | None:
    window = state["window"]
    return window["pending"][0] if window and window["pending"] else None


def citizen(state: State, seat: int, kind: str) -> str:
    """The physical id of the ``kind`` citizen in ``seat``'s council."""
    return next(c for c in state["councils"][seat] if c.startswith(kind + "-"))


def act(state: State, seat: int, action: dict[str, Any]) -> None:
    """Apply ``action`` for ``seat``, then let every reaction prompt it opens pass."""
    GAME.apply(state, seat, action)
    while (asked := _asked(state)) is not None:
        GAME.apply(state, asked, {"type": "pass"})


def table_state() -> State:
    """Ada (seat 0) to act, two actions left; a roll and an ignition in the log."""
    state = GAME.setup(PLAYERS, 7, {"scenario": TABLE})
    act(state, 5, {"type": "accuse", "target": citizen(state, 3, "pradlena")})
    act(state, 5, {"type": "citizen", "card": "zebrak"})
    return state


def table_view() -> Views:
    state = table_state()
    return GAME.view(state, 0), GAME.legal_actions(state, 0)


def reaction_view() -> Views:
    """Bela accuses Ada's Rolník; Ada let the Alibi chance pass; the die says 2 +1 Soudce =
    3 ≥ 2 +1 Kovář: Ada is asked whether to answer the roll (Falešný svědek −1 would save it)."""
    state = table_state()
    act(state, 0, {"type": "draw"})
    act(state, 0, {"type": "citizen", "card": "zebrak"})
    GAME.apply(state, 1, {"type": "accuse", "target": citizen(state, 0, "rolnik")})
    GAME.apply(state, 0, {"type": "pass"})  # the accusation: no Alibi
    while (asked := _asked(state)) not in (0, None):
        GAME.apply(state, asked, {"type": "pass"})
    assert state["window"]["trigger"]["event"] == "roll" and _asked(state) == 0
    return GAME.view(state, 0), GAME.legal_actions(state, 0)


def over_view() -> Views:
    """Eva ignites the pyre with her accusation, turns her token and wins at her next turn."""
    scenario = {**TABLE, "first_player": 4, "dice": [6]}
    state = GAME.setup(PLAYERS, 7, {"scenario": scenario})
    act(state, 4, {"type": "accuse", "target": citizen(state, 3, "pradlena")})
    act(state, 4, {"type": "citizen", "card": "knez"})
    for _ in range(40):
        if state["outcome"] is not None:
            break
        if (asked := _asked(state)) is not None:
            GAME.apply(state, asked, {"type": "pass"})
            continue
        seat = GAME.waiting_for(state)[0]
        legal = GAME.legal_actions(state, seat)
        act(state, seat, next((a for a in legal if a["type"] == "draw"), legal[0]))
    assert state["outcome"] is not None and state["outcome"]["winners"] == [4]
    return GAME.view(state, 0), []


def peek_view() -> Views:
    """Ada's Výslech on Bela went through: Ada sees Bela's hand and picks one to discard."""
    scenario = {"hands": [["vyslech", "zebrak"], ["kovar", "alibi", "rolnik"]]}
    state = GAME.setup(PLAYERS[:2], 7, {"scenario": scenario})
    act(state, 0, {"type": "action", "card": "vyslech", "player": 1})
    return GAME.view(state, 0), GAME.legal_actions(state, 0)


def flip_state() -> State:
    """Manual flip: Eva (seat 4) ends her turn with 8 influence and must flip or end."""
    scenario = {**TABLE, "first_player": 4, "dice": []}
    state = GAME.setup(PLAYERS, 7, {"scenario": scenario, "manual_flip": True})
    act(state, 4, {"type": "draw"})
    act(state, 4, {"type": "draw"})
    return state


def flip_view() -> Views:
    """Eva must flip her dominance token or end her turn."""
    state = flip_state()
    return GAME.view(state, 4), GAME.legal_actions(state, 4)


def flipped_view() -> Views:
    """Eva flipped her token: it is active (●); Ada's turn."""
    state = flip_state()
    act(state, 4, {"type": "flip"})
    return GAME.view(state, 0), GAME.legal_actions(state, 0)


class HraniceViewApp(ScreenApp):
    """Shows the Hranice table from one of the fixed views above; records what it would send."""

    def __init__(self, what: str, lang: str = "en") -> None:
        super().__init__(what, "hranice", sys.modules[__name__], show_lobby=False, lang=lang)


if __name__ == "__main__":
    HraniceViewApp(sys.argv[1] if len(sys.argv) > 1 else "table",
                   sys.argv[2] if len(sys.argv) > 2 else "en").run()
