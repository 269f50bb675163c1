"""The belief over role assignments (hexnet.games.fang.belief): its exact enumeration agrees
with brute force over every deal of the table's roles, its sampling with its enumeration, and
every world it deals agrees with everything the seat knows."""

from __future__ import annotations

import math
import random
from itertools import permutations
from typing import Any

import pytest

from hexnet.games import get_game, get_policy
from hexnet.games.fang import behaviour, belief, data
from hexnet.games.fang.behaviour import CROW, FOOL, WITCH, class_of


def play_to(players: int, seed: int, days: int, options: dict[str, Any] | None = None):
    """A table of ``normal`` bots played until day ``days`` (or the end)."""
    game = get_game("fang")
    bot = get_policy("fang", "normal")
    state = game.setup([f"p{i}" for i in range(players)], seed, options or {})
    r = random.Random(seed)
    while game.outcome(state) is None and state["day"] < days:
        waiting = game.waiting_for(state)
        if not waiting:
            game.apply(state, None, {"type": "timeout", "key": game.deadline(state).key})
            continue
        seat = r.choice(waiting)
        game.apply(state, seat, bot(game.view(state, seat), game.legal_actions(state, seat), r))
    return game, state


def running_table(players: int, first_seed: int, days: int,
                  options: dict[str, Any] | None = None):
    """The first table from ``first_seed`` on that is still running with a record on day
    ``days`` (which tables end early is the bots' business, not the belief's)."""
    for seed in range(first_seed, first_seed + 50):
        game, state = play_to(players, seed, days, options)
        if state["record"] and state["outcome"] is None:
            return game, state
    raise AssertionError(f"no table of {players} still running on day {days}")


def running(cls: list[int], forms: list[str]) -> bool:
    cats = [s for s, f in enumerate(forms) if f == "cat"]
    witches = sum(1 for s in cats if cls[s] == WITCH)
    return witches > 0 and len(cats) - witches > witches


def likelihood(cls: list[int], view: dict[str, Any]) -> float:  # noqa: C901 - an oracle, spelt out
    """The record's likelihood under one assignment, written out entry by entry (the model of
    the belief's docstring, one assignment at a time); 0 if a check along the way fails."""
    me, m = view["seat"], behaviour.model()
    name = behaviour.CLASSES
    forms = ["cat"] * len(cls)
    p = 1.0
    for e in view["record"]:
        if e["k"] == "proposal":
            dirty = any(cls[s] in (WITCH, CROW) for s in e["members"])
            for v in e["yes"] + e["no"]:
                if v in (e["chief"], me):
                    continue
                where = "in" if v in e["members"] else "out"
                yes = m[name[cls[v]]][f"yes_{'dirty' if dirty else 'clean'}_{where}"]
                p *= yes if v in e["yes"] else 1 - yes
        elif e["k"] == "ritual":
            if me in e["members"]:
                mine = [ing for day, ing in view["my_lays"] if day == e["day"]]
                if mine[-1] not in e["required"]:
                    continue
            good = math.prod(1 - m[name[cls[s]]]["spoils"] for s in e["members"] if s != me)
            if me in e["members"]:
                good *= 1 - belief.OWN_SPOIL
            p *= good if e["success"] else 1 - good
        elif e["k"] == "vote":
            cats = [s for s, _t in e["votes"]]
            for voter, target in e["votes"]:
                if voter == me:
                    continue
                behave = m[name[cls[voter]]]
                if target is None:
                    p *= behave["abstains"]
                    continue
                w = sum(1 for s in cats if s != voter and cls[s] == WITCH)
                pw = behave["votes_witch"] if w else 0.0
                share = pw / w if cls[target] == WITCH else (1 - pw) / (len(cats) - 1 - w)
                p *= (1 - behave["abstains"]) * share
            if e["banished"] is not None:
                if cls[e["banished"]] != class_of(e["role"]):
                    return 0.0
                forms[e["banished"]] = "banished"
            if not running(cls, forms):
                return 0.0
        elif e["k"] == "evening":
            for s in range(len(cls)):
                if forms[s] == "cat" and s != me:
                    turned = m[name[cls[s]]]["turned"]
                    p *= turned if s in e["frogs"] else 1 - turned
            for s in e["frogs"]:
                forms[s] = "frog"
            for s in e["restored"]:
                forms[s] = "cat"
            if not running(cls, forms):
                return 0.0
    return p


