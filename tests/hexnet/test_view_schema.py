"""Every game's view schema, pinned: the exact keys a view has in each scene, for a seat and for
the watcher. A new key in a view is a new thing some seat learns; it must be a conscious change
(edit the table here, and the re-deals in ``tests/hexnet/redeal.py`` if it shows something
secret), never a silent one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hexnet.engine import State
from hexnet.games import get_game
from tests.hexnet.redeal import random_positions

# what the shared contract adds to every view (hexnet/engine.py, Game.view)
CONTRACT = {"game", "seat", "players", "state_id", "active", "log", "deadline", "outcome"}

HEXENHAMMER = CONTRACT | {
    "phase", "round", "inquisitor", "turn", "villagers", "current_witches", "hand",
    "hand_sizes", "draw_pile", "discard_size", "taken", "empty_stakes", "kept_trials", "window",
    "interrupted", "done", "accusers_used", "free_accusers", "choice", "abilities", "scores"}
HEXENHAMMER_CARD = {"id", "kind", "value", "colour", "phases", "reaction", "signed"}

HRANICE = CONTRACT | {
    "target", "turn", "actions_left", "turns", "first_player", "manual_flip", "hand",
    "hand_sizes", "councils", "defence", "pyre", "burned", "influence", "tokens", "pile_size",
    "discard", "window", "step"}

FANG_PUBLIC = CONTRACT | {
    "day", "knights_day", "days_to_knights", "seals", "seals_needed", "curse", "curse_bar",
    "failed_rituals", "spells_unlocked", "required", "open_places", "forms", "roles", "role",
    "chief", "scene", "members", "proposal_size", "submitted", "time_limits", "deal",
    "record"}  # the public record of the game: proposals and votes, rituals, evenings
FANG_SEAT = FANG_PUBLIC | {"hand", "fluchkraut", "my_choice", "cat_counts",
                           "my_lays"}  # the seat's own ritual cards, by day
FANG_CARD = {"id", "ing"}

SCENES = {
    "hexenhammer": {"phase 1", "phase 2", "phase 3", "phase 4", "over"},
    "hranice": {"turn", "step alibied", "step choose", "step protested", "step pyred",
                "step rolled", "over"},
    "fang": {"ready", "pick", "guard", "witches", "announce", "talk", "proposal",
             "proposal_vote", "proposal_result", "ritual", "ritual_result", "pause", "vote",
             "vote_result", "over"},
}


def hexenhammer_scene(state: State) -> str:
    return "over" if state["outcome"] is not None else f"phase {state['phase']}"


def hexenhammer_keys(state: State, seat: int | None) -> set[str]:
    return HEXENHAMMER


def hranice_scene(state: State) -> str:
    if state["outcome"] is not None:
        return "over"
    return f"step {state['step']['stage']}" if state["step"] is not None else "turn"


def hranice_keys(state: State, seat: int | None) -> set[str]:
    step = state["step"]
    looking = step is not None and step["stage"] == "choose" and step["seat"] == seat
    return HRANICE | ({"peek"} if looking else set())  # Výslech: the looker sees that hand


def fang_scene(state: State) -> str:
    return "over" if state["outcome"] is not None else state["scene"]["name"]


def fang_keys(state: State, seat: int | None) -> set[str]:
    if seat is None:
        return FANG_PUBLIC
    role = state["roles"][seat]
    keys = set(FANG_SEAT)
    if role == "seherin":
        keys.add("seen")  # the seer's own looks
    if role == "beschuetzer":
        keys.add("guard_last")  # the protector may not guard the same place twice
    if (role == "hexe" and state["scene"]["name"] == "witches"
            and state["form"][seat] == "cat"):
        keys.add("witch")  # a witch's own choices in the witches' window
    return keys


RULES: dict[str, tuple[Callable[[State], str], Callable[[State, int | None], set[str]]]] = {
    "hexenhammer": (hexenhammer_scene, hexenhammer_keys),
    "hranice": (hranice_scene, hranice_keys),
    "fang": (fang_scene, fang_keys),
}
CARD_KEYS = {"hexenhammer": HEXENHAMMER_CARD, "fang": FANG_CARD, "hranice": None}
SAMPLES = {"hexenhammer": [(3, 0), (4, 1), (5, 2)],
           "hranice": [(2, 0), (3, 1), (6, 2), (4, 3)],
           "fang": [(4, 0), (6, 1), (8, 2), (12, 3), (7, 4), (10, 5)]}
EVERY = {"hexenhammer": 4, "hranice": 2, "fang": 2}


def _card_keys(view: dict[str, Any]) -> list[set[str]]:
    return [set(card) for card in view.get("hand", []) if isinstance(card, dict)]


@pytest.mark.parametrize("game_name", sorted(SCENES))
def test_every_view_has_exactly_the_keys_pinned_for_its_scene(game_name: str) -> None:
    game = get_game(game_name)
    scene_of, keys_of = RULES[game_name]
    seen = set()
    for players, seed in SAMPLES[game_name]:
        for state in random_positions(game_name, players, seed, EVERY[game_name],
                                      copies=False):
            scene = scene_of(state)
            assert scene in SCENES[game_name], f"a scene the pin does not know: {scene}"
            seen.add(scene)
            for seat in [*range(players), None]:
                view = game.view(state, seat)
                want = keys_of(state, seat)
                assert set(view) == want, (
                    f"{game_name}, {scene}, seat {seat}: new keys {sorted(set(view) - want)},"
                    f" missing {sorted(want - set(view))}")
                card = CARD_KEYS[game_name]
                if card is not None:
                    assert all(keys == card for keys in _card_keys(view)), (scene, seat)
                else:
                    assert all(isinstance(c, str) for c in view["hand"])  # physical ids
    assert seen == SCENES[game_name], f"scenes never reached: {SCENES[game_name] - seen}"
