"""Evening: the duck's announcement and confirmation, the talk, the seer and the pickpocket."""

from __future__ import annotations

from hexnet.games.fang import GAME
from tests.hexnet.fang.helpers import (
    EIGHT,
    FIVE,
    NINE,
    absent,
    act,
    confirm_all,
    end_talk,
    english,
    pick_all,
    propose,
    scene,
    table,
    vote_proposal,
    witch,
    witches_idle,
)


def _evening(roles: list[str], **scenario) -> dict:
    state = table(roles, **scenario)
    pick_all(state)
    witches_idle(state)
    return state


def test_duck_names_new_frogs_but_not_where() -> None:
    state = table(FIVE)
    pick_all(state, {3: "brunnen"})
    witch(state, 0, "brunnen", target=3)
    event = state["log"][-1]
    assert english(state, event) == "Found at the pond as frogs: p3."
    assert "brunnen" not in str(event) and "to" not in event


def test_everyone_came_back_safely_without_new_frogs() -> None:
    state = _evening(FIVE)
    assert english(state, state["log"][-1]) == "Everyone came back safely."


def test_evening_waits_for_everyone_to_confirm_frogs_and_banished_too() -> None:
    state = _evening(FIVE, frogs=[3], banished=[4])
    assert scene(state) == "announce"
    assert GAME.waiting_for(state) == [0, 1, 2, 3, 4]
    for seat in (0, 1, 2, 3):
        act(state, seat, type="confirm")
    assert scene(state) == "announce"
    act(state, 4, type="confirm")
    assert scene(state) == "talk"


def test_talk_ends_when_every_cat_in_cat_form_ended_it() -> None:
    state = _evening(FIVE, frogs=[3])
    confirm_all(state)
    assert state["scene"]["need"] == [0, 1, 2, 4]
    for seat in (0, 1, 2):
        act(state, seat, type="end_talk")
    assert scene(state) == "talk"
    act(state, 4, type="end_talk")
    assert scene(state) == "proposal"


def test_seer_learns_witch_or_not_a_witch_and_only_she_is_told() -> None:
    state = _evening(NINE)
    confirm_all(state)
    assert {"type": "see", "target": 0} in GAME.legal_actions(state, 3)
    act(state, 3, type="see", target=0)
    assert GAME.view(state, 3)["seen"] == [[1, 0, "witch"]]
    event = state["log"][-1]
    assert event["to"] == [3] and english(state, event) == "p0 is a witch."
    for seat in (0, 1, 2, 4):
        assert "seen" not in GAME.view(state, seat)
        assert all(e.get("kind") != "seen" for e in GAME.view(state, seat)["log"])


def test_seer_reads_crow_and_fool_as_not_a_witch() -> None:
    for target in (2, 7):  # the crow and the fool
        state = _evening(NINE)
        confirm_all(state)
        act(state, 3, type="see", target=target)
        assert state["seer_results"] == [[1, target, "no_witch"]]


def test_seer_looks_once_a_day_until_the_vote() -> None:
    state = _evening(FIVE)
    confirm_all(state)
    end_talk(state)
    assert scene(state) == "proposal"
    assert 1 in GAME.waiting_for(state)
    act(state, 1, type="see", target=4)
    assert 1 not in GAME.waiting_for(state)


def test_seer_power_is_gone_once_the_vote_opens() -> None:
    state = _evening(FIVE)
    confirm_all(state)
    end_talk(state)
    state["curse"] = 3  # force the curse bar: straight to the vote at the next proposal
    propose(state, [1, 2])
    vote_proposal(state, no=(0, 1, 2, 3, 4))
    confirm_all(state)
    assert scene(state) == "vote"
    assert all(a["type"] in ("vote", "abstain") for a in GAME.legal_actions(state, 1))


def test_pickpocket_steals_a_random_ingredient_and_nobody_is_told() -> None:
    state = _evening(EIGHT, hands=[[], [], [], ["mehl", "mehl", "mehl"]])
    confirm_all(state)
    victim = [c["ing"] for c in state["hands"][3]]
    thief = [c["ing"] for c in state["hands"][6]]
    act(state, 6, type="steal", target=3)
    # (the picks before the evening may have added to the victim's three Mehl: whatever card
    # went, it went from the victim to the thief)
    after = [c["ing"] for c in state["hands"][3]]
    assert len(after) == len(victim) - 1
    stolen = list(victim)
    for ing in after:
        stolen.remove(ing)
    assert sorted(c["ing"] for c in state["hands"][6]) == sorted(thief + stolen)
    assert state["log"][-1]["to"] == [6]
    assert all(e.get("kind") != "stolen" for e in GAME.view(state, 3)["log"])


def test_pickpocket_window_closes_at_the_proposal_vote() -> None:
    state = _evening(EIGHT)
    confirm_all(state)
    end_talk(state)
    assert 6 in GAME.waiting_for(state)
    propose(state, [3, 4, 7])  # day 1 at 8: a circle of 3 (the band's numbers)
    assert scene(state) == "proposal_vote"
    assert not [a for a in GAME.legal_actions(state, 6) if a["type"] == "steal"]


def test_absent_cat_counts_as_having_ended_the_talk() -> None:
    state = _evening(FIVE)
    confirm_all(state)
    for seat in (0, 1, 2, 3):
        act(state, seat, type="end_talk")
    absent(state, 4)
    assert scene(state) == "proposal"
