"""What a seat may see: the table, its own hand, and nothing of other hands or the pile.

The one exception is Výslech: while its player picks the card to discard, that player (only)
sees the looked-at hand under ``peek``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hexnet.engine import State, copy_tree
from hexnet.games.hranice import board, cards
from hexnet.games.hranice.setup import option


def public(state: State) -> dict[str, Any]:
    """What every seat (and a spectator) sees alike."""
    councils = state["councils"]
    window = state["window"]
    step = state["step"]
    v: dict[str, Any] = {
        "target": state["target"],
        "turn": state["turn"],
        "actions_left": state["actions_left"],
        "turns": state["turns"],
        "first_player": state["first_player"],
        "manual_flip": option(state, "manual_flip"),
        "hand_sizes": [len(h) for h in state["hands"]],
        "councils": [list(c) for c in councils],
        "defence": board.defences(councils),
        "pyre": list(state["pyre"]),
        "burned": [list(b) for b in state["burned"]],
        "influence": board.influences(state),
        "tokens": list(state["tokens"]),
        "pile_size": len(state["pile"]),
        "discard": list(state["discard"]),
        "window": None,
        "step": copy_tree(step),
    }
    if window is not None and window["pending"]:
        v["window"] = {**copy_tree(window["trigger"]), "asked": window["pending"][0],
                       "order": list(window["order"])}
    return v


def private(state: State, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` sees: its hand, and while it picks what Výslech discards, the
    looked-at hand (``peek``)."""
    v: dict[str, Any] = {"hand": list(state["hands"][seat]) if seat is not None else []}
    step = state["step"]
    if step is not None and step["stage"] == "choose" and seat == step["seat"]:
        v["peek"] = {"player": step["player"], "hand": list(state["hands"][step["player"]])}
    return v


def _total_defence(state: State, card: str) -> int:
    base, bonuses = board.defence(state, card)
    return base + sum(b for _, b in bonuses)


def describe(state: State, seat: int, action: Mapping[str, Any]) -> dict[str, Any]:
    """The label of an action as data (``accuse`` Petr's Kovář 3 (def 4), …)."""
    return action_label(action, seat, lambda card: board.owner_of(state, card),
                        lambda card: _total_defence(state, card))


def action_label(action: Mapping[str, Any], seat: int | None,
                 owner_of: Callable[[str], int | None],
                 defence_of: Callable[[str], int]) -> dict[str, Any]:
    """An action's label as data (catalog context ``action``), for ``seat``'s reader (its own
    citizens read "your"): ``owner_of`` says whose council holds a citizen (None: the pyre)
    and ``defence_of`` its defence with bonuses — from the state, or from a seat's view."""
    kind = action.get("type")
    card, target, player = action.get("card"), action.get("target"), action.get("player")
    if kind in ("draw", "pass"):
        return {"key": "draw" if kind == "draw" else "pass"}
    if kind in ("flip", "end"):
        return {"key": "flip" if kind == "flip" else "end"}
    if kind == "react":
        if "sign" in action:
            return {"key": "react_sign", "card": card, "sign": action["sign"]}
        return {"key": "react", "card": card}
    if kind == "discard":
        return {"key": "discard", "card": card}
    if isinstance(target, str):
        owner = owner_of(target)
        on = {"target": target, "influence": cards.influence(target)}
        if kind == "cleanse":
            return {"key": "cleanse", **on}
        if owner is None:
            return {"key": "action_pyre", "card": card, **on}
        on.update(owner=owner, defence=defence_of(target))
        if kind == "accuse":
            return {"key": "accuse_own" if owner == seat else "accuse", **on}
        return {"key": "action_citizen_own" if owner == seat else "action_citizen", "card": card,
                **on}
    if isinstance(player, int):
        return {"key": "citizen_rob" if kind == "citizen" else "action_player", "card": card,
                "player": player}
    return {"key": "play", "card": card}
