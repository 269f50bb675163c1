"""Bot levels: ``easy``, ``normal`` and ``hard``, the same three names in every game.

A level is a bot policy's name (``get_policy(game, "hard")``), so everything that takes a
policy takes a level: ``hexnet play --level``, ``hexnet bot --level``, host bots, ``hexnet
tournament --bots easy,normal,hard``. Each game says what its levels are:

* **easy** — the game's plain heuristic making human-like slips: now and then (``SLIP``, or the
  game's own rate) it takes another of its legal choices at random instead of its considered one;
* **normal** — the game's best quick play (Fang: the heuristic with the belief; Hexenhammer:
  the heuristic that refreshes its hand in phase 4, where easy's heuristic hoards);
* **hard** — search (Fang: with the belief's determinizations), thinking like ``search``.

A new bot's level is ``normal`` (:data:`DEFAULT`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

LEVELS = ("easy", "normal", "hard")
DEFAULT = "normal"
# easy slips at half its choices: at a quarter it stayed too close to normal for a ladder to part
# them in Hexenhammer (480 Swiss rounds beside hard@64p: normal placed above easy 293 times to
# 148, the ratings' intervals overlapping; beside two other bots, in every seating order,
# normal placed above easy in 71% of 3-seat games at a quarter, 77% at a half). A game may set
# its own rate: Fang a quarter, Hranice, whose dice forgive a slip, three quarters
SLIP = 0.5

Policy = Callable[[Mapping[str, Any], list[dict[str, Any]], random.Random], Any]


class Slips:
    """A policy that makes slips: with probability ``slip`` a random one of the legal actions
    when there is a choice, else ``policy``'s."""

    def __init__(self, policy: Policy, slip: float = SLIP) -> None:
        self.policy = policy
        self.slip = slip

    def __repr__(self) -> str:
        return f"Slips({self.policy!r}, {self.slip:g})"

    def __call__(self, view: Mapping[str, Any], legal: list[dict[str, Any]],
                 rng: random.Random) -> Any:
        considered = self.policy(view, legal, rng)
        if len(legal) > 1 and rng.random() < self.slip:
            return rng.choice(legal)
        return considered


def levels(easy: Policy, normal: Policy, hard: Policy, slip: float = SLIP) -> dict[str, Policy]:
    """A game's three levels as policies by name (``easy`` is ``Slips`` of the given one, at
    the game's ``slip`` rate)."""
    return {"easy": Slips(easy, slip), "normal": normal, "hard": hard}


def check_level(text: str) -> str:
    """A ``--level`` value (ValueError with a sentence if it is none of the levels)."""
    if text not in LEVELS:
        raise ValueError(f"the level is one of {', '.join(LEVELS)}, not {text!r}")
    return text
