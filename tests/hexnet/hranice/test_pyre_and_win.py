"""The pyre, the hand limit, the dominance token, winning, targets and the turn cap."""

from __future__ import annotations

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.hranice import GAME

from .scene import act, kinds, scene, settle, texts


def test_third_citizen_on_the_pyre_ignites_it_and_the_accuser_takes_that_citizen():
    state = scene(2, hands=[[], []], councils=[[], ["kovar"]], pyre=["zebrak", "rolnik"],
                  dice=[4])
    act(state, 0, type="accuse", target="kovar-1")
    assert kinds(state["burned"][0]) == ["kovar"] and state["pyre"] == []
    assert sorted(kinds(state["discard"])) == ["rolnik", "zebrak"]
    assert GAME.view(state, 1)["influence"] == [3, 0]


def test_accusing_your_own_citizen_onto_a_full_pyre_scores_for_you():
    state = scene(2, hands=[[], []], councils=[["zebrak"], []], pyre=["rolnik", "rolnik"],
                  dice=[1])
    act(state, 0, type="accuse", target="zebrak-1")
    assert GAME.view(state, 0)["influence"][0] == 3


def test_permanent_points_cannot_be_lost():
    state = scene(2, hands=[[], []], burned=[[], ["zebrak"]],
                  councils=[[], ["rolnik"]], dice=[6])
    act(state, 0, type="accuse", target="rolnik-1")
    assert GAME.view(state, 0)["influence"] == [0, 3]
    assert all(a.get("target") != "zebrak-1" for a in GAME.legal_actions(state, 0))


def test_kat_draws_two_cards_when_his_owner_ignites_the_pyre():
    state = scene(2, hands=[["zapaleni"], []], councils=[["kat"], []], pyre=["zebrak"],
                  pile=["knez", "soudce"])
    act(state, 0, type="action", card="zapaleni")
    assert kinds(state["hands"][0]) == ["knez", "soudce"]


def test_kat_of_another_player_does_not_draw():
    state = scene(2, hands=[["zapaleni"], []], councils=[[], ["kat"]], pyre=["zebrak"],
                  pile=["knez", "soudce"])
    act(state, 0, type="action", card="zapaleni")
    assert state["hands"] == [[], []]


def test_hand_over_the_limit_is_cut_to_seven_at_random_at_the_end_of_the_action():
    state = scene(2, hands=[["zapaleni"] + ["zebrak"] * 4 + ["rolnik"] * 2, []],
                  councils=[["kat"], []], pyre=["zebrak"], pile=["knez", "soudce"])
    act(state, 0, type="action", card="zapaleni")
    assert settle(state) == []  # no Protest prompt: the other hand is empty, and nobody
    # protests their own card
    assert len(state["hands"][0]) == 7
    cut = [e for e in state["log"] if e.get("kind") == "hand_limit"]
    assert len(cut) == 1 and cut[0]["seat"] == 0 and "to" not in cut[0]
    assert len(state["discard"]) == 2  # Zapálení + the cut card


def test_returning_citizen_pushes_hand_over_limit_and_it_is_cut():
    state = scene(2, hands=[["primluva"], ["zebrak"] * 5 + ["rolnik"] * 2],
                  councils=[[], ["kat"]], dice=[6])
    act(state, 0, type="accuse", target="kat-1")
    act(state, 1, type="pass")  # Alibi
    act(state, 0, type="pass")  # roll: the player on turn first
    act(state, 1, type="pass")
    act(state, 0, type="react", card="primluva")  # about to go to the pyre
    assert len(state["hands"][1]) == 7
    assert any("over the hand limit and discards" in t for t in texts(state))
    assert len(state["discard"]) == 2  # Přímluva + the cut card


def test_token_turns_active_at_the_end_of_the_turn_and_wins_at_the_start_of_the_next():
    state = scene(2, hands=[["slechtic", "zebrak"], ["zebrak", "zebrak"]],
                  councils=[["kat", "kovar"], []])
    act(state, 0, type="citizen", card="slechtic")  # 14 ≥ 13, but the turn is not over
    assert state["tokens"] == [False, False]
    act(state, 0, type="citizen", card="zebrak")
    assert state["tokens"] == [True, False] and state["turn"] == 1
    act(state, 1, type="citizen", card="zebrak")
    assert GAME.outcome(state) is None
    act(state, 1, type="citizen", card="zebrak")
    out = GAME.outcome(state)
    assert out["winners"] == [0] and out["result"] == "win" and out["turns"] == 2
    assert out["scores"] == [15, 2] and out["first_player"] == 0
    assert GAME.waiting_for(state) == []


def test_token_turns_back_when_points_drop_and_there_is_no_win():
    state = scene(2, hands=[[], ["udani"]], councils=[["kat", "kovar", "slechtic"], []],
                  tokens=[True, False], first_player=1)
    act(state, 1, type="action", card="udani", target="slechtic-1")
    settle(state)
    assert state["tokens"] == [False, False]
    assert GAME.outcome(state) is None and state["turn"] == 0


