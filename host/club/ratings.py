"""Player ratings: OpenSkill (Weng–Lin, Plackett–Luce), one rating per player and game.

Each finished game updates the ratings of everyone at it, in the order the games ended (ties by
commitment), so the same games always give the same ratings — a rebuild from the journals
gives exactly what the host had. A rating is μ ± σ (the skill and its uncertainty) and its
ordinal μ − 3σ (a cautious estimate: what a leaderboard sorts by). A new player starts at
μ = 25, σ = 25/3 (ordinal 0).

* **Hexenhammer, Hranice**: every seat is its own team, ranked by its place at the table
  (winners first, then by score; equal places tie) — :func:`~hexnet.ratings.rate_seats`.
* **Fang die Hexe**: the sides are the teams (village, witches, fool), the winning side first
  and the others tied second — :func:`~hexnet.ratings.rate_sides`. Two things would make a
  plain team rating unfair here. (1) Plackett–Luce adds the μ of a team's members, so a
  village of six would be expected to beat two witches almost always, and the witches would
  gain a fortune for every win. (2) Fang's sides are not equally strong at every table: the
  side that wins more often would lift everyone dealt onto it. So each side's team also holds
  a *side* pseudo-player (``side:village``, …), rated like a player, whose μ is entered
  *anchored* to the team's size: ``bias − 25·(members − 1)``, which makes a team of average
  players worth one average player plus the side's bias, whatever its size. The bias is
  learned with everyone else's ratings, game by game: a side that wins more often than its
  players' ratings predict gets a higher bias, so its next win is expected and moves its
  players less, and its loss moves them more. Learning it jointly (rather than from the side's
  raw win rate) keeps a strong group of players who happened to be dealt one side from being
  counted as the side's strength.

The rating arithmetic — OpenSkill's calls, the newcomer, the side bias — is
:mod:`hexnet.ratings`' (:func:`~hexnet.ratings.rate_seats`, :func:`~hexnet.ratings.rate_sides`),
shared with the bots' ladders; this module keeps the club's bookkeeping: which games, in which
order, whose seats count for whom.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hexnet.ratings import MU, SIGMA, Rating, rate_seats, rate_sides, side_anchor
from host.club.games import FANG, FinishedGame

SIDE_PREFIX = "side:"
__all__ = ["MU", "SIDE_PREFIX", "SIGMA", "Change", "Rating", "Ratings", "Standing", "rate_seats",
           "rate_sides", "side_anchor"]


@dataclass(frozen=True)
class Change:
    """One player's rating in one game: before and after."""

    key: str
    before: Rating
    after: Rating


@dataclass
class Standing:
    """A player's rating in one game with their count of games and wins."""

    rating: Rating
    games: int = 0
    wins: int = 0


class Ratings:
    """The ratings after a run of games: :meth:`play` them in order (ended, commitment)."""

    def __init__(self) -> None:
        self.table: dict[tuple[str, str], Standing] = {}  # (key, game) → standing

    def rating(self, key: str | None, game: str) -> Rating:
        """``key``'s rating in ``game`` (a newcomer's, or an anonymous seat's: the start; a
        side's bias starts at 0 ± 25/3: no side favoured before a game says so)."""
        found = self.table.get((key, game)) if key is not None else None
        if found:
            return found.rating
        return Rating(0.0) if key is not None and key.startswith(SIDE_PREFIX) else Rating()

    def play(self, game: FinishedGame) -> list[Change]:
        """Rate one game; every identified player's change (sides' pseudo-players too)."""
        if game.game == FANG and game.result:
            return self._play_sides(game)
        before = [self.rating(s.key, game.game) for s in game.seats]
        after = rate_seats(before, [s.place for s in game.seats])
        return self._keep(game, [(s.key, s.won, b, a)
                                 for s, b, a in zip(game.seats, before, after, strict=True)])

    def _play_sides(self, game: FinishedGame) -> list[Change]:
        teams: dict[str, list[Rating]] = {}
        members: dict[str, list[int]] = {}
        for i, seat in enumerate(game.seats):
            side = seat.side or "village"
            teams.setdefault(side, []).append(self.rating(seat.key, game.game))
            members.setdefault(side, []).append(i)
        bias = {side: self.rating(SIDE_PREFIX + side, game.game) for side in teams}
        after, biases = rate_sides(teams, bias, str(game.result))
        rows = []
        for side, seats in members.items():
            for i, new in zip(seats, after[side], strict=True):
                seat = game.seats[i]
                rows.append((seat.key, seat.won, self.rating(seat.key, game.game), new))
            rows.append((SIDE_PREFIX + side, side == game.result, bias[side], biases[side]))
        return self._keep(game, rows)

    def _keep(self, game: FinishedGame,
              rows: Iterable[tuple[str | None, bool, Rating, Rating]]) -> list[Change]:
        """Keep each identified player's new rating. A key in several seats (two bots of one
        policy) counts once: the mean of its seats' results, a win if any seat won."""
        seen: dict[str, tuple[bool, Rating, list[Rating]]] = {}
        for key, won, before, after in rows:
            if key is None:  # anonymous: rated for the others' sake, kept by nobody
                continue
            was_won, _, results = seen.setdefault(key, (False, before, []))
            results.append(after)
            seen[key] = (was_won or won, before, results)
        changes = []
        for key, (won, before, results) in seen.items():
            after = Rating(sum(r.mu for r in results) / len(results),
                           sum(r.sigma for r in results) / len(results))
            standing = self.table.setdefault((key, game.game), Standing(before))
            standing.rating = after
            standing.games += 1
            standing.wins += int(won)
            changes.append(Change(key, before, after))
        return changes
