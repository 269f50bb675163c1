"""The deal by player count, who knows whom, the ready scene, options and scenarios."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.fang import GAME, setup
from tests.hexnet.fang.helpers import EIGHT, act, table

EXPECTED = {
    4: {"hexe": 1, "seherin": 1, "dorfkatze": 2},
    5: {"hexe": 1, "seherin": 1, "beschuetzer": 1, "dorfkatze": 2},
    6: {"hexe": 2, "seherin": 1, "beschuetzer": 1, "kraeuterkundige": 1, "dorfkatze": 1},
    7: {"hexe": 2, "seherin": 1, "beschuetzer": 1, "kraeuterkundige": 1, "taschendieb": 1,
        "dorfkatze": 1},
    8: {"hexe": 2, "kraehe": 1, "seherin": 1, "beschuetzer": 1, "kraeuterkundige": 1,
        "taschendieb": 1, "dorfkatze": 1},
    9: {"hexe": 2, "kraehe": 1, "seherin": 1, "beschuetzer": 1, "kraeuterkundige": 1,
        "taschendieb": 1, "narr": 1, "dorfkatze": 1},
    12: {"hexe": 3, "kraehe": 1, "seherin": 1, "beschuetzer": 1, "kraeuterkundige": 1,
         "taschendieb": 1, "narr": 1, "dorfkatze": 3},
}


@pytest.mark.parametrize("players", sorted(EXPECTED))
def test_the_standard_table_deals_roles_by_player_count(players: int) -> None:
    state = GAME.setup([f"p{i}" for i in range(players)], 3, {"deal": "standard"})
    assert Counter(state["roles"]) == EXPECTED[players]


@pytest.mark.parametrize(("players", "seals", "knights", "day_one"),
                         [(4, 3, 5, 2), (7, 3, 5, 2), (9, 4, 6, 3), (11, 4, 6, 3)])
def test_seals_knights_day_and_circle_size_by_player_count(players, seals, knights,
                                                           day_one) -> None:
    state = GAME.setup([f"p{i}" for i in range(players)], 3)
    view = GAME.view(state, 0)
    assert (view["seals_needed"], view["knights_day"], view["curse_bar"]) == (seals, knights, 3)
    for seat in range(players):
        act(state, seat, type="ready")
    assert len(state["required"]) == day_one


def test_the_deal_is_shuffled_by_the_seed() -> None:
    deals = {tuple(GAME.setup([f"p{i}" for i in range(8)], seed)["roles"]) for seed in range(8)}
    assert len(deals) > 1
    assert GAME.setup(list("abcdefgh"), 5)["roles"] == GAME.setup(list("abcdefgh"), 5)["roles"]


def test_everyone_sees_only_their_own_role() -> None:
    state = table(EIGHT)
    assert GAME.view(state, 3)["roles"] == [None, None, None, "seherin", None, None, None, None]
    assert GAME.view(state, 7)["roles"][7] == "dorfkatze"
    assert set(GAME.view(state, None)["roles"]) == {None}


def test_witches_see_the_witches_but_not_the_crow() -> None:
    state = table(EIGHT)
    assert GAME.view(state, 0)["roles"][:3] == ["hexe", "hexe", None]


def test_the_crow_sees_the_witches() -> None:
    state = table(EIGHT)
    assert GAME.view(state, 2)["roles"][:3] == ["hexe", "hexe", "kraehe"]


def test_the_game_waits_until_everyone_is_ready() -> None:
    state = GAME.setup([f"p{i}" for i in range(5)], 1)
    assert GAME.waiting_for(state) == [0, 1, 2, 3, 4]
    for seat in range(4):
        act(state, seat, type="ready")
    assert state["day"] == 0 and GAME.deadline(state) is None
    act(state, 4, type="ready")
    assert state["day"] == 1 and state["scene"]["name"] == "pick"


def test_host_may_deal_another_role_list() -> None:
    state = GAME.setup([f"p{i}" for i in range(6)], 1, {"roles": ["hexe", "narr", "kraehe"]})
    assert Counter(state["roles"]) == {"hexe": 1, "narr": 1, "kraehe": 1, "dorfkatze": 3}
    with pytest.raises(IllegalAction):
        GAME.setup([f"p{i}" for i in range(6)], 1, {"roles": ["seherin"]})


def test_scenario_fixes_roles_day_hands_and_frogs() -> None:
    state = table(EIGHT, day=3, frogs=[7], hands=[["pilz", "mehl*"]], seals=1)
    assert state["roles"] == EIGHT and state["day"] == 3
    assert state["form"][7] == "frog" and state["seals"] == 1
    assert [(c["ing"], c["spoiled"]) for c in state["hands"][0]] == [
        ("pilz", False), ("mehl", True)]
    assert GAME.view(state, 0)["hand"] == [{"id": "i1", "ing": "pilz"},
                                           {"id": "i2", "ing": "mehl"}]


# Option ``deal = "balanced"``, the default: the balance study with hard bots on every seat saw the
# village win more than 60% at 5, 8 and 9 players under the standard deal, and the fool more than
# 15% from 9 on; the balanced table changes those counts and deals no fool.
BALANCED_CHANGES = {
    5: {"hexe": 1, "seherin": 1, "dorfkatze": 3},
    7: {"hexe": 2, "seherin": 1, "kraeuterkundige": 1, "taschendieb": 1, "dorfkatze": 2},
    8: {"hexe": 2, "kraehe": 1, "seherin": 1, "kraeuterkundige": 1, "taschendieb": 1,
        "dorfkatze": 2},
    9: {"hexe": 2, "kraehe": 2, "seherin": 1, "kraeuterkundige": 1, "dorfkatze": 3},
    10: {"hexe": 3, "kraehe": 1, "seherin": 1, "beschuetzer": 1, "dorfkatze": 4},
    11: {"hexe": 3, "kraehe": 1, "seherin": 1, "kraeuterkundige": 1, "taschendieb": 1,
         "dorfkatze": 4},
    12: {"hexe": 3, "kraehe": 2, "seherin": 1, "beschuetzer": 1, "kraeuterkundige": 1,
         "taschendieb": 1, "dorfkatze": 3},
}


@pytest.mark.parametrize("players", range(4, 13))
def test_the_balanced_role_table_changes_only_the_counts_of_the_balance_study(players) -> None:
    names = [f"p{i}" for i in range(players)]
    standard = Counter(GAME.setup(names, 3, {"deal": "standard"})["roles"])
    balanced = Counter(GAME.setup(names, 3, {"deal": "balanced"})["roles"])
    assert balanced == BALANCED_CHANGES.get(players, standard)
    if players in EXPECTED:
        assert standard == EXPECTED[players]


@pytest.mark.parametrize("players", range(4, 13))
def test_the_balanced_role_table_is_the_default(players) -> None:
    names = [f"p{i}" for i in range(players)]
    assert GAME.setup(names, 9)["roles"] == GAME.setup(names, 9, {"deal": "balanced"})["roles"]


@pytest.mark.parametrize("players", range(4, 13))
def test_the_balanced_role_table_deals_no_fool(players) -> None:
    names = [f"p{i}" for i in range(players)]
    assert "narr" not in GAME.setup(names, 9)["roles"]


def test_the_role_table_is_public_and_the_search_bots_deal_from_it() -> None:
    from hexnet.games.fang import belief

    state = GAME.setup([f"p{i}" for i in range(8)], 4, {"deal": "balanced"})
    view = GAME.view(state, 0)
    assert (view["deal"], GAME.view(state, None)["deal"]) == ("balanced", "balanced")
    assert Counter(belief.role_pool(view)) == BALANCED_CHANGES[8]
    for seed in range(5):
        sampled = GAME.sample_state(view, random.Random(seed))
        assert Counter(sampled["roles"]) == BALANCED_CHANGES[8]
    assert GAME.view(GAME.setup([f"p{i}" for i in range(8)], 4), 0)["deal"] == "balanced"
    standard = GAME.view(GAME.setup([f"p{i}" for i in range(8)], 4, {"deal": "standard"}), 0)
    assert (standard["deal"], Counter(belief.role_pool(standard))) == ("standard", EXPECTED[8])


# the circles (ingredients needed on day 1, 2, …) the balanced table changes, by player count
# (none since the balance study of the bots from 879ee86: 8's bigger circles went)
BALANCED_CIRCLES: dict[int, list[int]] = {}


@pytest.mark.parametrize("players", range(4, 13))
def test_the_balanced_table_changes_the_circles_only_where_the_balance_study_did(players) -> None:
    standard = setup.config(players, {"deal": "standard"})
    balanced = setup.config(players, {})
    assert balanced["circle"] == BALANCED_CIRCLES.get(players, standard["circle"])
    assert {k: v for k, v in balanced.items() if k not in ("circle", "deal")} == {
        k: v for k, v in standard.items() if k not in ("circle", "deal")}
    assert GAME.setup([f"p{i}" for i in range(players)], 2)["cfg"]["circle"] == balanced["circle"]


def test_the_rules_text_names_the_balanced_circles_and_no_other() -> None:
    from importlib import resources

    text = " ".join(resources.files("seeds").joinpath("rules", "fang.md").read_text(
        "utf-8").split())
    assert text.count("also asks for more ingredients") == len(BALANCED_CIRCLES)
    for players, circle in BALANCED_CIRCLES.items():
        standard = setup.config(players, {"deal": "standard"})["circle"]
        assert (f"At {players} players `balanced` also asks for more ingredients: "
                f"{', '.join(map(str, circle))} a day (the last repeats) instead of "
                f"{', '.join(map(str, standard))}.") in text


def test_an_unknown_role_table_is_refused() -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.setup([f"p{i}" for i in range(6)], 1, {"deal": "house"})
    assert refused.value.key == "unknown_deal"


# the English rules text names the roles so (a count before a plural: "2 witches")
RULES_TEXT_NAMES = {"witch": "hexe", "crow": "kraehe", "seer": "seherin",
                    "protector": "beschuetzer", "herbalist": "kraeuterkundige",
                    "pickpocket": "taschendieb", "fool": "narr"}


def _rules_text_roles(cell: str) -> Counter:
    out: Counter = Counter()
    for part in cell.split(", "):
        count, _, name = part.partition(" ") if part[0].isdigit() else ("1", "", part)
        name = name[:-2] if name.endswith("ches") else name.rstrip("s")
        out[RULES_TEXT_NAMES[name]] += int(count)
    return out


def test_the_rules_text_shows_both_role_tables_as_seeds_fang_toml_deals_them() -> None:
    from importlib import resources

    text = resources.files("seeds").joinpath("rules", "fang.md").read_text("utf-8")
    rows = [line.strip("|").split(" | ") for line in text.splitlines()
            if line.startswith("| ") and line.count(" | ") == 2 and line[2].isdigit()]
    assert [int(r[0]) for r in rows] == sorted(BALANCED_CHANGES)  # every changed count, no other
    for players, standard, balanced in rows:
        names = [f"p{i}" for i in range(int(players))]
        for deal, cell in (("standard", standard), ("balanced", balanced)):
            dealt = Counter(GAME.setup(names, 1, {"deal": deal})["roles"])
            del dealt["dorfkatze"]
            assert _rules_text_roles(cell.strip()) == dealt, (players, deal)
