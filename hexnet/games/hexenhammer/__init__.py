"""Hexenhammer (3–5 players): accusations, out-of-turn reactions, a panic phase, trials.

``GAME`` is the engine, ``POLICIES`` the bots (``random``, ``heuristic``, ``search`` and the
levels ``easy``, ``normal``, ``hard``).
"""

from hexnet import levels
from hexnet.games.hexenhammer import sample
from hexnet.games.hexenhammer.bots import POLICIES, choose_heuristic, choose_normal
from hexnet.games.hexenhammer.game import GAME, Hexenhammer
from hexnet.games.hexenhammer.search import SEARCH

Hexenhammer.sample_state = sample.sample_state  # the determinization lives in sample.py
POLICIES["search"] = SEARCH
POLICIES.update(levels.levels(easy=choose_heuristic, normal=choose_normal, hard=SEARCH))

__all__ = ["GAME", "POLICIES"]
