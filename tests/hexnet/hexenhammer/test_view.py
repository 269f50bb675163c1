"""What a seat sees, the log's sentences, refusals with reasons, and the host's hooks."""

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.hexenhammer import GAME
from tests.hexnet.hexenhammer.util import card, close_window, play, scenario, start, texts

ROWS = [["karl", "berta"], ["maria"], ["theresa"]]


def test_the_view_shows_the_table_and_only_the_own_hand():
    st = start(scenario(ROWS, [["verleumdung", "beweys:2"], ["ableugnung"], []], turn=0))
    v = GAME.view(st, 0)
    for key in ("phase", "inquisitor", "active", "villagers", "hand", "hand_sizes", "log",
                "outcome", "draw_pile", "discard_size", "taken", "empty_stakes", "kept_trials",
                "window", "done", "deadline", "current_witches"):
        assert key in v
    karl = v["villagers"][0]
    assert {k: karl[k] for k in ("id", "owner", "start", "suspicion", "alive",
                                 "pentagrams", "matches")} == {
        "id": "karl", "owner": 0, "start": 2, "suspicion": 2,
        "alive": True, "pentagrams": 3, "matches": 3}
    assert [(c["kind"], c["value"]) for c in v["hand"]] == [("verleumdung", 1), ("beweys", 2)]
    assert {"id", "kind", "value", "colour", "reaction"} <= set(v["hand"][0])
    # ids, not words: names and texts come from the reader's catalog
    assert not {"name", "text", "label"} & set(v["hand"][0])
    assert not {"name", "short", "ability"} & set(karl)
    assert v["hand_sizes"] == [2, 1, 0] and v["active"] == [0]
    assert GAME.view(st, None)["hand"] == []


def test_the_log_tells_the_accusation_in_a_sentence():
    st = start(scenario(ROWS, [["beweys:2"], [], []], phase=2, inquisitor=1,
                        suspicion={"maria": 5}))
    play(st, 0, "beweys:2", accuser="karl", target="maria")
    assert GAME.view(st, 2)["window"]["trigger"]["kind"] == "beweys"
    assert "card" not in GAME.view(st, 2)["window"]["trigger"]
    close_window(st)
    assert "Karl (Anna) accuses Maria (Bob) with Beweys +2: Maria 5 → 7." in texts(st, 2)


def test_refusals_say_why():
    st = start(scenario(ROWS, [["verleumdung", "verleumdung", "beweys:1"], [], []], turn=0))
    with pytest.raises(IllegalAction, match="not played in phase 1"):
        play(st, 0, "beweys:1", accuser="karl", target="maria")
    with pytest.raises(IllegalAction, match="Berta can never be the accuser"):
        play(st, 0, "verleumdung", accuser="berta", target="maria")
    play(st, 0, "verleumdung", accuser="karl", target="maria")
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(st, 0, {"type": "pass"})
    close_window(st)
    with pytest.raises(IllegalAction, match="Karl has already accused this turn"):
        play(st, 0, "verleumdung", accuser="karl", target="maria")


def test_an_absent_seat_passes_and_the_game_goes_on():
    st = start(scenario(ROWS, [["verleumdung"], [], []], turn=0, deck=["beweys:1"]))
    GAME.apply(st, None, {"type": "absent", "seat": 0})
    assert GAME.waiting_for(st) == [1] and len(st["hands"][0]) == 2


def test_an_absent_inquisitor_breaks_a_tie_with_the_first_option():
    st = start(scenario([["karl", "berta"], ["maria", "bertram"], ["theresa", "raphael"]],
                        [[], [], []], phase=3, inquisitor=1, turn=1,
                        suspicion={"karl": 9, "theresa": 9}))
    for seat in (1, 2, 0):
        GAME.apply(st, seat, {"type": "pass"})
    GAME.apply(st, None, {"type": "absent", "seat": 1})
    assert st["taken"][1] == ["karl"]


def test_a_brown_card_in_hand_is_identified_only_by_its_random_id():
    a = GAME.setup(["a", "b", "c"], 1, {})
    b = GAME.setup(["a", "b", "c"], 2, {})
    assert a["cards"] != b["cards"]
    assert card(start(scenario(ROWS, [["verleumdung"], [], []])), 0, "verleumdung").startswith("c")
