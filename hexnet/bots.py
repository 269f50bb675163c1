"""Policies shared by every game. A policy is ``choose(view, legal_actions, rng) -> action``:
it sees only the seat's view, never the state."""

from __future__ import annotations

import random
from typing import Any


def choose_random(view: dict[str, Any], legal: list[dict[str, Any]],
                  rng: random.Random) -> dict[str, Any]:
    """Uniform over the legal actions (``rng.choice``'s very draw, without its call)."""
    if not legal:  # (_randbelow(0) would never return)
        raise IndexError("no legal action to choose from")
    return legal[rng._randbelow(len(legal))]  # noqa: SLF001


choose_random.reads_view = False  # type: ignore[attr-defined]  # (selfplay builds it no view)