def brute_force(view: dict[str, Any]) -> list[list[float]]:
    """P(witch), P(crow), P(fool) per seat over every distinct deal of the table's roles that
    fits what the seat knows."""
    n = len(view["players"])
    known = list(view["roles"])
    seen = belief.seer_findings(view)
    totals = [[0.0] * n for _ in range(3)]
    weight = 0.0
    for roles in set(permutations(belief.role_pool(view))):
        if any(k is not None and k != r for k, r in zip(known, roles, strict=True)):
            continue
        if any((roles[s] == data.WITCH) != w for s, w in seen.items()):
            continue
        cls = [class_of(r) for r in roles]
        if view["outcome"] is None and not running(cls, view["forms"]):
            continue
        p = likelihood(cls, view)
        weight += p
        for i, c in enumerate((WITCH, CROW, FOOL)):
            for s in range(n):
                totals[i][s] += p * (cls[s] == c)
    return [[t / weight for t in row] for row in totals]


@pytest.mark.parametrize("players,seed,options", [
    (6, 5, {}), (6, 20, {}), (7, 5, {"deal": "balanced"}), (7, 20, {"deal": "balanced"}),
])
def test_the_exact_belief_is_brute_force_over_every_deal(players, seed, options) -> None:
    game, state = running_table(players, seed, days=3, options=options)
    checked = 0
    for seat in range(players):
        view = game.view(state, seat)
        judged = belief.judge(view)
        assert judged.exact
        want = brute_force(view)
        assert judged.witch == pytest.approx(want[0], abs=1e-9), seat
        assert judged.crow == pytest.approx(want[1], abs=1e-9), seat
        assert judged.fool == pytest.approx(want[2], abs=1e-9), seat
        checked += 1
    assert checked == players


def test_a_sampled_belief_comes_close_to_the_exact_one(monkeypatch) -> None:
    """(While the belief is broad — at least 100 assignments' worth of weight: weighing random
    assignments is how the belief copes with a space too large to list, a host's own role
    list. A sharp belief needs the exact one.)"""
    for seed in range(1, 40):  # (12 seats: with bots that judge, 10-seat tables are sharp by day 2)
        game, state = play_to(12, seed, days=2)
        cats = [s for s, r in enumerate(state["roles"]) if r == data.CAT and (
            state["form"][s] == "cat")]
        if state["outcome"] is not None or not cats:
            continue
        view = game.view(state, cats[0])
        exact = belief.judge(view)
        if 1.0 / float((exact.post ** 2).sum()) >= 100:  # the effective number of worlds
            break
    else:
        raise AssertionError("no broad belief on day 2 of 39 tables")
    size = len(exact.post)
    assert exact.exact and size > 500
    belief.assignments.cache_clear()
    belief._CACHE.clear()
    monkeypatch.setattr(belief, "EXACT_LIMIT", size * 4 // 5)  # drawn at random instead
    sampled = belief.judge(view)
    belief.assignments.cache_clear()
    belief._CACHE.clear()
    assert not sampled.exact
    # within four standard errors of a share measured on the sample's effective number of
    # worlds (the weights of ~size·4/5 random assignments: about 0.03 for a share near one
    # half); a sampler that ignored the record, or weighed it wrongly, is off by 0.2 or more
    worlds = 1.0 / float((sampled.post ** 2).sum())
    assert worlds >= 100
    assert sampled.witch == pytest.approx(exact.witch, abs=4 * math.sqrt(0.25 / worlds))


def test_the_belief_grows_with_the_record_as_if_read_at_once() -> None:
    game, state = play_to(8, 2, days=4)
    view = game.view(state, 2)
    record = view["record"]
    belief._CACHE.clear()
    for k in range(len(record) + 1):  # the cached belief is extended entry by entry
        belief.judge({**view, "record": record[:k]})
    grown = belief.judge(view)
    belief._CACHE.clear()
    fresh = belief.judge(view)
    assert grown.witch == pytest.approx(fresh.witch, abs=1e-12)


@pytest.mark.parametrize("players,seed", [(5, 24), (8, 2), (9, 3), (12, 4), (12, 2)])
def test_every_dealt_world_agrees_with_what_the_seat_knows(players, seed) -> None:
    game, state = play_to(players, seed, days=3)
    pool = sorted(belief.role_pool(game.view(state, 0)))
    rng = random.Random(seed)
    for seat in range(players):
        view = game.view(state, seat)
        findings = belief.seer_findings(view)
        for _ in range(25):
            roles = belief.deal_roles(view, rng)
            assert sorted(roles) == pool
            assert roles[seat] == view["role"]
            assert all(k is None or k == r for k, r in zip(view["roles"], roles, strict=True))
            assert all((roles[s] == data.WITCH) == w for s, w in findings.items())
            if view["role"] in (data.WITCH, data.CROW):  # the witches it knows, and no others
                assert {s for s, r in enumerate(roles) if r == data.WITCH} == {
                    s for s, r in enumerate(view["roles"]) if r == data.WITCH}
            for e in view["record"]:
                if e["k"] == "vote" and e["banished"] is not None:
                    assert roles[e["banished"]] == e["role"]
            if view["outcome"] is None:
                assert running([class_of(r) for r in roles], view["forms"])
