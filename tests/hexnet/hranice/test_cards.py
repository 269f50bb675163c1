"""The action cards and the reactions, one rule each."""

from __future__ import annotations

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.hranice import GAME

from .scene import act, kinds, scene, settle, texts


def test_muceni_accuses_with_two_added_to_the_roll():
    state = scene(2, hands=[["muceni"], []], councils=[[], ["knez"]], dice=[2])
    act(state, 0, type="action", card="muceni", target="knez-1")
    assert texts(state)[-2].endswith("rolled 2 +2 Mučení = 4 ≥ 4? succeeds")
    assert kinds(state["pyre"]) == ["knez"] and kinds(state["discard"]) == ["muceni"]
    assert state["actions_left"] == 1


def test_udani_accuses_without_a_roll_and_costs_both_actions():
    state = scene(2, hands=[["udani", "zebrak"], []], councils=[[], ["slechtic"]], dice=[1])
    act(state, 0, type="action", card="udani", target="slechtic-1")
    assert settle(state) == [0]  # Přímluva (only the actor holds cards: no Protest prompt)
    assert kinds(state["pyre"]) == ["slechtic"] and state["dice"] == [1]
    assert state["turn"] == 1


def test_udani_needs_both_actions_left():
    state = scene(2, hands=[["udani", "zebrak"], []], councils=[[], ["slechtic"]])
    act(state, 0, type="citizen", card="zebrak")
    with pytest.raises(IllegalAction):
        act(state, 0, type="action", card="udani", target="slechtic-1")


def test_milost_cleanses_without_a_roll():
    state = scene(2, hands=[["milost"], []], pyre=["slechtic"], dice=[1])
    act(state, 0, type="action", card="milost", target="slechtic-1")
    assert kinds(state["councils"][0]) == ["slechtic"] and state["dice"] == [1]


def test_zapaleni_ignites_the_pyre_and_the_player_takes_the_last_citizen():
    state = scene(2, hands=[["zapaleni"], []], pyre=["zebrak", "rolnik"])
    act(state, 0, type="action", card="zapaleni")
    assert kinds(state["burned"][0]) == ["rolnik"] and state["pyre"] == []
    assert "zebrak-1" in state["discard"]
    assert GAME.view(state, 0)["influence"][0] == 3


def test_zapaleni_needs_a_citizen_on_the_pyre():
    state = scene(2, hands=[["zapaleni"], []])
    assert all(a.get("card") != "zapaleni" for a in GAME.legal_actions(state, 0))


def test_vyslech_shows_the_hand_to_the_looker_only_and_discards_the_chosen_card():
    state = scene(3, hands=[["vyslech"], ["alibi", "kat"], ["zebrak"]])
    act(state, 0, type="action", card="vyslech", player=1)
    assert settle(state) == [1, 2]  # Protest prompt; the looker's hand is now empty
    assert GAME.waiting_for(state) == [0]
    assert sorted(kinds(GAME.view(state, 0)["peek"]["hand"])) == ["alibi", "kat"]
    assert "peek" not in GAME.view(state, 1) and "peek" not in GAME.view(state, 2)
    assert not any("Kat" in t for t in texts(state, 2))
    assert GAME.legal_actions(state, 0) == [{"type": "discard", "card": "kat"},
                                            {"type": "discard", "card": "alibi"}]
    act(state, 0, type="discard", card="alibi")
    assert kinds(state["hands"][1]) == ["kat"] and "alibi-1" in state["discard"]
    assert "peek" not in GAME.view(state, 0)


def test_zabaveni_takes_a_random_card_from_the_chosen_player():
    state = scene(2, hands=[["zabaveni"], ["slechtic"]])
    act(state, 0, type="action", card="zabaveni", player=1)
    settle(state)
    assert kinds(state["hands"][0]) == ["slechtic"] and state["hands"][1] == []


