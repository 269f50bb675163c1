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
# Hranice's dice forgive a slip a quarter of the time: beside two heuristics, the heuristic
# placed above itself slipping at 1/4 of its choices in 61% of 3-seat games, at 1/2 in 68%
# (480 games each, every seating order); easy slips at half its choices so that the levels part
EASY_SLIP = 0.5
POLICIES = {"random": choose_random, "heuristic": choose_heuristic, "search": SEARCH,
            **levels.levels(easy=choose_heuristic, normal=choose_heuristic, hard=SEARCH,
                            slip=EASY_SLIP)}

__all__ = ["GAME", "POLICIES"]
