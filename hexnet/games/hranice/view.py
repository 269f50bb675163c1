"""What a seat may see: the table, its own hand, and nothing of other hands or the pile.

The one exception is Výslech: while its player picks the card to discard, that player (only)
sees the looked-at hand under ``peek``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.engine import State
from hexnet.games.hranice import board, cards
from hexnet.games.hranice.setup import options_of


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The game-specific part of ``seat``'s view (None = spectator)."""
    n = len(state["players"])
    councils = state["councils"]
    window = state["window"]
    step = state["step"]
    v: dict[str, Any] = {
        "target": state["target"],
        "turn": state["turn"],
        "actions_left": state["actions_left"],
        "turns": state["turns"],
        "first_player": state["first_player"],
        "manual_flip": options_of(state)["manual_flip"],
        "hand": list(state["hands"][seat]) if seat is not None else [],
        "hand_sizes": [len(h) for h in state["hands"]],
        "councils": [list(c) for c in councils],
        "defence": {c: _total_defence(state, c) for council in councils for c in council},
        "pyre": list(state["pyre"]),
        "burned": [list(b) for b in state["burned"]],
        "influence": [board.influence(state, s) for s in range(n)],
        "tokens": list(state["tokens"]),
        "pile_size": len(state["pile"]),
        "discard": list(state["discard"]),
        "window": None,
        "step": _copy(step),
    }
    if window is not None and window["pending"]:
        v["window"] = {**_copy(window["trigger"]), "asked": window["pending"][0],
                       "order": list(window["order"])}
    if step is not None and step["stage"] == "choose" and seat == step["seat"]:
        v["peek"] = {"player": step["player"], "hand": list(state["hands"][step["player"]])}
    return v


def _total_defence(state: State, card: str) -> int:
    base, bonuses = board.defence(state, card)
    return base + sum(b for _, b in bonuses)


def _copy(tree: Any) -> Any:
    """A copy of a plain state subtree (dicts, lists, scalars)."""
    if isinstance(tree, dict):
        return {k: _copy(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_copy(v) for v in tree]
    return tree


def describe(state: State, seat: int, action: Mapping[str, Any]) -> str:
    """A short label for a menu: ``Accuse Petr's Kovář (def 4)``."""
    kind = action["type"]
    card = action.get("card")
    target = action.get("target")
    player = action.get("player")
    on = ""
    if target is not None:
        owner = board.owner_of(state, target)
        where = f"{board.who(state, owner)}'s " if owner is not None else "pyre: "
        on = f" {where}{cards.name(target)} ({cards.influence(target)})"
    if player is not None:
        on += f" → {board.who(state, player)}"
    labels = {
        "draw": "Draw a card", "pass": "Pass", "flip": "Flip the dominance token",
        "end": "End the turn without flipping",
        "citizen": f"Play {cards.name(card) if card else ''}",
        "accuse": "Accuse", "cleanse": "Cleanse",
        "action": f"Play {cards.name(card) if card else ''}",
        "react": f"React: {cards.name(card) if card else ''}",
        "discard": f"Discard their {cards.name(card) if card else ''}",
    }
    label = labels.get(kind, kind) + on
    if "sign" in action:
        label += " (+1)" if action["sign"] == 1 else " (−1)"
    return label
