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
# easy slips at half its choices: slipping at a quarter it stayed too close to normal for a
# ladder to part them (480 Swiss rounds beside hard@64p: normal placed above easy 293 times to
# 148, the ratings' intervals overlapping); beside two normal bots, normal placed above easy in
# 71% of 3-seat games at a quarter, in 77% at a half (450 games each, every seating order)
EASY_SLIP = 0.5
POLICIES.update(levels.levels(easy=choose_heuristic, normal=choose_normal, hard=SEARCH,
                              slip=EASY_SLIP))

__all__ = ["GAME", "POLICIES"]
