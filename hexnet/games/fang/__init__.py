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
from hexnet.games.fang.game import FangGame
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
POLICIES.update(levels.levels(easy=choose_heuristic, normal=choose_normal, hard=HARD))
# the belief on one side only (the other plays the heuristic): what the belief is worth
POLICIES["normal-village"] = SidePolicy(data.VILLAGE, choose_normal)
POLICIES["normal-witches"] = SidePolicy(data.WITCHES, choose_normal)

GAME = FangGame(
    name="fang",
    title="Fang die Hexe",
    min_players=4,
    max_players=12,
    round_field="day",
    options_help={
        "pace": "relaxed | normal | quick: the timed windows' seconds",
        "time_limits": "true/false: run the timers for picks, talk, proposals and votes",
        "pick_seconds": "place pick (and guard) time limit, default 60",
        "witches_seconds": "the witches' window, always timed, default 15",
        "talk_seconds": "evening talk time limit, default 180",
        "proposal_seconds": "the chief's proposal time limit, default 60",
        "proposal_vote_seconds": "proposal vote time limit, default 30",
        "vote_seconds": "banishment vote time limit, default 60",
        "pause_seconds": "the 'who was it?!' pause before the vote, default 4",
        "max_changes": "how often a seat may send a pick or vote in one scene, default 3",
        "deal": "standard | balanced: the role table by player count (balanced: the issue 17 "
                "balance study's changes), default standard",
        "roles": "a role list to deal instead of the table's (padded with Dorfkatzen)",
        "scenario": "a fixed starting position for tests and tutorials (see the rules text)",
    },
)

__all__ = ["GAME", "POLICIES"]
