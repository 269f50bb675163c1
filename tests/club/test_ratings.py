"""The club's ratings (issue 28) against OpenSkill's own ``rate()`` for the same inputs: places
for Hexenhammer and Hranice, sides with their anchored side players for Fang, games rated in
order, and the side bias doing its job."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from host.club.games import FinishedGame, SeatResult, read_game
from host.club.ratings import MU, SIGMA, Rating, Ratings, rate_seats, rate_sides
from tests.club.evening import journal

MODEL = PlackettLuce()  # OpenSkill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300


def openskill(teams: list[list[tuple[float, float]]], ranks: list[float]) -> list[list[tuple]]:
    """OpenSkill's own answer: (μ, σ) per player per team."""
    rated = MODEL.rate([[MODEL.rating(mu=m, sigma=s) for m, s in team] for team in teams],
                       ranks=ranks)
    return [[(p.mu, p.sigma) for p in team] for team in rated]


def pairs(ratings: list[Rating]) -> list[tuple[float, float]]:
    return [(r.mu, r.sigma) for r in ratings]


def test_places_rate_as_openskill_rates_one_player_teams_with_a_tie() -> None:
    before = [Rating(25.0, 8.333), Rating(31.2, 4.1), Rating(19.5, 6.0), Rating(27.0, 2.5)]
    places = [2, 1, 2, 4]
    expected = [team[0] for team in openskill([[p] for p in pairs(before)], [2, 1, 2, 4])]
    assert pairs(rate_seats(before, places)) == pytest.approx(expected, abs=1e-12)
    after = rate_seats(before, places)
    assert after[1].mu > before[1].mu and after[3].mu < before[3].mu


def test_fang_sides_rate_as_openskill_rates_teams_with_an_anchored_side_player() -> None:
    village = [Rating(26.0, 7.0), Rating(24.0, 8.0), Rating(25.5, 6.5), Rating(22.0, 8.3)]
    witches = [Rating(28.0, 5.0), Rating(23.0, 7.5)]
    fool = [Rating(25.0, 8.333)]
    bias = {"village": Rating(-1.5, 3.0), "witches": Rating(2.0, 3.5), "fool": Rating(0.0, 8.0)}
    # the side player enters at bias − 25·(members − 1): a team of average players is worth
    # one average player plus its side's bias, whatever its size
    teams = [pairs(village) + [(-1.5 - 75.0, 3.0)], pairs(witches) + [(2.0 - 25.0, 3.5)],
             pairs(fool) + [(0.0, 8.0)]]
    expected = openskill(teams, [2.0, 1.0, 2.0])
    players, biases = rate_sides({"village": village, "witches": witches, "fool": fool}, bias,
                                 "witches")
    assert pairs(players["village"]) == pytest.approx(expected[0][:-1], abs=1e-12)
    assert pairs(players["witches"]) == pytest.approx(expected[1][:-1], abs=1e-12)
    assert pairs(players["fool"]) == pytest.approx(expected[2][:-1], abs=1e-12)
    assert (biases["village"].mu, biases["village"].sigma) == pytest.approx(
        (expected[0][-1][0] + 75.0, expected[0][-1][1]), abs=1e-12)
    assert (biases["witches"].mu, biases["witches"].sigma) == pytest.approx(
        (expected[1][-1][0] + 25.0, expected[1][-1][1]), abs=1e-12)
    assert biases["witches"].mu > 2.0 > -1.5 > biases["village"].mu


def test_a_played_hexenhammer_game_rates_as_openskill_by_its_places(tmp_path) -> None:
    path = journal(tmp_path, 1, "hexenhammer", ["Ada", "Bert", "Cili", "Dora"], 4)
    game = read_game(path)
    assert isinstance(game, FinishedGame)
    outcome_key = [(s.won, s.score) for s in game.seats]  # winners first, then by score
    ranks = [1.0 + sum(1 for k in outcome_key if k > mine) for mine in outcome_key]
    expected = openskill([[(MU, SIGMA)]] * 4, ranks)
    changes = {c.key: c for c in Ratings().play(game)}
    for seat, team in zip(game.seats, expected, strict=True):
        assert (changes[seat.key].after.mu, changes[seat.key].after.sigma) == pytest.approx(
            team[0], abs=1e-12)


