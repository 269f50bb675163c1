"""OpenSkill ratings (Weng–Lin, Plackett–Luce) for players and bots: one table's result at a
time, from places or from teams.

A rating is a skill estimate ``mu`` with its uncertainty ``sigma`` (the ``openskill`` package's
defaults: 25 and 25/3 for a newcomer). :func:`rate_places` rates a table where every seat plays
for itself (Hexenhammer, Hranice: place 1 is first, equal places are a tie);
:func:`rate_teams` one where seats play in teams (Fang's sides: the winning side first, every
other side level behind it). :func:`places_from_points` and :func:`side_teams` turn a table's
ranking points and a Fang outcome into those. Nothing here plays, prints or stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

INTERVAL = 2.0  # error bars: mu ± 2 sigma (about 95% where the estimate is normal)
# tau for entrants whose skill does not change (bots): no drift, so sigma keeps shrinking as
# games add evidence (with openskill's default drift it levels off near 2 however long a
# ladder runs, too wide to tell close bots apart)
FIXED = 0.0


@dataclass(frozen=True)
class Rating:
    """A skill estimate: ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    def low(self) -> float:
        """The lower end of the error bar."""
        return self.mu - INTERVAL * self.sigma

    def high(self) -> float:
        """The upper end of the error bar."""
        return self.mu + INTERVAL * self.sigma

    def as_dict(self) -> dict[str, float]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3)}


def model(tau: float | None = None) -> PlackettLuce:
    """The rating model (openskill's Plackett–Luce with its default constants; ``tau``, the
    skill's drift added to every sigma before a game, instead of its default 25/300 if given).
    (``tau`` goes to the model: openskill's ``rate(tau=0.0)`` takes a zero for its default.)"""
    return PlackettLuce() if tau is None else PlackettLuce(tau=tau)


def newcomer() -> Rating:
    """A rating nobody has played yet."""
    fresh = model().rating()
    return Rating(fresh.mu, fresh.sigma)


def rate_teams(ratings: Mapping[str, Rating], teams: Sequence[Sequence[str]],
               places: Sequence[int], tau: float | None = None) -> dict[str, Rating]:
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
