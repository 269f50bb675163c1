"""Random games for 4–12 seats: the engine contract, determinism, every game ending by the
knights' day, and views that leak none of the game's secrets."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from hexnet.engine import State
from hexnet.games.fang import GAME, data
from hexnet.tools.selfplay import run_selfplay
from tests.hexnet.contract import random_game, replay

COUNTS = range(4, 13)
GAMES_PER_COUNT = 50
CARD_ID = re.compile(r'"(i\d+)"')
PRIVATE_KINDS = {"role", "witches", "seen", "stolen"}


@pytest.mark.parametrize("players", COUNTS)
def test_random_games_keep_the_contract_and_end_by_the_knights_day(players: int) -> None:
    results = set()
    for seed in range(GAMES_PER_COUNT):
        state, _ = random_game(GAME, players, seed, check_every=10)
        out = state["outcome"]
        assert out["day"] <= state["cfg"]["knights_day"]
        assert out["result"] in ("village", "witches", "fool")
        assert out["scores"] == [1 if s in out["winners"] else 0 for s in range(players)]
        assert out["witch_points"] == state["form"].count("frog")
        results.add(out["result"])
    assert results >= {"village", "witches"}


@pytest.mark.parametrize("players", [4, 7, 12])
def test_same_seed_and_actions_replay_the_same_game(players: int) -> None:
    for seed in range(3):
        state, history = random_game(GAME, players, 1000 + seed, check_every=50)
        again = replay(GAME, players, 1000 + seed, history)
        assert GAME.dump(again) == GAME.dump(state)


def _entitled_roles(state: State, viewer: int) -> list[str | None]:
    over = state["outcome"] is not None
    sees_witches = state["roles"][viewer] in (data.WITCH, data.CROW)
    return [r if over or s == viewer or state["form"][s] == "banished"
            or (sees_witches and r == data.WITCH) else None
            for s, r in enumerate(state["roles"])]


def check_view_leaks_nothing(state: State, viewer: int) -> None:
    """Every secret the rules list, checked on one seat's view."""
    v = GAME.view(state, viewer)
    text = json.dumps(v)
    role = state["roles"][viewer]
    assert "spoiled" not in text
    assert v["roles"] == _entitled_roles(state, viewer)
    own = {c["id"] for c in state["hands"][viewer]}
    assert set(CARD_ID.findall(text)) <= own, "another seat's card is visible"
    scene = state["scene"]["name"]
    if scene in ("pick", "guard", "witches") and state["outcome"] is None:
        assert set(v["active"]) <= {viewer}
        assert v["submitted"] == []
    if v["cat_counts"] is not None:
        assert (scene == "witches" and role == data.WITCH) or (
            scene == "guard" and role == data.PROTECTOR)
    assert ("seen" in v) == (role == data.SEER)
    assert ("witch" in v) <= (role == data.WITCH)
    for event in v["log"]:
        kind = event.get("kind")
        if kind not in PRIVATE_KINDS:
            continue
        if kind == "role":
            assert event["seat"] == viewer
        elif kind == "witches":
            assert role in (data.WITCH, data.CROW)
        elif kind == "seen":
            assert role == data.SEER
        elif kind == "stolen":
            assert role == data.PICKPOCKET


def _host_step(state: State, r: random.Random) -> bool:
    """Sometimes the host lets the deadline expire or marks a waited-on seat absent."""
    x = r.random()
    deadline = GAME.deadline(state)
    if deadline is not None and (x < 0.05 or not GAME.waiting_for(state)):
        GAME.apply(state, None, {"type": "timeout", "key": deadline.key})
        return True
    if x > 0.97 and GAME.waiting_for(state):
        GAME.apply(state, None, {"type": "absent", "seat": r.choice(GAME.waiting_for(state))})
        return True
    return False


def _views_of_others(state: State, actor: int) -> list[dict[str, Any]]:
    return [GAME.view(state, s) for s in range(state["n"]) if s != actor] + [
        GAME.view(state, None)]


SECRET_STEPS = {"pick", "restore", "guard", "witch_place", "spell", "attack", "no_attack",
                "vote_proposal", "vote", "abstain", "lay", "see"}


def check_choice_leaves_no_trace(state: State, actor: int, legal: list[dict],
                                 r: random.Random) -> None:
    """Two different secret choices that do not close the scene look the same to others."""
    options = [a for a in legal if a["type"] in SECRET_STEPS]
    if len(options) < 2:
        return
    first, second = r.sample(options, 2)
    views = []
    for action in (first, second):
        copy = GAME.load(GAME.dump(state))
        step = (copy["scene"]["serial"], copy["scene"]["name"])
        GAME.apply(copy, actor, action)
        if (copy["scene"]["serial"], copy["scene"]["name"]) != step or copy["outcome"]:
            return  # the scene closed: its result is public by the rules
        views.append(_views_of_others(copy, actor))
    assert views[0] == views[1], f"{first} and {second} look different to others"


@pytest.mark.parametrize("players", COUNTS)
def test_views_leak_no_secrets_and_choices_leave_no_trace(players: int) -> None:
    r = random.Random(players)
    options = {"time_limits": players % 2 == 1}
    state = GAME.setup([f"p{i}" for i in range(players)], players, options)
    steps = 0
    while state["outcome"] is None:
        steps += 1
        assert steps < 20_000
        if _host_step(state, r):
            continue
        actor = r.choice(GAME.waiting_for(state))
        legal = GAME.legal_actions(state, actor)
        if steps % 4 == 0:
            check_choice_leaves_no_trace(state, actor, legal, r)
        GAME.apply(state, actor, r.choice(legal))
        for viewer in range(players):
            check_view_leaks_nothing(state, viewer)
    assert state["outcome"]["day"] <= state["cfg"]["knights_day"]


@pytest.mark.parametrize("players", [5, 9, 12])
def test_heuristic_bots_finish_every_game(players: int) -> None:
    report = run_selfplay("fang", players, 10, 7, ["heuristic"])
    assert report["failures"] == [] and report["completed"] == 10
