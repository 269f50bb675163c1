"""Night: chief rotation, proposal size, proposal vote and curse bar, ritual, pause, vote."""

from __future__ import annotations

import pytest

from hexnet.engine import IllegalAction, find_legal
from hexnet.games.fang import GAME
from hexnet.games.fang.night import proposal_allowed
from tests.hexnet.fang.helpers import (
    EIGHT,
    FIVE,
    act,
    confirm_all,
    english,
    lay,
    lay_first,
    pass_pause,
    propose,
    scene,
    table,
    to_night,
    vote,
    vote_proposal,
)


def test_first_chief_is_the_first_seat_on_day_one() -> None:
    state = table(FIVE)
    to_night(state)
    assert state["scene"]["need"] == [0]


def test_chief_rotation_skips_frogs_and_banished() -> None:
    roles = ["dorfkatze", "dorfkatze", "seherin", "beschuetzer", "hexe"]
    state = table(roles, frogs=[0], banished=[1], required=["pilz", "pilz"])
    to_night(state)
    assert state["scene"]["need"] == [2]


def test_rejection_makes_the_next_seat_chief_at_once_and_the_next_day_continues() -> None:
    state = table(FIVE, required=["pilz", "pilz"])
    to_night(state)
    propose(state, [0, 1])
    vote_proposal(state, no=(0, 1, 2))
    confirm_all(state)
    assert state["scene"]["need"] == [1]
    propose(state, [2, 3])
    vote_proposal(state)
    confirm_all(state)
    lay_first(state)
    confirm_all(state)
    pass_pause(state)
    vote(state, {})
    confirm_all(state)
    to_night(state)
    assert state["scene"]["need"] == [2]


def test_proposal_names_exactly_as_many_cats_as_ingredients_needed() -> None:
    state = table(FIVE, required=["pilz", "salbei"], frogs=[4])
    to_night(state)
    legal = GAME.legal_actions(state, 0)
    assert {a["members"] for a in legal} == {
        "0,1", "0,2", "0,3", "1,2", "1,3", "2,3"}
    for wrong in ("0", "0,1,2", "3,4"):
        with pytest.raises(IllegalAction):
            act(state, 0, type="propose", members=wrong)


def test_proposal_vote_majority_yes_passes() -> None:
    state = table(FIVE, required=["pilz", "pilz"])
    to_night(state)
    propose(state, [3, 4])
    vote_proposal(state, no=(0, 1))
    assert state["log"][-1]["passed"] is True
    confirm_all(state)
    assert scene(state) == "ritual" and state["scene"]["need"] == [3, 4]


def test_proposal_vote_tie_fails_and_fills_the_curse_bar() -> None:
    state = table(EIGHT, required=["pilz"] * 3)
    to_night(state)
    propose(state, [3, 4, 5])
    vote_proposal(state, no=(0, 1, 2, 3))
    assert state["log"][-2]["passed"] is False
    assert state["curse"] == 1
    confirm_all(state)
    assert scene(state) == "proposal"


def test_proposal_votes_are_hidden_until_all_voted_then_shown_with_names() -> None:
    state = table(FIVE, required=["pilz", "pilz"])
    to_night(state)
    propose(state, [3, 4])
    act(state, 1, type="vote_proposal", yes=False)
    act(state, 1, type="vote_proposal", yes=True)
    other = GAME.view(state, 2)
    assert other["submitted"] == [1] and other["my_choice"] is None
    assert GAME.view(state, 1)["my_choice"] is True
    for seat in (0, 2, 3, 4):
        act(state, seat, type="vote_proposal", yes=seat != 0)
    result = state["log"][-1]
    assert result["yes"] == [1, 2, 3, 4] and result["no"] == [0]


def test_full_curse_bar_fails_the_ritual_by_itself_and_goes_to_the_vote() -> None:
    state = table(FIVE, required=["pilz", "pilz"])
    to_night(state)
    for _ in range(3):
        propose(state, [3, 4])
        vote_proposal(state, no=(0, 1, 2))
        confirm_all(state)
    assert scene(state) == "vote"
    assert state["failed"] == 0 and state["seals"] == 0


def test_curse_bar_resets_every_day() -> None:
    state = table(FIVE, required=["pilz", "pilz"])
    to_night(state)
    propose(state, [3, 4])
    vote_proposal(state, no=(0, 1, 2))
    confirm_all(state)
    state_curse = state["curse"]
    propose(state, [3, 4])
    vote_proposal(state)
    confirm_all(state)
    lay_first(state)
    confirm_all(state)
    pass_pause(state)
    vote(state, {})
    confirm_all(state)
    to_night(state)
    assert state_curse == 1 and state["curse"] == 0


def _ritual(hands: list[list[str]], required: list[str], members: list[int]) -> dict:
    """Five seats at the ritual of ``members``; the protector guards (and collects nothing)."""
    state = table(FIVE, hands=hands, required=required)
    to_night(state, {2: "guard"})
    propose(state, members)
    vote_proposal(state)
    confirm_all(state)
    return state


def test_ritual_succeeds_when_laid_ingredients_equal_the_required_ones() -> None:
    state = _ritual([[], [], [], ["pilz"], ["salbei", "mehl"]], ["salbei", "pilz"], [3, 4])
    lay(state, 3, "pilz")
    lay(state, 4, "salbei")
    assert state["seals"] == 1 and state["failed"] == 0
    assert [c["ing"] for c in state["hands"][4]] == ["mehl", "pilz"]  # salbei used up
    assert english(state, state["log"][-1]) == "The ritual succeeded. Seals 1/3."