def test_forgotten_manual_flip_means_no_win():
    state = scene(2, hands=[["slechtic", "zebrak"], ["zebrak"] * 4],
                  councils=[["kat", "kovar"], []], options={"manual_flip": True})
    act(state, 0, type="citizen", card="slechtic")
    act(state, 0, type="citizen", card="zebrak")
    assert GAME.legal_actions(state, 0) == [{"type": "flip"}, {"type": "end"}]
    act(state, 0, type="end")
    act(state, 1, type="citizen", card="zebrak")
    act(state, 1, type="citizen", card="zebrak")
    assert GAME.outcome(state) is None and state["turn"] == 0
    act(state, 0, type="draw")
    act(state, 0, type="draw")
    act(state, 0, type="flip")
    act(state, 1, type="citizen", card="zebrak")
    act(state, 1, type="citizen", card="zebrak")
    assert GAME.outcome(state)["winners"] == [0]


def test_manual_flip_is_not_asked_without_enough_influence():
    state = scene(2, hands=[["zebrak", "zebrak"], []], options={"manual_flip": True})
    act(state, 0, type="citizen", card="zebrak")
    act(state, 0, type="citizen", card="zebrak")
    assert state["turn"] == 1


@pytest.mark.parametrize(("players", "target"), [(2, 13), (3, 11), (4, 11), (5, 9), (6, 7)])
def test_target_depends_on_the_player_count(players, target):
    assert scene(players)["target"] == target


@pytest.mark.parametrize(("variant", "step", "target"),
                         [("quick", 1, 10), ("quick", 2, 9), ("long", 1, 12), ("long", 2, 13),
                          ("tutorial", 1, 5), ("standard", 1, 11)])
def test_variants_move_the_target(variant, step, target):
    state = scene(3, options={"variant": variant, "variant_step": step})
    assert state["target"] == target


def test_unknown_variant_is_refused():
    with pytest.raises(IllegalAction):
        scene(3, options={"variant": "eternal"})


def test_turn_cap_ends_the_game_and_the_most_influence_wins():
    state = scene(2, hands=[["rolnik", "zebrak"], ["zebrak"]], options={"turn_cap": 1})
    act(state, 0, type="citizen", card="rolnik")
    act(state, 0, type="citizen", card="zebrak")
    out = GAME.outcome(state)
    assert out["result"] == "turn_cap" and out["winners"] == [0] and out["turns"] == 1
    assert out["scores"] == [3, 0]


def test_first_player_is_drawn_from_the_seed_without_a_scenario():
    firsts = {GAME.setup(["a", "b", "c"], seed, {})["first_player"] for seed in range(30)}
    assert firsts == {0, 1, 2}


def test_udani_on_the_third_citizen_ignites_and_its_player_takes_the_citizen():
    state = scene(2, hands=[["udani"], []], councils=[[], ["slechtic"]],
                  pyre=["zebrak", "zebrak"])
    act(state, 0, type="action", card="udani", target="slechtic-1")
    assert kinds(state["burned"][0]) == ["slechtic"]
    assert GAME.view(state, 0)["influence"] == [3, 0]


def test_primluva_keeps_the_citizen_off_a_pyre_that_would_ignite():
    state = scene(2, hands=[["zebrak"], ["primluva"]], councils=[[], ["kat"]],
                  pyre=["zebrak", "zebrak"], dice=[6])
    act(state, 0, type="accuse", target="kat-1")
    act(state, 1, type="pass")  # Alibi
    act(state, 0, type="pass")  # the roll: Anna (on turn), then Bedřich
    act(state, 1, type="pass")
    act(state, 0, type="pass")  # about to go to the pyre: Anna first
    act(state, 1, type="react", card="primluva")
    assert len(state["pyre"]) == 2 and state["burned"] == [[], []]


def test_alibi_stops_even_an_udani():
    state = scene(2, hands=[["udani"], ["alibi"]], councils=[[], ["slechtic"]])
    act(state, 0, type="action", card="udani", target="slechtic-1")
    act(state, 1, type="pass")  # Protest prompt
    act(state, 1, type="react", card="alibi")
    assert kinds(state["councils"][1]) == ["slechtic"] and state["turn"] == 1


def test_reaching_the_target_mid_turn_and_losing_it_before_the_end_flips_nothing():
    state = scene(2, hands=[["slechtic"], []], councils=[["kat", "kovar"], []],
                  pile=["zebrak"], dice=[6])
    act(state, 0, type="citizen", card="slechtic")
    act(state, 0, type="accuse", target="kat-1")  # 6 ≥ 5 +1 Kovář
    assert state["tokens"] == [False, False] and kinds(state["pyre"]) == ["kat"]


@pytest.mark.parametrize("scenario", [{"councils": [["alibi"]]}, {"pyre": ["protest"]},
                                      {"hands": [["slechtic", "slechtic"]]},
                                      {"hands": [["no-such-card"]]}])
def test_impossible_scenarios_are_refused(scenario):
    with pytest.raises(IllegalAction):
        scene(2, **scenario)