def test_alibi_makes_the_accusation_fail_and_only_the_owner_is_asked():
    state = scene(3, hands=[["zebrak"], ["alibi"], ["alibi"]], councils=[[], [], ["slechtic"]])
    act(state, 0, type="accuse", target="slechtic-1")
    assert GAME.waiting_for(state) == [2]
    assert {"type": "react", "card": "alibi"} in GAME.legal_actions(state, 2)
    act(state, 2, type="react", card="alibi")
    assert kinds(state["councils"][2]) == ["slechtic"] and state["hands"][2] == []
    assert state["actions_left"] == 1 and GAME.waiting_for(state) == [0]


def test_uplatek_rerolls_and_the_new_result_stands():
    state = scene(2, hands=[["uplatek"], ["zebrak"]], councils=[[], ["kovar"]], dice=[6, 1])
    act(state, 0, type="accuse", target="kovar-1")
    act(state, 1, type="pass")  # Alibi prompt, the owner only
    act(state, 0, type="react", card="uplatek")  # the roll: the player on turn first
    assert texts(state)[-1].endswith("rolled 6, rerolled 1 ≥ 3? fails")
    assert state["window"] is None and kinds(state["councils"][1]) == ["kovar"]


def test_falesny_svedek_adds_one_or_takes_one_from_the_result():
    state = scene(2, hands=[["svedek"], ["svedek"]], councils=[[], ["kovar", "knez"]],
                  dice=[3, 3])
    act(state, 0, type="accuse", target="kovar-1")
    act(state, 1, type="pass")  # Alibi prompt
    act(state, 0, type="pass")  # the roll: the player on turn first
    act(state, 1, type="react", card="svedek", sign=-1)
    assert texts(state)[-1].endswith("rolled 3 −1 Falešný svědek = 2 ≥ 3? fails")
    act(state, 0, type="accuse", target="knez-1")
    act(state, 0, type="react", card="svedek", sign=1)
    assert texts(state)[-2].endswith("rolled 3 +1 Falešný svědek = 4 ≥ 4 +1 Kovář? fails")


def test_primluva_returns_the_citizen_to_its_owners_hand_instead_of_the_pyre():
    state = scene(2, hands=[["primluva"], ["zebrak"]], councils=[[], ["kat"]], dice=[5])
    act(state, 0, type="accuse", target="kat-1")
    act(state, 1, type="pass")  # Alibi
    act(state, 0, type="pass")  # the roll: the player on turn first
    act(state, 1, type="pass")
    assert state["window"]["trigger"]["event"] == "to_pyre"
    act(state, 0, type="react", card="primluva")
    assert state["pyre"] == [] and kinds(state["hands"][1]) == ["zebrak", "kat"]


def test_protest_cancels_an_action_card_and_its_cost_stays_spent():
    state = scene(2, hands=[["udani"], ["protest"]], councils=[[], ["slechtic"]])
    act(state, 0, type="action", card="udani", target="slechtic-1")
    act(state, 1, type="react", card="protest")
    assert kinds(state["councils"][1]) == ["slechtic"]
    assert sorted(kinds(state["discard"])) == ["protest", "udani"]
    assert state["turn"] == 1


def test_reactions_are_asked_the_player_on_turn_first_then_who_comes_sooner():
    # "Přednost má hráč, který je nebo bude dříve na tahu"
    state = scene(4, hands=[["zebrak"], ["zebrak"], ["zebrak"], ["zebrak"]],
                  councils=[[], [], ["kovar"], []], first_player=1, dice=[1])
    act(state, 1, type="accuse", target="kovar-1")
    assert settle(state) == [2, 1, 2, 3, 0]  # Alibi (owner only), then the roll


def test_nobody_is_asked_to_protest_their_own_action_card():
    # issue 26, item 8: seats 0 and 2 both hold Protest; seat 2 plays Mučení: the others are
    # asked, the next on turn first — seat 2 is not asked about its own card
    state = scene(3, hands=[["protest"], ["zebrak"], ["muceni", "protest"]],
                  councils=[["kovar"], [], []], first_player=2, dice=[1])
    act(state, 2, type="action", card="muceni", target="kovar-1")
    assert GAME.waiting_for(state) == [0]
    assert GAME.legal_actions(state, 2) == []
    act(state, 0, type="pass")
    assert GAME.waiting_for(state) == [1]  # then seat 1; then the accusation goes on
    act(state, 1, type="pass")
    assert state["window"]["trigger"]["event"] == "accused"


