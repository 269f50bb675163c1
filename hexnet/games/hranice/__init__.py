"""Hranice (the pyre): an inquisitor card game with dice, a pyre and reactions, 2–6 players.

Rules: ``seeds/rules/hranice.md``; deck and numbers: ``seeds/hranice.toml``.
"""

from hexnet import levels
from hexnet.bots import choose_random
from hexnet.games.hranice import sample
from hexnet.games.hranice.bots import choose_heuristic
from hexnet.games.hranice.game import GAME, Hranice
from hexnet.games.hranice.search import SEARCH

Hranice.sample_state = sample.sample_state  # the determinization lives in sample.py
POLICIES = {"random": choose_random, "heuristic": choose_heuristic, "search": SEARCH,
            **levels.levels(easy=choose_heuristic, normal=choose_heuristic, hard=SEARCH)}

__all__ = ["GAME", "POLICIES"]
