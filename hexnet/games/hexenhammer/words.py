"""Hexenhammer's own format specs for its catalog templates (see :mod:`hexnet.i18n.render`).

``{v:villager}`` a villager with its owner, ``Karl (Anna)`` (the event's ``owners`` map says
whose); ``{v:villagers}`` a list of them; ``{v:short}`` the villager alone; ``{k:label}`` a card
as printed — name and value, ``±`` for a card whose sign the player chooses (``Spende ±1``);
``{k:played}`` a card as played — name and signed value (reactions and trials: the name); both
read the event's ``value``. ``{s:stakes}`` the villagers on each player's stakes,
``{s:scores}`` each player's points.
"""

from __future__ import annotations

from typing import Any

from hexnet.games.hexenhammer import data


def villager(words: Any, vid: Any) -> str:
    owner = (words.args.get("owners") or {}).get(vid)
    name = words.word("villager", vid)
    if owner is None:
        return name
    return words.phrase("villager_owner", villager=name, owner=words.seat(owner))


def villagers(words: Any, vids: Any) -> str:
    return words.listing([villager(words, v) for v in vids or []])


def short(words: Any, vid: Any) -> str:
    return words.word("villager", vid)


def _valued(words: Any, kind: Any, signed_as_printed: bool) -> str:
    name = words.word("card", kind)
    card = data.CARDS.get(kind)
    value = words.args.get("value")
    if card is None or not isinstance(value, int) or card["colour"] == "green" or card.get(
            "reaction"):
        return name
    if card.get("signed") and signed_as_printed:
        return f"{name} ±{abs(value)}"
    return f"{name} {value:+d}"


def label(words: Any, kind: Any) -> str:
    return _valued(words, kind, signed_as_printed=True)


def played(words: Any, kind: Any) -> str:
    return _valued(words, kind, signed_as_printed=False)


def stakes(words: Any, rows: Any) -> str:
    return "; ".join(
        f"{words.seat(seat)}: " + ", ".join(f"{short(words, vid)} ({value})" for vid, value in row)
        for seat, row in enumerate(rows or []))


def scores(words: Any, points: Any) -> str:
    return "; ".join(f"{words.seat(seat)} {total}" for seat, total in enumerate(points or []))


SPECS = {"villager": villager, "villagers": villagers, "short": short, "label": label,
         "played": played, "stakes": stakes, "scores": scores}

# The ids each name context of the catalog holds (checked by hexnet.i18n.check).
NAMES = {
    "card": lambda: data.CARDS, "card_text": lambda: data.CARDS,
    "villager": lambda: data.VILLAGERS, "villager_full": lambda: data.VILLAGERS,
    "ability": lambda: data.VILLAGERS,
    "phase": lambda: ["1", "2", "3", "4", "over"],  # the view's phase; "over" at the end
    "expiry": lambda: ["window", "panic", "turn"],  # the deadlines' on_expiry
}
