"""How each kind of seat behaves, as the belief reads it: the behaviour model of Fang's roles.

The belief (:mod:`hexnet.games.fang.belief`) weighs every role assignment by how likely the
public record is under it: a "yes" on a circle, a ritual that failed, a vote, a frog. Those
likelihoods are per *class* of seat — village (every village role), witch, crow, fool — and are
fitted from selfplay (``python -m hexnet.tools.fang_behaviour``) into
``seeds/fang_behaviour.toml``; clipped away from 0 and 1 so that a seat playing unlike the
bots (a person) bends the belief instead of breaking it.
"""

from __future__ import annotations

import functools
from typing import Any

from hexnet import seeds
from hexnet.games.fang import data

VILLAGE, WITCH, CROW, FOOL = 0, 1, 2, 3
CLASSES = ("village", "witch", "crow", "fool")
# no behaviour is likelier than 1 − FLOOR or rarer than FLOOR. The model is fitted from the hard
# bots; at 0.02, facing witches who play otherwise (the heuristic's), a village seat's belief at
# 6 seats put the real witches at 0.27 on day 1's vote and the innocent cats at about 0.5, and
# the village with the belief won less often than without it at 6, 7, 10 and 12 seats. A sweep
# of 0.1, 0.15, 0.2 and 0.3 (studies/fang-belief-margin) chose 0.2: the belief's village wins
# more than the same village without it against either kind of witches at every size.
FLOOR = 0.2
FILE = "fang_behaviour"
KEYS = ("yes_clean_in", "yes_clean_out", "yes_dirty_in", "yes_dirty_out", "spoils", "abstains",
        "votes_witch", "turned")


def clip(p: float) -> float:
    """``p`` kept inside [FLOOR, 1 − FLOOR]."""
    return min(1.0 - FLOOR, max(FLOOR, p))


@functools.cache
def model() -> dict[str, Any]:
    """The fitted model: for each class, ``yes_clean_in`` / ``yes_clean_out`` /
    ``yes_dirty_in`` / ``yes_dirty_out`` (a "yes" on a circle without / with a witch or the crow
    in it, by a voter in / outside the circle: a cat trusts a circle it sits in more), ``spoils``
    (a ritual member whose card fails it), ``abstains`` and ``votes_witch`` (a banishment vote:
    abstained; else, for a witch), ``turned`` (made a frog on a given day)."""
    raw = seeds.table(FILE)
    return {name: {k: clip(float(v)) for k, v in raw[name].items()} for name in CLASSES}


def table(key: str) -> list[float]:
    """One behaviour by class index (village, witch, crow, fool)."""
    m = model()
    return [m[name][key] for name in CLASSES]


def class_of(role: str) -> int:
    """The behaviour class of a role."""
    return {data.WITCH: WITCH, data.CROW: CROW, data.FOOL_ROLE: FOOL}.get(role, VILLAGE)
