"""The card preview (hexenhammer/preview.py) foresees from a seat's view exactly what the engine
then does: over random games, every card a seat may play is tried on a copy of the state, the
others let it pass, and each villager the preview names ends where it said."""

from __future__ import annotations

import copy
import random

import pytest

from hexnet.games.hexenhammer import GAME
from hexnet.games.hexenhammer.preview import Modifier, preview
from tests.hexnet.hexenhammer.util import card, scenario, start


def _let_it_pass(state: dict) -> None:
    """Every seat the open window asks lets the card pass (until the window closes)."""
    for _ in range(50):
        window = state["window"]
        if window is None or not window["pending"]:
            return
        GAME.apply(state, sorted(window["pending"])[0], {"type": "pass"})


def _check_plays(state: dict, seat: int, rng: random.Random) -> int:
    """Try up to four of ``seat``'s card plays on copies of ``state``; return how many hit."""
    view = GAME.view(state, seat)
    plays = [a for a in GAME.legal_actions(state, seat) if a["type"] == "play"]
    checked = 0
    for action in rng.sample(plays, min(4, len(plays))):
        foreseen = preview(view, action)
        assert foreseen is not None
        after = copy.deepcopy(state)
        GAME.apply(after, seat, action)
        _let_it_pass(after)
        final = {hit.villager: hit.after for hit in foreseen.hits}  # hit twice: the last
        for vid, value in final.items():
            assert after["villagers"][vid]["suspicion"] == value, (action, foreseen)
            checked += 1
    return checked


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_preview_foresees_the_suspicion_every_card_leaves(players: int) -> None:
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.setup([f"p{i}" for i in range(players)], seed, {})
        for _ in range(400):
            if GAME.outcome(state):
                break
            waiting = GAME.waiting_for(state)
            if not waiting:
                break
            seat = rng.choice(waiting)
            checked += _check_plays(state, seat, rng)
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert checked > 100  # many plays (brown, yellow, reactions) were foreseen and checked


def test_a_brown_card_names_the_accusers_abilities() -> None:
    """Bertram (+1 to Falsches Zeugnis) accuses Heinbichl: 3 + 1; Maria (+2 against Heinbichl)
    accuses him with Verleumdung: 1 + 2; Heinbichl's stake starts at 2."""
    state = start(scenario([["bertram", "maria", "karl"], ["heinbichl", "theresa", "berta"],
                            ["raphael", "luitger", "markwart"]],
                           hands=[["falsches_zeugnis:3", "verleumdung"], [], []]))
    view = GAME.view(state, 0)
    zeugnis = preview(view, {"type": "play", "card": card(state, 0, "falsches_zeugnis:3"),
                             "accuser": "bertram", "target": "heinbichl"})
    assert zeugnis is not None
    assert zeugnis.hits[0].modifiers == (Modifier("card", 3), Modifier("accuser", 1, "bertram"))
    assert (zeugnis.hits[0].before, zeugnis.hits[0].after) == (2, 6)
    slander = preview(view, {"type": "play", "card": card(state, 0, "verleumdung"),
                             "accuser": "maria", "target": "heinbichl"})
    assert slander is not None
    assert slander.hits[0].modifiers == (Modifier("card", 1), Modifier("against", 2, "maria"))
    assert (slander.hits[0].before, slander.hits[0].after) == (2, 5)
