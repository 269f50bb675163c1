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
# Hranice's easy slips at three quarters of its choices: the dice forgive a slip, and at half
# (levels.SLIP) a 1,200-round ladder left normal's and easy's intervals overlapping though
# normal placed above easy 725 tables to 380 (studies/level-ladders). Beside two heuristics, in
# every seating order (900 games a rate), the heuristic placed above easy in 67% of the games at
# a half, 74% at three quarters, and easy came first in 117 and 74 of them
EASY_SLIP = 0.75
POLICIES = {"random": choose_random, "heuristic": choose_heuristic, "search": SEARCH,
            **levels.levels(easy=choose_heuristic, normal=choose_heuristic, hard=SEARCH,
                            slip=EASY_SLIP)}

__all__ = ["GAME", "POLICIES"]
