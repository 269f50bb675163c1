"""Fang die Hexe (4–12 players): find the witches among the magic cats.

The engine is split by concern: ``setup`` (options, deal, scenario, ready), ``day`` (morning,
picks, guard, witches' window, end of day), ``evening`` (announcement, talk, seer, pickpocket),
``night`` (chief, proposal, votes, ritual, pause), ``wins``, ``view`` and ``bots``; ``sample``
and ``belief`` build the search bot's determinizations, ``search`` configures it.
"""

from hexnet.games.fang import sample
from hexnet.games.fang.bots import POLICIES
from hexnet.games.fang.game import GAME, FangGame
from hexnet.games.fang.search import SEARCH, SEARCH_VILLAGE, SEARCH_WITCHES

FangGame.sample_state = sample.sample_state  # the determinization lives in sample.py
POLICIES["search"] = SEARCH
POLICIES["search-village"] = SEARCH_VILLAGE  # search on the village side, heuristic elsewhere
POLICIES["search-witches"] = SEARCH_WITCHES  # search on the witches' side, heuristic elsewhere

__all__ = ["GAME", "POLICIES"]
