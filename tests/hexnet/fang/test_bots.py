"""The heuristic bot plays its side from its view only."""

from __future__ import annotations

import random

from hexnet.games.fang import GAME, POLICIES
from tests.hexnet.fang.helpers import (
    FIVE,
    act,
    confirm_all,
    lay,
    pass_pause,
    pick_all,
    propose,
    table,
    to_night,
    vote_proposal,
)

heuristic = POLICIES["heuristic"]


def choose(state, seat):
    return heuristic(GAME.view(state, seat), GAME.legal_actions(state, seat), random.Random(1))


def test_witch_attacks_at_the_place_where_most_cats_were_counted() -> None:
    state = table(FIVE)
    pick_all(state, {1: "brunnen", 2: "brunnen", 3: "brunnen", 4: "wald"})
    assert choose(state, 0) == {"type": "witch_place", "place": "brunnen"}


def test_witch_sabotages_a_ritual_she_sits_in_with_fluchkraut() -> None:
    state = table(FIVE, required=["pilz", "pilz"])
    to_night(state)
    propose(state, [0, 3])
    vote_proposal(state)
    confirm_all(state)
    assert choose(state, 0) == {"type": "lay", "card": "fluchkraut"}


def test_village_cat_lays_the_required_ingredient_when_it_has_one() -> None:
    state = table(FIVE, required=["salbei", "pilz"], hands=[[], [], [], ["mehl", "salbei"]])
    to_night(state, {3: "brunnen"})
    propose(state, [3, 4])
    vote_proposal(state)
    confirm_all(state)
    salbei = [c["id"] for c in state["hands"][3] if c["ing"] == "salbei"][0]
    assert choose(state, 3) == {"type": "lay", "card": salbei}


def test_seer_rejects_a_proposal_with_the_witch_she_found_and_votes_for_her() -> None:
    state = table(FIVE, required=["pilz", "pilz"])
    to_night(state)
    act(state, 1, type="see", target=0)
    propose(state, [0, 3])
    assert choose(state, 1) == {"type": "vote_proposal", "yes": False}
    vote_proposal(state)
    confirm_all(state)
    lay(state, 0, "fluchkraut")
    lay(state, 3, "pilz")
    confirm_all(state)
    pass_pause(state)
    assert choose(state, 1) == {"type": "vote", "target": 0}


def test_bot_keeps_its_pick_when_asked_again() -> None:
    state = table(FIVE)
    act(state, 3, type="pick", place="kraeutergarten")
    assert choose(state, 3) == {"type": "pick", "place": "kraeutergarten"}


def test_fool_lays_a_wrong_card_to_look_guilty() -> None:
    from tests.hexnet.fang.helpers import NINE

    state = table(NINE, required=["pilz"] * 3, hands=[[]] * 7 + [["mehl"]])
    to_night(state)
    propose(state, [3, 7, 8])
    vote_proposal(state)
    confirm_all(state)
    mehl = [c["id"] for c in state["hands"][7] if c["ing"] == "mehl"][0]
    assert choose(state, 7) == {"type": "lay", "card": mehl}