@pytest.mark.parametrize("lays", [("pilz", "mehl"), ("pilz", "fluchkraut"),
                                  ("pilz", "empty"), ("pilz", "salbei*")])
def test_ritual_fails_with_a_wrong_spoiled_fluchkraut_or_missing_card(lays) -> None:
    hands = [["salbei"], [], [], ["pilz"], ["salbei*", "mehl"]]
    members = [3, 0] if "fluchkraut" in lays else ([3, 2] if "empty" in lays else [3, 4])
    state = _ritual(hands, ["pilz", "salbei"], members)
    lay(state, members[0], lays[0])
    lay(state, members[1], lays[1].rstrip("*"))
    assert state["seals"] == 0 and state["failed"] == 1
    assert english(state, state["log"][-1]) == "The ritual failed."


def test_ritual_shows_nobody_the_laid_cards() -> None:
    state = _ritual([[], [], [], ["pilz"], ["mehl"]], ["pilz", "salbei"], [3, 4])
    lay(state, 3, "pilz")
    lay(state, 4, "mehl")
    for seat in range(5):
        log = GAME.view(state, seat)["log"]
        texts = " ".join(english(state, e) for e in log)
        assert ("Mehl" in texts) == ("mehl" in str(log)) == (seat == 4)


def test_pause_who_was_it_waits_for_nobody_and_then_the_vote_opens() -> None:
    state = _ritual([[], [], [], ["pilz"], ["mehl"]], ["pilz", "salbei"], [3, 4])
    lay(state, 3, "pilz")
    lay(state, 4, "mehl")
    confirm_all(state)
    assert scene(state) == "pause"
    deadline = GAME.deadline(state)
    assert deadline.seconds == 4 and deadline.seats == ()
    pass_pause(state)
    assert scene(state) == "vote"


def _vote(**scenario) -> dict:
    """A five-seat table at the vote (the curse bar filled by three rejections)."""
    state = table(FIVE, required=["pilz", "pilz"], **scenario)
    to_night(state)
    for _ in range(3):
        first = GAME.legal_actions(state, state["scene"]["need"][0])[0]
        act(state, state["scene"]["need"][0], **first)
        vote_proposal(state, no=tuple(range(5)))
        confirm_all(state)
    return state


def test_vote_may_not_name_oneself_or_a_frog() -> None:
    state = _vote(frogs=[4])
    targets = [a.get("target") for a in GAME.legal_actions(state, 1)]
    assert targets == [0, 2, 3, None]


def test_vote_most_votes_banishes_and_reveals_the_role() -> None:
    state = _vote()
    vote(state, {1: 3, 2: 3, 3: 1})
    assert state["form"][3] == "banished"
    assert english(state, state["log"][-1]) == "p3 is banished: Dorfkatze."
    assert GAME.view(state, 4)["roles"][3] == "dorfkatze"


def test_vote_tie_for_most_banishes_nobody() -> None:
    state = _vote()
    vote(state, {0: 1, 1: 0, 2: 3, 3: 2})
    assert "banished" not in state["form"]
    assert english(state, state["log"][-1]) == "Nobody is banished."


def test_vote_with_every_cat_abstaining_banishes_nobody() -> None:
    state = _vote()
    vote(state, {})
    assert "banished" not in state["form"]
    confirm_all(state)
    assert state["day"] == 2


def test_vote_is_changeable_until_all_have_voted() -> None:
    state = _vote()
    act(state, 1, type="vote", target=3)
    act(state, 1, type="vote", target=4)
    assert GAME.view(state, 0)["my_choice"] is None
    vote(state, {0: 4, 2: 4})
    assert state["form"][4] == "banished"


def test_circle_shrinks_to_the_cats_in_cat_form() -> None:
    state = table(FIVE, frogs=[3, 4], required=["pilz", "salbei", "pilz", "mehl"])
    to_night(state)
    assert state["required"] == ["pilz", "salbei", "pilz"]
    assert {a["members"] for a in GAME.legal_actions(state, 0)} == {"0,1,2"}


def test_a_proposal_checked_directly_is_legal_exactly_when_it_is_listed() -> None:
    state = table(EIGHT, frogs=[2])
    to_night(state)
    chief = state["scene"]["need"][0]
    listed = GAME.legal_actions(state, chief)
    assert listed and all(proposal_allowed(state, a) for a in listed)
    forged = ["", "0", "1,0", "0,0", "0, 1", " 0,1", "0,1,", "-1,0", "2,3", "0,1,2,3,4,5,6,7",
              "01,3", "a,b", "0;1", "8,9", "0,1,3", "3,5", "1,3,5,7", "0,2"]
    candidates = [{"type": "propose", "members": m} for m in forged]
    candidates += [{"type": "propose", "members": 13}, {"type": "propose"},
                   {**listed[0], "extra": 1}, {"type": "propose", "members": True}]
    for action in candidates:
        assert proposal_allowed(state, action) == (find_legal(action, listed) is not None), action
    assert sum(proposal_allowed(state, a) for a in candidates) >= 1
