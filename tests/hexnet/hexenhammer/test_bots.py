"""The bots: legal choices only, the heuristic's sensible moves, and that it beats random."""

import random

from hexnet.games.hexenhammer import GAME, POLICIES
from hexnet.tools.selfplay import play_game, run_selfplay
from tests.hexnet.hexenhammer.util import card, play, scenario, start

ROWS = [["theresa", "heinbichl"], ["karl", "maria"], ["raphael", "bertram"]]
heuristic = POLICIES["heuristic"]
normal_level = POLICIES["normal"]


def choose(st, seat, policy=heuristic):
    return policy(GAME.view(st, seat), GAME.legal_actions(st, seat), random.Random(0))


def test_heuristic_calls_the_inquisition_when_an_opponents_villager_leads():
    st = start(scenario(ROWS, [["verleumdung"], [], []], turn=0, suspicion={"karl": 9}))
    assert choose(st, 0) == {"type": "call_inquisition"}


def test_heuristic_calls_the_inquisition_when_an_opponents_villager_ties_the_lead():
    # the inquisitor breaks the tie
    st = start(scenario(ROWS, [[], [], []], turn=0, suspicion={"karl": 9, "theresa": 9}))
    assert choose(st, 0) == {"type": "call_inquisition"}


def test_heuristic_ends_its_turn_when_its_own_villager_leads():
    st = start(scenario(ROWS, [[], [], []], turn=0, suspicion={"karl": 8, "theresa": 9}))
    assert choose(st, 0) == {"type": "pass"}


def test_heuristic_calls_the_inquisition_when_nothing_is_left_to_draw():
    # its own villager leads, but with pile and discards empty only a call ends phase 1
    st = start(scenario(ROWS, [[], [], []], turn=0, suspicion={"karl": 8, "theresa": 9},
                        deck=[]))
    assert choose(st, 0) == {"type": "call_inquisition"}


def test_heuristic_accuses_an_opponents_villager_when_its_own_leads():
    st = start(scenario(ROWS, [["falsches_zeugnis:3"], [], []], turn=0,
                        suspicion={"theresa": 9, "karl": 8}))
    action = choose(st, 0)
    assert action["type"] == "play" and action["target"] == "karl"


def test_heuristic_turns_away_an_accusation_of_its_villager():
    st = start(scenario(ROWS, [["falsches_zeugnis:3"], ["verwechslung"], []], turn=0,
                        suspicion={"karl": 8, "raphael": 7}))
    play(st, 0, "falsches_zeugnis:3", accuser="heinbichl", target="karl")
    action = choose(st, 1)
    assert action == {"type": "play", "card": card(st, 1, "verwechslung"), "other": "raphael"}


def test_heuristic_breaks_a_tie_against_an_opponent():
    st = start(scenario(ROWS, [[], [], []], phase=3, inquisitor=1, turn=1,
                        suspicion={"karl": 9, "raphael": 9}))
    for seat in (1, 2, 0):
        GAME.apply(st, seat, {"type": "pass"})
    assert choose(st, 1) == {"type": "choose", "target": "raphael"}


def test_heuristic_answers_a_card_with_a_trial_that_burns_an_opponents_witch():
    # phase 3, seat 1's Beweys would make Theresa (seat 0's) the witch; Raphael (seat 2's) is
    # the witch now, so seat 0 plays its water trial inside the window and the Beweys lapses
    st = start(scenario(ROWS, [["wasserprobe_sinkt"], ["beweys:2"], []], phase=3, inquisitor=1,
                        turn=1, suspicion={"raphael": 9, "theresa": 8}))
    play(st, 1, "beweys:2", accuser="karl", target="theresa")
    assert choose(st, 0) == {"type": "play", "card": card(st, 0, "wasserprobe_sinkt")}


def test_heuristic_does_not_call_a_trial_on_its_own_witch():
    st = start(scenario(ROWS, [["wasserprobe_sinkt"], ["beweys:2"], []], phase=3, inquisitor=1,
                        turn=1, suspicion={"theresa": 9}))
    play(st, 1, "beweys:2", accuser="karl", target="maria")
    assert choose(st, 0) == {"type": "pass"}


def test_heuristic_cancels_a_call_that_would_burn_its_villager():
    st = start(scenario(ROWS, [[], ["keyne_inquisition"], []], turn=0,
                        suspicion={"karl": 9}, deck=["beweys:2"]))
    GAME.apply(st, 0, {"type": "call_inquisition"})
    assert choose(st, 1) == {"type": "play", "card": card(st, 1, "keyne_inquisition")}


def test_heuristic_lets_a_call_stand_when_the_draw_pile_is_empty():
    # the Keyne Inquisition would come straight back on the reshuffle, and the call with it
    st = start(scenario(ROWS, [[], ["keyne_inquisition"], []], turn=0,
                        suspicion={"karl": 9}, deck=[]))
    GAME.apply(st, 0, {"type": "call_inquisition"})
    assert choose(st, 1) == {"type": "pass"}


def test_heuristic_games_end_where_a_lap_of_phase_1_repeated_forever():
    # seeds whose heuristic bots held every card and then cancelled the same call (four
    # seats), or none called (three seats), lap after lap (no end after 50,000 actions)
    for seats, seed in ((4, 92), (4, 5454), (3, 5413)):
        outcome, actions = play_game(GAME, [heuristic] * seats, seed)
        assert outcome["winners"] and actions < 2000


def test_normal_level_discards_the_cards_only_phase_1_takes_in_phase_4():
    st = start(scenario(ROWS, [["beweys:2", "verleumdung", "ableugnung"], [], []], phase=4,
                        inquisitor=0, turn=0))
    assert choose(st, 0, normal_level) == {"type": "discard", "card": card(st, 0, "verleumdung")}
    GAME.apply(st, 0, choose(st, 0, normal_level))
    assert choose(st, 0, normal_level) == {"type": "discard", "card": card(st, 0, "ableugnung")}
    GAME.apply(st, 0, choose(st, 0, normal_level))
    assert choose(st, 0, normal_level) == {"type": "pass"}  # the Beweys is kept


def test_heuristic_keeps_its_cards_in_phase_4():
    # the plain heuristic (and the easy level built on it) hoards, as a beginner does
    st = start(scenario(ROWS, [["beweys:2", "verleumdung", "ableugnung"], [], []], phase=4,
                        inquisitor=0, turn=0))
    assert choose(st, 0) == {"type": "pass"}


def test_normal_level_beats_the_heuristic_it_refines():
    # seat 0 normal against two heuristics, then seat 0 heuristic against two normals
    normal = run_selfplay("hexenhammer", 3, 300, 5, ["normal", "heuristic", "heuristic"])
    plain = run_selfplay("hexenhammer", 3, 300, 5, ["heuristic", "normal", "normal"])
    assert normal["completed"] == plain["completed"] == 300
    assert normal["win_rate_by_seat"][0] > plain["win_rate_by_seat"][0] + 0.10


def test_heuristic_beats_three_random_bots():
    report = run_selfplay("hexenhammer", 4, 24, 11, ["heuristic", "random", "random", "random"])
    assert report["completed"] == 24
    assert report["win_rate_by_seat"][0] >= 0.5
