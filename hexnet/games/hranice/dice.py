"""Dice: the roll (from the seeded generator, or a scenario's stacked dice) and its modifiers.

A check is kept in the step as plain data so a reaction can change it between the roll and the
result: ``die`` (the face that counts), ``rolls`` (every face rolled, rerolls after the first),
``mods`` ([[card kind, value], …]: the council citizens and cards that add to the roll),
``defence`` and ``defence_mods`` likewise, and ``strict`` (cleansing needs more than the
defence, accusing at least the defence). The events carry the check as data; the formula
"rolled 2 +1 Soudce = 3 ≥ 3 +1 Kovář" is written at the edge (``hranice.words``).
"""

from __future__ import annotations

from typing import Any

from hexnet import rng
from hexnet.engine import State
from hexnet.games.hranice import cards


def roll(state: State) -> int:
    """The next die: a stacked scenario die if any is left, else the seeded generator."""
    if state["dice"]:
        return state["dice"].pop(0)
    return rng.roll(state, cards.rule("die"))


def total(check: dict[str, Any]) -> int:
    """The die plus every modifier."""
    return check["die"] + sum(v for _, v in check["mods"])


def needed(check: dict[str, Any]) -> int:
    """The defence plus its bonuses."""
    return check["defence"] + sum(v for _, v in check["defence_mods"])


def succeeds(check: dict[str, Any]) -> bool:
    """Accusation: total ≥ defence; cleansing: total > defence."""
    if check["strict"]:
        return total(check) > needed(check)
    return total(check) >= needed(check)


def new_check(state: State, mods: list[list[Any]], defence: int,
              defence_mods: list[list[Any]], strict: bool) -> dict[str, Any]:
    """Roll a die and return the check it starts."""
    die = roll(state)
    return {"die": die, "rolls": [die], "mods": mods, "defence": defence,
            "defence_mods": defence_mods, "strict": strict}


def council_mods(state: State, seat: int, key: str) -> list[list[Any]]:
    """The roll bonuses of the seat's council for ``key`` (accuse_bonus / cleanse_bonus)."""
    out = []
    for card in state["councils"][seat]:
        bonus = int(cards.ability(card, key))
        if bonus:
            out.append([cards.kind_of(card), bonus])
    return out
