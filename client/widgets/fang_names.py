"""Fang die Hexe's words for ids in a view: places, ingredients, roles, sides, forms and spells,
from the game's catalog in the reader's language (an id without an entry reads as itself).

Which place yields which ingredient and which side a role plays for are the game's data
(``seeds/fang.toml``). Nothing here knows a rule.
"""

from __future__ import annotations

import functools
from typing import Any

from hexnet import i18n
from hexnet.i18n import N_, _
from hexnet.seeds import table

GAME = "fang"
# What each role does (rules-fang.md, ch. 6), shown on your role card and in the help.
ROLE_POWERS = {
    "dorfkatze": N_("No power: find the witches and win the vote."),
    "kraeuterkundige": N_("By day you may pick a frog instead of a place: it turns back into "
                          "a cat at the end of the day (unless you were turned first)."),
    "taschendieb": N_("Once a day, from evening until the proposal vote: s steals a random "
                      "ingredient from another cat; nobody is told."),
    "beschuetzer": N_("By day you may guard a place: nobody there can be attacked (not the same "
                      "place two days running; guarding, you collect nothing)."),
    "seherin": N_("Once a day, from evening until the vote: s shows whether another cat is a "
                  "witch (the crow and the fool read \"not a witch\")."),
    "hexe": N_("Each day you pick a place, maybe a spell, and a cat to attack: it becomes a "
               "frog if it is at your place and the place is not guarded. Fluchkraut spoils a "
               "ritual."),
    "kraehe": N_("You play for the witches and know them (they do not know you); you read "
                 "\"not a witch\". Fluchkraut spoils a ritual."),
    "narr": N_("You win alone the moment the vote banishes you; you read \"not a witch\"."),
}


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


def role_power(rid: Any) -> str:
    """What role ``rid`` does, in a sentence ("" for an unknown role)."""
    return _(ROLE_POWERS[rid]) if rid in ROLE_POWERS else ""
