"""Every win condition, and their precedence in the rulebook's check order."""

from __future__ import annotations

from tests.hexnet.fang.helpers import (
    EIGHT,
    FIVE,
    NINE,
    confirm_all,
    lay,
    pick_all,
    propose,
    table,
    to_night,
    to_vote,
    vote,
    vote_proposal,
    witch,
    witches_idle,
)

FOUR = ["hexe", "seherin", "dorfkatze", "dorfkatze"]


def test_seals_complete_win_at_once_even_on_the_knights_day_without_a_final_vote() -> None:
    state = table(FIVE, day=5, seals=2, required=["pilz", "pilz", "pilz"])
    to_night(state)
    propose(state, [1, 3, 4])
    vote_proposal(state)
    confirm_all(state)
    for seat in (1, 3, 4):
        lay(state, seat, "pilz")
    out = state["outcome"]
    assert out["result"] == "village" and out["reason"] == "seals_complete"
    assert out["winners"] == [1, 2, 3, 4] and out["scores"] == [0, 1, 1, 1, 1]


def test_all_witches_banished_the_village_wins_even_while_the_crow_lives() -> None:
    state = table(EIGHT, banished=[1])
    to_vote(state)
    vote(state, {s: 0 for s in range(1, 8)})
    assert state["outcome"]["result"] == "village"
    assert state["form"][2] == "cat"


def test_every_remaining_witch_a_frog_at_the_end_of_the_day_the_village_wins() -> None:
    state = table(EIGHT)
    pick_all(state)
    witch(state, 0, "brunnen", target=1)
    witch(state, 1, "brunnen", target=0)
    out = state["outcome"]
    assert out["result"] == "village" and out["reason"] == "witches_frogs"
    assert out["witch_points"] == 2


def test_witch_majority_at_the_end_of_the_day_the_witches_win() -> None:
    state = table(FOUR, frogs=[3])
    pick_all(state, {2: "wald"})
    witch(state, 0, "wald", target=2)
    out = state["outcome"]
    assert out["result"] == "witches" and out["winners"] == [0]
    assert out["witch_points"] == 2


def test_frogs_count_for_nobody_and_crow_and_fool_count_as_non_witches() -> None:
    # cats: two witches vs crow, fool and a village cat: 3 > 2, the game goes on
    state = table(NINE, frogs=[3, 4, 5, 6])
    pick_all(state)
    witches_idle(state)
    assert state["outcome"] is None
    # one fewer non-witch: 2 ≤ 2, the witches win
    state = table(NINE, frogs=[3, 4, 5, 6], banished=[8])
    pick_all(state)
    witches_idle(state)
    assert state["outcome"]["result"] == "witches"
    assert state["outcome"]["winners"] == [0, 1, 2]


def test_witch_majority_after_the_vote_the_witches_win() -> None:
    state = table(FOUR, frogs=[3])
    to_vote(state)
    vote(state, {0: 2, 1: 2})
    assert state["outcome"]["result"] == "witches"


def test_banished_fool_wins_alone() -> None:
    state = table(NINE)
    to_vote(state)
    vote(state, {s: 7 for s in range(9) if s != 7})
    out = state["outcome"]
    assert out["result"] == "fool" and out["winners"] == [7]
    assert out["scores"] == [0, 0, 0, 0, 0, 0, 0, 1, 0]


def test_fool_banished_on_the_knights_day_wins_before_the_knights_verdict() -> None:
    state = table(NINE, day=6)
    to_vote(state)
    vote(state, {s: 7 for s in range(9) if s != 7})
    assert state["outcome"]["result"] == "fool"


def test_knights_final_vote_banishing_a_witch_wins_for_the_village_at_once() -> None:
    state = table(EIGHT, day=6)
    to_vote(state)
    vote(state, {s: 0 for s in range(1, 8)})
    out = state["outcome"]
    assert out["result"] == "village" and state["form"][1] == "cat"
    assert out["reason"] == "knights_witch"


def test_knights_final_vote_banishing_a_non_witch_the_witches_win() -> None:
    state = table(EIGHT, day=6)
    to_vote(state)
    vote(state, {s: 2 for s in range(8) if s != 2})  # the crow is not a witch
    assert state["outcome"]["result"] == "witches"


def test_knights_final_vote_banishing_nobody_the_witches_win() -> None:
    state = table(EIGHT, day=6)
    to_vote(state)
    vote(state, {})
    assert state["outcome"]["result"] == "witches"
    assert state["outcome"]["day"] == 6


def test_without_a_decision_the_next_day_follows() -> None:
    state = table(FIVE)
    to_vote(state)
    vote(state, {1: 3, 2: 3})
    assert state["outcome"] is None
    confirm_all(state)
    assert state["day"] == 2 and state["scene"]["name"] == "pick"


def test_outcome_reveals_every_role_and_witch_points_are_the_frogs() -> None:
    state = table(FOUR, frogs=[3])
    to_vote(state)
    vote(state, {0: 2, 1: 2})
    from hexnet.games.fang import GAME

    view = GAME.view(state, 2)
    assert view["roles"] == FOUR and view["outcome"]["roles"] == FOUR
    assert view["outcome"]["witch_points"] == 1
