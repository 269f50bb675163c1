"""Fang die Hexe's words for ids in a view: places, ingredients, roles, sides, forms and spells,
from the game's catalog in the reader's language (an id without an entry reads as itself).

Which place yields which ingredient and which side a role plays for are the game's data
(``seeds/fang.toml``). Nothing here knows a rule.
"""

from __future__ import annotations

import functools
from typing import Any

from hexnet import i18n
from hexnet.seeds import table

GAME = "fang"


@functools.cache
def _data() -> dict[str, Any]:
    return table(GAME)


def place(pid: Any) -> str:
    """``Kräutergarten`` for ``kraeutergarten``; the pond too."""
    return i18n.word(GAME, "place", pid)


def ingredient(iid: Any) -> str:
    """``Quellwasser`` for ``quellwasser``; Fluchkraut and the empty hand too."""
    return i18n.word(GAME, "ingredient", iid)


def ingredient_of(pid: Any) -> str | None:
    """The ingredient's word collected at place ``pid`` (None for the pond)."""
    row = next((p for p in _data()["places"] if p["id"] == pid), None)
    return ingredient(row["ingredient"]) if row else None


def role(rid: Any) -> str:
    """The role's name (``Hexe``; in Hungarian ``Boszorkány``)."""
    return i18n.word(GAME, "role", rid)


def role_long(rid: Any) -> str:
    """The role with a gloss where the name is foreign to the reader (``Hexe (witch)``)."""
    return i18n.word(GAME, "role_long", rid)


def side(rid: Any) -> str:
    """The side of role ``rid``: village, witches or fool (an id)."""
    row = _data()["roles"].get(str(rid))
    return str(row["side"]) if row else ""


def side_words(sid: Any) -> str:
    """A side in words (``the village``)."""
    return i18n.word(GAME, "side", sid)


def form(fid: Any) -> str:
    """A seat's form in words (``frog``)."""
    return i18n.word(GAME, "form", fid)


def spell(sid: Any) -> str:
    """The spell's name; ``none`` reads as no spell."""
    return i18n.word(GAME, "spell", sid)


def spell_text(sid: Any) -> str:
    """What a spell does ("" for no spell)."""
    return "" if sid == "none" else i18n.word(GAME, "spell_text", sid)


def scene(name: Any) -> str:
    """A scene of the day in a few words (``night · the vote``)."""
    return i18n.word(GAME, "scene", name)
