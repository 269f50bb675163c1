"""Fang die Hexe (4–12 players): find the witches among the magic cats.

The engine is split by concern: ``setup`` (options, deal, scenario, ready), ``day`` (morning,
picks, guard, witches' window, end of day), ``evening`` (announcement, talk, seer, pickpocket),
``night`` (chief, proposal, votes, ritual, pause), ``wins``, ``view`` and ``bots``; ``sample``
and ``belief`` build the search bot's determinizations, ``search`` configures it.
"""

from hexnet import levels
from hexnet.games.fang import data, sample
from hexnet.games.fang.bots import POLICIES, choose_heuristic
from hexnet.games.fang.deduction import choose_normal
from hexnet.games.fang.game import GAME, FangGame
from hexnet.games.fang.search import (
    HARD,
    SEARCH,
    SEARCH_VILLAGE,
    SEARCH_WITCHES,
    SidePolicy,
)

FangGame.sample_state = sample.sample_state  # the determinization lives in sample.py
POLICIES["search"] = SEARCH
POLICIES["search-village"] = SEARCH_VILLAGE  # search on the village side, heuristic elsewhere
POLICIES["search-witches"] = SEARCH_WITCHES  # search on the witches' side, heuristic elsewhere
# Fang's easy slips at a quarter of its choices: without the belief it is far below normal already
EASY_SLIP = 0.25
POLICIES.update(levels.levels(easy=choose_heuristic, normal=choose_normal, hard=HARD,
                              slip=EASY_SLIP))
# the belief on one side only (the other plays the heuristic): what the belief is worth
POLICIES["normal-village"] = SidePolicy(data.VILLAGE, choose_normal)
POLICIES["normal-witches"] = SidePolicy(data.WITCHES, choose_normal)

__all__ = ["GAME", "POLICIES"]
