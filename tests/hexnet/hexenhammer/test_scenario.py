"""The scenario format stacks exactly the position it names, and refuses nonsense."""

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.hexenhammer import GAME
from tests.hexnet.hexenhammer.util import NAMES


def setup(sc, players=3):
    return GAME.setup(NAMES[:players], 5, {"scenario": sc})


def test_a_scenario_stacks_villagers_stakes_hands_deck_phase_and_turn():
    st = setup({"villagers": [["karl"], ["maria", "berta"], ["theresa"]],
                "start": {"karl": 3}, "suspicion": {"karl": 7, "maria": 30},
                "hands": [["beweys:2", "ableugnung"], [], ["spende:1"]],
                "deck": ["gestaendnis:6", "verleumdung"], "phase": 3, "turn": 2,
                "inquisitor": 1})
    assert st["villagers"]["karl"] == {"owner": 0, "start": 3, "suspicion": 7, "alive": True}
    assert st["villagers"]["maria"]["suspicion"] == 18
    assert [st["cards"][c] for c in st["hands"][0]] == [["beweys", 2], ["ableugnung", -2]]
    assert [st["cards"][c] for c in reversed(st["deck"])] == [["gestaendnis", 6],
                                                               ["verleumdung", 1]]
    assert len(st["removed"]) == 78 - 5
    assert (st["phase"], st["turn"], st["inquisitor"]) == (3, 2, 1)
    assert GAME.waiting_for(st) == [2]


def test_without_a_deck_the_other_cards_are_shuffled_into_the_draw_pile():
    st = setup({"villagers": [["karl"], ["maria"], ["berta"]], "hands": [["widerruf"], [], []]})
    assert len(st["deck"]) == 77 and st["removed"] == []
    assert GAME.waiting_for(st) == [2]   # Berta's owner begins


@pytest.mark.parametrize("bad", [
    {"villagers": [["karl"], ["maria"]]},
    {"villagers": [["karl"], ["karl"], ["maria"]]},
    {"villagers": [["karl"], ["maria"], ["nobody"]]},
    {"villagers": [["karl"], ["maria"], ["berta"]], "hands": [["beweys:7"], [], []]},
    {"villagers": [["karl"], ["maria"], ["berta"]], "hands": [["beweys"], [], []]},
    {"villagers": [["karl"], ["maria"], ["berta"]], "hands": [["gestaendnis:6"] * 3, [], []]},
    {"villagers": [["karl"], ["maria"], ["berta"]], "phase": 5},
    {"villagers": [["karl"], ["maria"], ["berta"]], "turn": 3},
    {"villagers": [["karl"], ["maria"], ["berta"]], "surprise": 1},
])
def test_a_bad_scenario_is_refused_with_a_reason(bad):
    with pytest.raises(IllegalAction, match="Bad scenario"):
        setup(bad)
