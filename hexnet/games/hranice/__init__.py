"""Hranice (the pyre): an inquisitor card game with dice, a pyre and reactions, 2–6 players.

Rules: ``seeds/rules/hranice.md``; deck and numbers: ``seeds/hranice.toml``.
"""

from hexnet.bots import choose_random
from hexnet.games.hranice.bots import choose_heuristic
from hexnet.games.hranice.game import Hranice

GAME = Hranice()
POLICIES = {"random": choose_random, "heuristic": choose_heuristic}

__all__ = ["GAME", "POLICIES"]
