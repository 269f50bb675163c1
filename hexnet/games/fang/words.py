"""Fang's own format specs for its catalog templates (see :mod:`hexnet.i18n.render`).

``{v:votes}`` the named votes of a vote (``[[voter, target or None], …]``): "Anna → Bob;
Cili abstains", each entry a catalog phrase.
"""

from __future__ import annotations

from typing import Any

from hexnet.games.fang import data
from hexnet.games.fang.common import STARTERS
from hexnet.games.fang.game import CONFIRM_SCENES


def votes(words: Any, pairs: Any) -> str:
    out = []
    for voter, target in pairs or []:
        if target is None:
            out.append(words.phrase("abstains", voter=words.seat(voter)))
        else:
            out.append(words.phrase("votes_for", voter=words.seat(voter),
                                    target=words.seat(target)))
    return "; ".join(out)


SPECS = {"votes": votes}


def _roles() -> list[str]:
    return data.role_ids()


# The ids each name context of the catalog holds (checked by hexnet.i18n.check).
NAMES = {
    "role": _roles, "role_long": _roles, "role_text": _roles,
    "side": lambda: [data.VILLAGE, data.WITCHES, data.FOOL],
    "place": lambda: [*data.place_ids(), data.pond()],
    "ingredient": lambda: [*data.ingredient_ids(), data.fluchkraut(), data.EMPTY_HAND],
    "spell": lambda: [s["id"] for s in data.tab()["spells"]] + [data.NO_SPELL],
    "spell_text": lambda: [s["id"] for s in data.tab()["spells"]],
    "form": lambda: ["cat", "frog", "banished"],
    "scene": lambda: [s for s in [*STARTERS, *CONFIRM_SCENES] if s != "morning"],
    "expiry": lambda: data.TIMER_KEYS,  # a deadline's on_expiry is its timer
    "phrase": lambda: ["seen_witch", "seen_no_witch"],  # the seer's notes on her role card
}