def test_a_played_fang_game_rates_its_sides_as_openskill(tmp_path) -> None:
    who = ["Ada", "Bert", "Cili", "Dora", "Emil", "Fero", "Gizi"]
    game = read_game(journal(tmp_path, 1, "fang", who, 6))
    assert isinstance(game, FinishedGame) and game.result in ("village", "witches", "fool")
    sides = list(dict.fromkeys(s.side for s in game.seats))
    teams = [[(MU, SIGMA)] * sum(1 for s in game.seats if s.side == side)
             + [(-MU * (sum(1 for s in game.seats if s.side == side) - 1), SIGMA)]
             for side in sides]
    expected = openskill(teams, [1.0 if side == game.result else 2.0 for side in sides])
    changes = {c.key: c for c in Ratings().play(game)}
    for side, team in zip(sides, expected, strict=True):
        members = [s for s in game.seats if s.side == side]
        for seat, (mu, sigma) in zip(members, team, strict=False):
            assert (changes[seat.key].after.mu, changes[seat.key].after.sigma) == \
                pytest.approx((mu, sigma), abs=1e-12)
            assert seat.won == (side == game.result)
        assert changes[f"side:{side}"].after.mu == pytest.approx(
            team[-1][0] + MU * (len(members) - 1), abs=1e-12)


def fang_game(number: int, village: list[str], witches: list[str], winner: str) -> FinishedGame:
    seats = [SeatResult(i, key, key, "human", 1 if side == winner else 2, side == winner,
                        role=None, side=side)
             for i, (key, side) in enumerate([(k, "village") for k in village]
                                             + [(k, "witches") for k in witches])]
    return FinishedGame(f"{number:064x}", "fang", number, number, "-", tuple(seats), winner)


def test_a_side_that_always_wins_lifts_its_players_less_and_less() -> None:
    """Sixty games where the village wins every time, players dealt at random: the bias learns
    it, so a village win is worth less to its players later than at first."""
    ratings, draw = Ratings(), random.Random(5)
    people = [f"p{i}" for i in range(12)]
    gains = []
    for number in range(60):
        seated = draw.sample(people, 8)
        before = {k: ratings.rating(k, "fang").mu for k in seated[:6]}
        ratings.play(fang_game(number, seated[:6], seated[6:], "village"))
        gains.append(sum(ratings.rating(k, "fang").mu - before[k] for k in seated[:6]) / 6)
    assert ratings.rating("side:village", "fang").mu > 5.0
    assert ratings.rating("side:witches", "fang").mu < -5.0
    assert sum(gains[-10:]) / 10 < sum(gains[:3]) / 3 / 3


def test_a_bot_in_two_seats_counts_once_with_the_mean_of_its_seats() -> None:
    seats = (SeatResult(0, "ada", "Ada", "human", 1, True),
             SeatResult(1, "bot:heuristic", "bot:heuristic", "bot", 2, False),
             SeatResult(2, "bot:heuristic", "bot:heuristic", "bot", 3, False))
    ratings = Ratings()
    changes = {c.key: c for c in ratings.play(
        FinishedGame("c" * 64, "hranice", 0, 0, "-", seats))}
    expected = openskill([[(MU, SIGMA)]] * 3, [1.0, 2.0, 3.0])
    assert changes["bot:heuristic"].after.mu == pytest.approx(
        (expected[1][0][0] + expected[2][0][0]) / 2, abs=1e-12)
    assert ratings.table[("bot:heuristic", "hranice")].games == 1
