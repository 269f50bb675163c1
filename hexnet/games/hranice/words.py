"""Hranice's own format specs for its catalog templates (see :mod:`hexnet.i18n.render`).

``{rolls:dice}`` the whole die check of an accusation or cleansing, from the event's ``rolls``,
``mods``, ``defence``, ``defence_mods`` and ``strict``: "rolled 2, rerolled 5 +1 Soudce = 6 ≥ 3
+1 Kovář" (a formula: the catalog gives "rolled"/"rerolled", the rest is numbers and card
names). ``{s:sign}`` a reaction's +1 / −1; ``{d:raised}`` a citizen's defence where a bonus
raises it above its influence (``Rolník 2(3)``), nothing otherwise.
"""

from __future__ import annotations

from typing import Any

from hexnet.games.hranice import cards


def _mods(words: Any, mods: Any) -> str:
    return "".join(f" {'+' if v >= 0 else '−'}{abs(v)} {words.word('card', kind)}"
                   for kind, v in mods or [])


def dice(words: Any, rolls: Any) -> str:
    args = words.args
    rolls = list(rolls or [])
    parts = [words.phrase("rolled", die=rolls[0])] if rolls else []
    parts += [words.phrase("rerolled", die=again) for again in rolls[1:]]
    mods = args.get("mods") or []
    left = ", ".join(parts) + _mods(words, mods)
    if mods:
        left += f" = {sum(rolls[-1:]) + sum(v for _, v in mods)}"
    right = f"{args.get('defence')}{_mods(words, args.get('defence_mods'))}"
    return f"{left} {'>' if args.get('strict') else '≥'} {right}"


def sign(words: Any, value: Any) -> str:
    return "+1" if value == 1 else "−1"


def raised(words: Any, defence: Any) -> str:
    """``(5)`` after a citizen's influence when its defence is raised above it, else ""."""
    return f"({defence})" if defence != words.args.get("influence") else ""


SPECS = {"dice": dice, "sign": sign, "raised": raised}


# The ids each name context of the catalog holds (checked by hexnet.i18n.check).
NAMES = {
    "card": cards.kinds, "card_long": cards.kinds, "card_text": cards.kinds,
    "card_type": lambda: cards.TYPES,
    "variant": lambda: cards.data()["variants"],
    "result": lambda: ["win", "turn_cap"],  # the outcome's result
    "expiry": lambda: ["react", "turn"],  # the reaction prompt's and the turn timer's on_expiry
}
