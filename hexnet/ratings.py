"""OpenSkill ratings (Weng–Lin, Plackett–Luce) for players and bots: one table's result at a
time, from places or from teams — the one place the ``openskill`` package is called.

A rating is a skill estimate ``mu`` with its uncertainty ``sigma`` (the ``openskill`` package's
defaults: 25 and 25/3 for a newcomer, :data:`MU` and :data:`SIGMA`), shown as ``mu ± sigma``,
with error bars ``mu ± 2 sigma`` (:meth:`Rating.low`, :meth:`Rating.high`) or as the cautious
ordinal ``mu − 3 sigma`` a leaderboard sorts by. :func:`rate_teams` rates a table where seats
play in teams (the winning team first, equal places tie), :func:`rate_places` one where every
seat plays for itself (Hexenhammer, Hranice), :func:`rate_sides` a side game with a learned
per-side bias (the club's Fang, :mod:`host.club.ratings`). :func:`places_from_points` and
:func:`side_teams` turn a table's ranking points and a side outcome into places and teams.
Nothing here plays, prints or stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0  # openskill's newcomer
SIGMA = MU / 3
INTERVAL = 2.0  # error bars: mu ± 2 sigma (about 95% where the estimate is normal)
# tau for entrants whose skill does not change (bots): no drift, so sigma keeps shrinking as
# games add evidence (with openskill's default drift it levels off near 2 however long a
# ladder runs, too wide to tell close bots apart)
FIXED = 0.0


@dataclass(frozen=True)
class Rating:
    """A skill estimate ``mu`` and its uncertainty ``sigma`` (a newcomer's by default)."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """μ − 3σ: a cautious estimate (what a leaderboard sorts by)."""
        return self.mu - 3 * self.sigma

    def low(self) -> float:
        """The lower end of the error bar."""
        return self.mu - INTERVAL * self.sigma

    def high(self) -> float:
        """The upper end of the error bar."""
        return self.mu + INTERVAL * self.sigma

    def text(self) -> str:
        """``27.3 ± 4.1``."""
        return f"{self.mu:.1f} ± {self.sigma:.1f}"

    def as_dict(self) -> dict[str, float]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3)}


def model(tau: float | None = None) -> PlackettLuce:
    """The rating model (openskill's Plackett–Luce with its default constants; ``tau``, the
    skill's drift added to every sigma before a game, instead of its default 25/300 if given).
    (``tau`` goes to the model: openskill's ``rate(tau=0.0)`` takes a zero for its default.)"""
    if tau is None:
        return PlackettLuce(mu=MU, sigma=SIGMA)
    return PlackettLuce(mu=MU, sigma=SIGMA, tau=tau)


def newcomer() -> Rating:
    """A rating nobody has played yet."""
    return Rating()


def rate_teams(ratings: Mapping[str, Rating], teams: Sequence[Sequence[str]],
               places: Sequence[int | float], tau: float | None = None) -> dict[str, Rating]:
    """The new ratings of everyone in ``teams`` after a table that placed team ``i`` at
    ``places[i]`` (1 is first; equal places tie). Names not in ``ratings`` start as newcomers;
    a name may be in one team only. ``tau``: see :func:`model` (:data:`FIXED` for bots)."""
    if len(teams) != len(places):
        raise ValueError("one place per team")
    names = [n for team in teams for n in team]
    if len(set(names)) != len(names):
        raise ValueError("a player may sit in one team only")
    m = model(tau)
    start = newcomer()
    given = [[m.rating(mu=ratings.get(n, start).mu, sigma=ratings.get(n, start).sigma,
                       name=n) for n in team] for team in teams]
    rated = m.rate(given, ranks=[float(p) for p in places])
    return {r.name: Rating(r.mu, r.sigma) for team in rated for r in team}


def rate_places(ratings: Mapping[str, Rating], players: Sequence[str],
                places: Sequence[int], tau: float | None = None) -> dict[str, Rating]:
    """:func:`rate_teams` where every player is a team of one."""
    return rate_teams(ratings, [[p] for p in players], places, tau)


def rate_seats(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Every seat its own team (a player may hold several seats: each is rated on its own),
    ranked by ``places``: the ratings after the game, seat by seat."""
    names = [str(i) for i in range(len(ratings))]
    rated = rate_places(dict(zip(names, ratings, strict=True)), names, places)
    return [rated[n] for n in names]


def side_anchor(members: int) -> float:
    """What a side's bias player's μ is shifted by in a team of ``members`` players."""
    return -MU * (members - 1)


def rate_sides(teams: Mapping[str, Sequence[Rating]], bias: Mapping[str, Rating],
               winner: str) -> tuple[dict[str, list[Rating]], dict[str, Rating]]:
    """A side game whose sides are not equally strong: each side a team of its players plus a
    *bias* player (``bias[side]``, entered anchored by :func:`side_anchor`, so a team of
    average players is worth one average player plus its side's bias, whatever its size);
    ``winner`` first, the other sides tied second. The players' ratings after the game per
    side, and each side's bias after it (the bias is learned like a player's rating: a side
    that wins more often than its players predict gets a higher one)."""
    sides = [side for side in teams if teams[side]]
    given: dict[str, Rating] = {}
    rows = []
    for side in sides:
        row = [f"{side}\0{i}" for i in range(len(teams[side]))] + [f"{side}\0bias"]
        given.update(zip(row, teams[side], strict=False))
        anchored = bias[side]
        given[row[-1]] = Rating(anchored.mu + side_anchor(len(teams[side])), anchored.sigma)
        rows.append(row)
    rated = rate_teams(given, rows, [1 if side == winner else 2 for side in sides])
    players, biases = {}, {}
    for side, row in zip(sides, rows, strict=True):
        players[side] = [rated[n] for n in row[:-1]]
        shifted = rated[row[-1]]
        biases[side] = Rating(shifted.mu - side_anchor(len(teams[side])), shifted.sigma)
    return players, biases


def places_from_points(points: Sequence[float]) -> list[int]:
    """Places from ranking points: 1 + how many seats scored strictly more."""
    return [1 + sum(1 for q in points if q > p) for p in points]


def side_teams(sides: Sequence[str], winners: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """A side game's seats as teams (``sides[s]`` is seat ``s``'s side) and their places: the
    team with the winners first, every other team level behind it."""
    teams: dict[str, list[int]] = {}
    for seat, side in enumerate(sides):
        teams.setdefault(side, []).append(seat)
    won = set(winners)
    groups = list(teams.values())
    return groups, [1 if set(t) & won else 2 for t in groups]


def ordered(ratings: Mapping[str, Rating]) -> list[tuple[str, Rating]]:
    """Names by rating, best first (by the lower end of the error bar, then mu, then name)."""
    return sorted(ratings.items(), key=lambda kv: (-kv[1].low(), -kv[1].mu, kv[0]))


def seeded(keys: Sequence[str], table: Mapping[str, Rating]) -> list[str]:
    """``keys`` best first by their ordinal in ``table`` (unrated ones as newcomers), ties in
    the order given — a Swiss event's first-round seeding by rating."""
    ordinal = {k: table.get(k, newcomer()).ordinal for k in keys}
    return sorted(keys, key=lambda k: -ordinal[k])
