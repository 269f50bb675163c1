"""Fang die Hexe's words for ids in a view: places, ingredients, roles, sides and spells.

The names come from the game's data (``seeds/fang.toml``); an id without an entry reads as itself.
Nothing here knows a rule.
"""

from __future__ import annotations

import functools
from typing import Any

from hexnet.seeds import table

SIDE_WORDS = {"village": "the village", "witches": "the witches", "fool": "alone (fool)"}
FORM_WORDS = {"cat": "cat", "frog": "frog", "banished": "banished"}
EXTRA_CARDS = {"fluchkraut": "Fluchkraut", "empty": "empty hand"}


@functools.cache
def _data() -> dict[str, Any]:
    return table("fang")


def place(pid: Any) -> str:
    """``Kräutergarten`` for ``kraeutergarten``; the pond too."""
    data = _data()
    if pid == data["pond"]["id"]:
        return str(data["pond"]["name"])
    row = next((p for p in data["places"] if p["id"] == pid), None)
    return str(row["name"]) if row else str(pid)


def ingredient(iid: Any) -> str:
    """``Quellwasser`` for ``quellwasser``; Fluchkraut and the empty hand too."""
    if iid in EXTRA_CARDS:
        return EXTRA_CARDS[str(iid)]
    row = next((p for p in _data()["places"] if p["ingredient"] == iid), None)
    return str(row["ingredient_name"]) if row else str(iid)


def ingredient_of(pid: Any) -> str | None:
    """The ingredient name collected at place ``pid`` (None for the pond)."""
    row = next((p for p in _data()["places"] if p["id"] == pid), None)
    return str(row["ingredient_name"]) if row else None


def role(rid: Any) -> str:
    """The role's German name (``Hexe``)."""
    row = _data()["roles"].get(str(rid))
    return str(row["name"]) if row else str(rid)


def role_long(rid: Any) -> str:
    """``Hexe (witch)``."""
    row = _data()["roles"].get(str(rid))
    return f"{row['name']} ({row['english']})" if row else str(rid)


def side(rid: Any) -> str:
    """The side of role ``rid``: village, witches or fool."""
    row = _data()["roles"].get(str(rid))
    return str(row["side"]) if row else ""


def spell(sid: Any) -> str:
    """The spell's name; ``none`` reads as no spell."""
    row = next((s for s in _data()["spells"] if s["id"] == sid), None)
    return str(row["name"]) if row else ("no spell" if sid == "none" else str(sid))


SPELL_TEXT = {
    "verderben": "spoil what is handed out at your place",
    "fluch": "tonight's curse bar starts at 1",
    "doppelschlag": "a second attack target",
    "none": "",
}
