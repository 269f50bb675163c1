"""OpenSkill ratings (hexnet.ratings) agree with the openskill package's own Plackett–Luce for
the same inputs, and ``hexnet tournament`` reports one for every entrant."""

from __future__ import annotations

import json
import random

import pytest
from openskill.models import PlackettLuce

from hexnet import ratings
from hexnet.cli import main


def test_places_rate_as_openskill_rates_the_same_table() -> None:
    m = PlackettLuce()
    a, b, c = m.rating(name="a"), m.rating(name="b", mu=30, sigma=5), m.rating(name="c")
    expected = m.rate([[a], [b], [c]], ranks=[2, 1, 2])
    got = ratings.rate_places({"b": ratings.Rating(30, 5)}, ["a", "b", "c"], [2, 1, 2])
    for team in expected:
        r = team[0]
        assert got[r.name].mu == pytest.approx(r.mu, abs=1e-12)
        assert got[r.name].sigma == pytest.approx(r.sigma, abs=1e-12)


def test_teams_rate_as_openskill_rates_the_same_teams() -> None:
    m = PlackettLuce()
    v = [m.rating(name=n) for n in ("v1", "v2", "v3")]
    w = [m.rating(name="w1", mu=27, sigma=6)]
    f = [m.rating(name="f1")]
    expected = m.rate([v, w, f], ranks=[2, 1, 2])
    got = ratings.rate_teams({"w1": ratings.Rating(27, 6)},
                             [["v1", "v2", "v3"], ["w1"], ["f1"]], [2, 1, 2])
    for team in expected:
        for r in team:
            assert (got[r.name].mu, got[r.name].sigma) == pytest.approx((r.mu, r.sigma))


def test_a_side_game_places_the_winning_side_first_and_the_rest_level() -> None:
    teams, places = ratings.side_teams(["village", "witches", "village", "fool"], [1])
    assert teams == [[0, 2], [1], [3]] and places == [2, 1, 2]


def test_places_come_from_points_with_ties_sharing() -> None:
    assert ratings.places_from_points([3.0, 1.5, 1.5, 0.0]) == [1, 2, 2, 4]


def test_a_player_in_two_teams_is_refused() -> None:
    with pytest.raises(ValueError):
        ratings.rate_teams({}, [["a"], ["a"]], [1, 2])


def test_the_tournament_reports_mu_and_sigma_for_every_entrant(tmp_path, capsys) -> None:
    out = tmp_path / "event.json"
    assert main(["tournament", "--game", "hranice", "--players", "2", "--bots",
                 "heuristic,random", "--format", "round-robin", "--rounds", "4",
                 "--workers", "1", "--out", str(out)]) == 0
    event = json.loads(out.read_text())
    assert set(event["ratings"]) == {"heuristic-1", "random-2"}
    # replaying the tables' places through openskill gives the same numbers (bots: no drift)
    m = PlackettLuce(tau=0.0)
    now = {n: m.rating(name=n) for n in event["ratings"]}
    for rec in event["records"]:
        seats = rec["entrants"]
        places = ratings.places_from_points(rec["points"])
        rated = m.rate([[now[n]] for n in seats], ranks=places)
        for team in rated:
            now[team[0].name] = team[0]
    for name, r in event["ratings"].items():
        assert r["mu"] == pytest.approx(now[name].mu, abs=1e-3)
        assert r["sigma"] == pytest.approx(now[name].sigma, abs=1e-3)
    shown = capsys.readouterr().out
    assert "OpenSkill ratings" in shown and "±" in shown


def test_a_fang_ladder_rates_each_table_by_its_sides(tmp_path) -> None:
    out = tmp_path / "fang.json"
    assert main(["tournament", "--game", "fang", "--players", "4", "--bots",
                 "normal,easy,normal,easy", "--format", "round-robin", "--rounds", "3",
                 "--workers", "1", "--out", str(out)]) == 0
    event = json.loads(out.read_text())
    m = PlackettLuce(tau=0.0)
    now = {n: m.rating(name=n) for n in event["ratings"]}
    for rec in event["records"]:
        roles = rec["outcome"]["roles"]
        sides: dict[str, list[str]] = {}
        for seat, role in enumerate(roles):
            side = "witches" if role == "hexe" else "village"  # 4 seats: a witch and the rest
            sides.setdefault(side, []).append(rec["entrants"][seat])
        teams = list(sides.values())
        won = {rec["entrants"][w] for w in rec["outcome"]["winners"]}
        rated = m.rate([[now[n] for n in t] for t in teams],
                       ranks=[1 if set(t) & won else 2 for t in teams])
        for team in rated:
            for r in team:
                now[r.name] = r
    for name, r in event["ratings"].items():
        assert (r["mu"], r["sigma"]) == pytest.approx((now[name].mu, now[name].sigma), abs=1e-3)


def test_a_fixed_skill_has_error_bars_that_keep_narrowing() -> None:
    """Bots do not change skill: rated without drift, sigma shrinks as the games add up; with
    openskill's default drift it levels off near 1.5 (a ladder could never tell bots apart
    that are closer than about 6 points)."""
    rng = random.Random(3)
    fixed = {n: ratings.newcomer() for n in "abc"}
    drifting = dict(fixed)
    for _ in range(1600):
        places = rng.sample([1, 2, 3], 3)
        fixed = ratings.rate_places(fixed, ["a", "b", "c"], places, ratings.FIXED)
        drifting = ratings.rate_places(drifting, ["a", "b", "c"], places)
    assert max(r.sigma for r in fixed.values()) < 0.9
    assert min(r.sigma for r in drifting.values()) > 1.4