def test_only_one_reaction_per_event():
    state = scene(3, hands=[["zebrak"], ["svedek"], ["uplatek"]], councils=[[], [], ["kovar"]],
                  dice=[3])
    act(state, 0, type="accuse", target="kovar-1")
    act(state, 2, type="pass")  # Alibi
    act(state, 0, type="pass")  # the roll: the player on turn first
    act(state, 1, type="react", card="svedek", sign=-1)
    assert state["window"] is None and GAME.waiting_for(state) == [0]
    assert kinds(state["hands"][2]) == ["uplatek"]


def test_no_reaction_to_a_reaction():
    state = scene(2, hands=[["muceni"], ["protest", "protest"]], councils=[[], ["kovar"]],
                  dice=[1])
    act(state, 0, type="action", card="muceni", target="kovar-1")
    act(state, 1, type="react", card="protest")
    assert state["window"] is None and state["actions_left"] == 1


def test_ask_holders_only_skips_seats_without_a_fitting_reaction():
    state = scene(3, hands=[["zebrak"], ["kat"], ["uplatek"]], councils=[[], ["kovar"], []],
                  dice=[1], options={"ask_holders_only": True})
    act(state, 0, type="accuse", target="kovar-1")
    assert settle(state) == [2]


def test_reaction_prompt_has_a_deadline_and_its_expiry_is_a_pass():
    state = scene(2, hands=[["zebrak"], ["svedek"]], councils=[[], ["kovar"]], dice=[3])
    act(state, 0, type="accuse", target="kovar-1")
    deadline = GAME.deadline(state)
    assert deadline.seats == (1,) and deadline.seconds == 6
    GAME.apply(state, None, {"type": "timeout", "key": deadline.key})
    assert GAME.deadline(state).key != deadline.key  # now the roll's prompt
    GAME.apply(state, None, {"type": "absent", "seat": 0})  # the roll: the actor is asked first
    assert state["window"]["pending"] == [1]


def test_a_turn_is_untimed_unless_turn_seconds_is_set():
    state = scene(2, hands=[["zebrak"], ["svedek"]], councils=[[], ["kovar"]], dice=[3])
    assert GAME.deadline(state) is None  # the turn player's decision: no clock by default


def test_turn_seconds_times_each_decision_and_expiry_makes_the_absent_move():
    timed = scene(2, hands=[["zebrak"], ["svedek"]], councils=[[], ["kovar"]], dice=[3],
                  options={"turn_seconds": 30})
    absent = scene(2, hands=[["zebrak"], ["svedek"]], councils=[[], ["kovar"]], dice=[3],
                   options={"turn_seconds": 30})
    deadline = GAME.deadline(timed)
    assert (deadline.key, deadline.seconds, deadline.seats, deadline.on_expiry) == (
        f"turn-{timed['version']}", 30.0, (0,), "turn")
    GAME.apply(timed, None, {"type": "timeout", "key": deadline.key})
    GAME.apply(absent, None, {"type": "absent", "seat": 0})
    assert GAME.dump(timed) == GAME.dump(absent)  # the same move as an absent player's
    assert GAME.deadline(timed).key == f"turn-{timed['version']}" != deadline.key  # afresh


def test_a_reaction_prompt_keeps_its_own_clock_under_turn_seconds():
    state = scene(2, hands=[["zebrak"], ["svedek"]], councils=[[], ["kovar"]], dice=[3],
                  options={"turn_seconds": 30})
    act(state, 0, type="accuse", target="kovar-1")
    deadline = GAME.deadline(state)
    assert (deadline.seconds, deadline.seats, deadline.on_expiry) == (6.0, (1,), "react")
