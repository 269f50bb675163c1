"""Hexenhammer (3–5 players): accusations, out-of-turn reactions, a panic phase, trials.

``GAME`` is the engine, ``POLICIES`` the bots (``random``, ``heuristic``).
"""

from hexnet.games.hexenhammer.bots import POLICIES
from hexnet.games.hexenhammer.game import GAME

__all__ = ["GAME", "POLICIES"]
