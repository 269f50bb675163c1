"""The bots' choices in set positions, their strength, and the shape of a seat's view."""

from __future__ import annotations

import random

from hexnet.games.hranice import GAME, POLICIES, board
from hexnet.i18n import render_label
from hexnet.tools.selfplay import run_selfplay

from .scene import act, scene

heuristic = POLICIES["heuristic"]


def _choose(state, seat):
    return heuristic(GAME.view(state, seat), GAME.legal_actions(state, seat), random.Random(0))


def test_heuristic_accuses_the_leaders_strongest_citizen_it_can_likely_hit():
    state = scene(3, hands=[["kovar"], ["zebrak"], ["zebrak"]],
                  councils=[["soudce", "soudce"], ["slechtic", "rolnik"], ["kat", "zebrak"]],
                  pyre=["zebrak", "rolnik"], options={"turn_cap": 5})
    # a hit ignites the pyre (+3 for us); Šlechtic (6) is hit on 4+ with two Soudces
    assert _choose(state, 0) == {"type": "accuse", "target": "slechtic-1"}


def test_heuristic_plays_a_citizen_when_there_is_nothing_to_hit():
    state = scene(2, hands=[["rolnik", "knez"], []])
    assert _choose(state, 0) == {"type": "citizen", "card": "knez"}


def test_heuristic_plays_alibi_for_its_own_citizen_only():
    state = scene(3, hands=[["zebrak"], ["alibi"], ["alibi"]], councils=[[], ["kat"], []])
    act(state, 0, type="accuse", target="kat-1")
    assert _choose(state, 1) == {"type": "react", "card": "alibi"}


def test_heuristic_saves_its_citizen_with_primluva_and_keeps_it_otherwise():
    state = scene(3, hands=[["zebrak"], ["primluva"], ["primluva"]],
                  councils=[[], ["kat"], []], dice=[6])
    act(state, 0, type="accuse", target="kat-1")
    act(state, 1, type="pass")  # Alibi prompt
    for seat in (0, 1, 2):
        act(state, seat, type="pass")  # the roll: the player on turn first
    assert state["window"]["trigger"]["event"] == "to_pyre"
    act(state, 0, type="pass")
    assert _choose(state, 1) == {"type": "react", "card": "primluva"}
    act(state, 1, type="pass")
    assert _choose(state, 2) == {"type": "pass"}


def test_heuristic_nudges_a_roll_against_its_citizen():
    state = scene(2, hands=[["zebrak"], ["svedek"]], councils=[[], ["kat"]], dice=[5])
    act(state, 0, type="accuse", target="kat-1")
    act(state, 1, type="pass")  # Alibi prompt
    act(state, 0, type="pass")  # the roll: the player on turn first
    assert _choose(state, 1) == {"type": "react", "card": "svedek", "sign": -1}


def test_heuristic_beats_random_players():
    report = run_selfplay("hranice", 3, 40, 11, ["heuristic", "random", "random"])
    assert report["completed"] == 40
    assert report["win_rate_by_seat"][0] >= 0.6


def test_heuristic_games_end_for_every_player_count():
    for players in range(2, 7):
        report = run_selfplay("hranice", players, 4, 5, ["heuristic"])
        assert report["completed"] == 4, report["failures"]


def test_a_seat_sees_its_hand_and_only_the_sizes_of_the_others():
    state = scene(3, hands=[["kat"], ["alibi", "knez"], []], councils=[[], ["kovar", "rolnik"],
                                                                     []])
    view = GAME.view(state, 1)
    assert view["hand"] == ["alibi-1", "knez-1"] and view["hand_sizes"] == [1, 2, 0]
    assert view["defence"] == {"kovar-1": 3, "rolnik-1": 3}
    assert view["influence"] == [0, 5, 0] and view["target"] == 11
    assert view["actions_left"] == 2 and view["turn"] == 0
    assert GAME.view(state, None)["hand"] == []


def test_actions_have_readable_labels():
    state = scene(2, hands=[["muceni"], []], councils=[[], ["kovar"]])
    label = GAME.describe_action(state, 0, {"type": "action", "card": "muceni",
                                            "target": "kovar-1"})
    assert label == {"key": "action_citizen", "card": "muceni", "owner": 1,
                     "target": "kovar-1", "influence": 3, "defence": 3}
    assert render_label("hranice", label, state["players"], "en") == (
        "Play Mučení on Bedřich's Kovář 3")


def test_the_view_shows_each_citizens_defence_with_the_bonuses_of_its_council():
    seen = 0
    for seed in range(1, 6):
        state = GAME.setup(["a", "b", "c", "d"], seed, {})
        r = random.Random(seed)
        while state["outcome"] is None:
            defence = GAME.view(state, 0)["defence"]
            expected = {}
            for council in state["councils"]:
                for card in council:
                    base, bonuses = board.defence(state, card)
                    expected[card] = base + sum(b for _, b in bonuses)
                    seen += bool(bonuses)
            assert defence == expected
            seat = GAME.waiting_for(state)[0]
            GAME.apply(state, seat, r.choice(GAME.legal_actions(state, seat)))
    assert seen > 10  # citizens with a council bonus (Kovář)
