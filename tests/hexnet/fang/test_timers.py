"""Time limits as options, each timeout's default, and the absent meaning in every scene."""

from __future__ import annotations

from hexnet.games.fang import GAME
from tests.hexnet.fang.helpers import (
    EIGHT,
    FIVE,
    absent,
    act,
    confirm_all,
    end_talk,
    lay_first,
    pick_all,
    propose,
    scene,
    table,
    timeout,
    to_night,
    vote_proposal,
    witches_idle,
)

TIMED = {"time_limits": True}


def test_without_time_limits_only_the_witches_window_and_the_pause_are_timed() -> None:
    state = table(FIVE, required=["pilz", "pilz"])
    assert GAME.deadline(state) is None
    pick_all(state)
    deadline = GAME.deadline(state)
    assert deadline.seconds == 15 and deadline.seats == ()
    witches_idle(state)
    assert GAME.deadline(state) is None
    confirm_all(state)
    assert GAME.deadline(state) is None


def test_time_limits_use_the_table_defaults_and_every_duration_is_an_option() -> None:
    state = table(FIVE, options=TIMED)
    assert GAME.deadline(state).seconds == 60
    state = table(FIVE, options={**TIMED, "pick_seconds": 5, "witches_seconds": 9})
    assert GAME.deadline(state).seconds == 5
    pick_all(state)
    assert GAME.deadline(state).seconds == 9
    fresh = table(FIVE, options=TIMED)
    assert GAME.deadline(fresh).seats == ()  # who is picking would reveal the witch


def test_pick_timeout_sends_cats_without_a_pick_to_a_random_place() -> None:
    state = table(FIVE, options=TIMED)
    act(state, 1, type="pick", place="brunnen")
    timeout(state)
    assert scene(state) == "witches"
    picks = state["today"]["picks"]
    assert picks[1] == {"place": "brunnen"}
    assert all(picks[s]["place"] in ("wald", "brunnen", "kraeutergarten") for s in (2, 3, 4))


def test_guard_timeout_guards_a_random_allowed_place() -> None:
    state = table(FIVE, options=TIMED, guard_last="wald")
    pick_all(state, {2: "guard"})
    timeout(state)
    assert state["today"]["guard"] in ("brunnen", "kraeutergarten")
    assert scene(state) == "witches"


def test_witches_timeout_random_place_no_spell_no_attack() -> None:
    state = table(EIGHT, failed=3)
    pick_all(state)
    act(state, 0, type="witch_place", place="wald")
    act(state, 0, type="spell", spell="fluch")
    timeout(state)
    first, second = state["today"]["witches"][0], state["today"]["witches"][1]
    assert first["place"] == "wald" and first["spell"] == "fluch" and first["targets"] == []
    assert second["spell"] == "none" and second["targets"] == []
    assert second["place"] in ("wald", "brunnen", "kraeutergarten", "teich")
    assert "frog" not in state["form"] and scene(state) == "announce"


def test_talk_timeout_ends_the_talk() -> None:
    state = table(FIVE, options=TIMED)
    pick_all(state)
    witches_idle(state)
    confirm_all(state)
    assert GAME.deadline(state).seconds == 180
    act(state, 1, type="end_talk")
    timeout(state)
    assert scene(state) == "proposal"


def test_proposal_timeout_makes_a_random_proposal_of_the_right_size() -> None:
    state = table(FIVE, options=TIMED, required=["pilz", "salbei"])
    to_night(state)
    timeout(state)
    assert scene(state) == "proposal_vote"
    assert len(state["today"]["members"]) == 2


def test_proposal_vote_timeout_counts_missing_votes_as_yes() -> None:
    state = table(FIVE, options=TIMED, required=["pilz", "salbei"])
    to_night(state)
    propose(state, [1, 2])
    for seat in (0, 1):
        act(state, seat, type="vote_proposal", yes=False)
    timeout(state)
    result = [e for e in state["log"] if e.get("kind") == "proposal_result"][-1]
    assert result["yes"] == [2, 3, 4] and result["passed"] is True


