"""Bot policies for Hranice (they see only the view)."""

from __future__ import annotations

import random
from typing import Any


def choose_heuristic(view: dict[str, Any], legal: list[dict[str, Any]],
                     rng: random.Random) -> dict[str, Any]:
    """Placeholder: first legal action."""
    return legal[0]