def test_vote_timeout_counts_missing_votes_as_abstentions() -> None:
    state = table(FIVE, options=TIMED, required=["pilz", "salbei"])
    to_night(state)
    propose(state, [1, 2])
    vote_proposal(state)
    confirm_all(state)
    lay_first(state)
    confirm_all(state)
    timeout(state)  # the pause
    act(state, 1, type="vote", target=3)
    timeout(state)
    assert state["form"][3] == "banished"


def test_ritual_has_no_time_limit() -> None:
    state = table(FIVE, options=TIMED, required=["pilz", "salbei"])
    to_night(state)
    propose(state, [1, 2])
    vote_proposal(state)
    confirm_all(state)
    assert scene(state) == "ritual" and GAME.deadline(state) is None


# --- absent ---------------------------------------------------------------------------------


def test_absent_at_the_start_counts_as_ready() -> None:
    state = table(FIVE, ready=True)
    assert scene(state) == "ready"
    for seat in range(4):
        act(state, seat, type="ready")
    absent(state, 4)
    assert scene(state) == "pick" and state["day"] == 1


def test_absent_picker_gets_a_random_place() -> None:
    state = table(FIVE)
    for seat in (1, 2, 3):
        act(state, seat, type="pick", place="wald")
    absent(state, 4)
    assert state["today"]["picks"][4]["place"] in ("wald", "brunnen", "kraeutergarten")


def test_absent_witch_is_decided_like_at_the_timeout() -> None:
    state = table(FIVE)
    pick_all(state)
    absent(state, 0)
    assert state["today"]["witches"][0]["targets"] == [] and scene(state) == "announce"


def test_absent_seat_counts_as_having_confirmed() -> None:
    state = table(FIVE)
    pick_all(state)
    witches_idle(state)
    for seat in range(4):
        act(state, seat, type="confirm")
    absent(state, 4)
    assert scene(state) == "talk"


def test_absent_chief_makes_a_random_proposal() -> None:
    state = table(FIVE, required=["pilz", "salbei"])
    to_night(state)
    absent(state, 0)
    assert scene(state) == "proposal_vote" and len(state["today"]["members"]) == 2


def test_absent_in_the_proposal_vote_is_yes() -> None:
    state = table(FIVE, required=["pilz", "salbei"])
    to_night(state)
    propose(state, [1, 2])
    for seat in (0, 1, 2, 3):
        act(state, seat, type="vote_proposal", yes=seat < 2)
    absent(state, 4)
    assert state["log"][-1]["yes"] == [0, 1, 4]


def test_absent_member_lays_the_first_possible_card() -> None:
    state = table(FIVE, required=["pilz", "salbei"], hands=[[], ["mehl"]])
    to_night(state)
    propose(state, [0, 1])
    vote_proposal(state)
    confirm_all(state)
    absent(state, 0)  # the witch collected nothing: her first possible card is Fluchkraut
    absent(state, 1)  # oldest card first: mehl
    assert [c["ing"] for c in state["hands"][1]] == ["pilz"]
    assert state["failed"] == 1


def test_absent_voter_abstains_and_a_voter_who_voted_is_let_go() -> None:
    state = table(FIVE, required=["pilz", "salbei"])
    to_night(state)
    propose(state, [1, 2])
    vote_proposal(state)
    confirm_all(state)
    lay_first(state)
    confirm_all(state)
    timeout(state)
    act(state, 1, type="vote", target=3)
    absent(state, 1)
    assert 1 not in GAME.waiting_for(state)
    for seat in (0, 2, 3):
        act(state, seat, type="abstain")
    absent(state, 4)
    assert state["form"][3] == "banished"


def test_absent_seer_loses_todays_look() -> None:
    state = table(FIVE)
    pick_all(state)
    witches_idle(state)
    confirm_all(state)
    act(state, 1, type="end_talk")
    assert 1 in GAME.waiting_for(state)
    absent(state, 1)
    assert 1 not in GAME.waiting_for(state)
    end_talk(state)
    assert 1 not in GAME.waiting_for(state)
