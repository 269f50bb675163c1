"""A player's profile as data: what their profile screen shows (``client/screens/profile.py``).

:func:`profile` gathers, for one player key, the names they played under, games and wins per
game (with the current rating and the rank on the host's leaderboard) and per Fang role and
side, the rating over time per game (a series of μ and σ after each game, starting from where
the player began), and the most recent games (when, which game, place, win, role, the rating
change, the others at the table, the table commitment and the journal's path on the host).

What leaves the host (:func:`for_wire`, sent by :mod:`host.club.desk` to whoever asks with
``profile {player}``): a club's games and ratings are public among its players, so anyone may
see a player's games, wins, ratings, rank, rating chart, Fang roles and recent games (with the
names of the others at each table and the table commitment, by which a finished game's replay
is asked for); the player is named by their handle (:func:`host.club.board.handle`: a person's
first 16 fingerprint digits, never their whole key); the other names they played under go to
their own screen only; no file path of the host ever leaves it.
"""

from __future__ import annotations

from typing import Any

from host.club.board import HANDLE, handle
from host.club.ratings import MU, SIGMA, Rating
from host.club.store import Club

RECENT = 20  # recent games listed
SERIES = 200  # points of a rating series (the latest)


def _rating(r: Rating) -> dict[str, float]:
    return {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "ordinal": round(r.ordinal, 4)}


def profile(club: Club, key: str) -> dict[str, Any] | None:
    """Player ``key``'s profile, or None if the club does not know them."""
    found = club.query("SELECT kind, name FROM players WHERE key = ?", [key])
    if not found:
        return None
    kind, name = found[0]
    names = [r[0] for r in club.query(
        "SELECT name FROM names WHERE key = ? ORDER BY games DESC, last_used DESC", [key])]
    board = club.leaderboard()
    games: dict[str, dict[str, Any]] = {}
    for row in board:
        if row.key == key:
            games[row.game] = {"games": row.games, "wins": row.wins,
                               "rating": _rating(row.rating), "rank": row.rank,
                               "rated": sum(1 for r in board if r.game == row.game)}
    fang_roles = {r[0]: {"games": r[1], "wins": r[2]} for r in club.query(
        "SELECT s.role, count(*), sum(s.won) FROM seats s JOIN games g ON g.id = s.game_id "
        "WHERE s.key = ? AND g.game = 'fang' GROUP BY s.role ORDER BY s.role", [key])}
    fang_sides = {r[0]: {"games": r[1], "wins": r[2]} for r in club.query(
        "SELECT s.side, count(*), sum(s.won) FROM seats s JOIN games g ON g.id = s.game_id "
        "WHERE s.key = ? AND g.game = 'fang' GROUP BY s.side ORDER BY s.side", [key])}
    series: dict[str, list[dict[str, float]]] = {}
    for game, ended, mu0, s0, mu, sigma in club.query(
            "SELECT g.game, g.ended, c.mu_before, c.sigma_before, c.mu, c.sigma "
            "FROM rating_changes c JOIN games g ON g.id = c.game_id WHERE c.key = ? "
            "ORDER BY g.ended, g.commitment", [key]):
        points = series.setdefault(game, [])
        if not points:  # where the player began (a newcomer: 25 ± 8.3)
            points.append({"t": ended, "mu": mu0, "sigma": s0})
        points.append({"t": ended, "mu": round(mu, 4), "sigma": round(sigma, 4)})
    return {"player": key, "kind": kind, "name": name, "names": names[:32], "games": games,
            "fang_roles": fang_roles, "fang_sides": fang_sides,
            "series": {g: p[-SERIES:] for g, p in series.items()},
            "recent": _recent(club, key), "start": {"mu": MU, "sigma": round(SIGMA, 4)}}


def _recent(club: Club, key: str) -> list[dict[str, Any]]:
    rows = club.query(
        "SELECT g.id, g.game, g.ended, g.seats, g.commitment, g.journal, g.result, s.place, "
        "s.won, s.role, s.side, c.mu_before, c.mu FROM seats s JOIN games g ON g.id = s.game_id "
        "LEFT JOIN rating_changes c ON c.game_id = g.id AND c.key = s.key "
        "WHERE s.key = ? ORDER BY g.ended DESC, g.commitment DESC LIMIT ?", [key, RECENT])
    out = []
    for (gid, game, ended, seats, commitment, journal, result, place, won, role, side, mu0,
         mu) in rows:
        others = [r[0] or "?" for r in club.query(
            "SELECT name FROM seats WHERE game_id = ? AND (key IS NULL OR key != ?) "
            "ORDER BY seat", [gid, key])]
        out.append({"game": game, "ended": ended, "seats": seats, "place": place,
                    "won": bool(won), "role": role, "side": side, "result": result,
                    "change": round(mu - mu0, 4) if mu is not None else 0.0,
                    "others": others, "commitment": commitment, "journal": journal})
    return out


def for_wire(found: dict[str, Any], own: bool = False) -> dict[str, Any]:
    """What may leave the host of a profile: no file paths, the player by their handle, and
    the other names they played under only to themselves (``own``)."""
    return {**found, "player": handle(found["player"]),
            "names": found["names"] if own else [found["name"]],
            "recent": [{k: v for k, v in g.items() if k != "journal"}
                       for g in found.get("recent", [])]}


def resolve(club: Club, player: str) -> str | None:
    """The key a handle names (a bot's key; a person's fingerprint, whole or its first
    :data:`~host.club.board.HANDLE` digits or more), or None if it names nobody or several."""
    if player.startswith("bot:"):
        return player if club.query("SELECT 1 FROM players WHERE key = ?", [player]) else None
    if not HANDLE <= len(player) <= 64 or any(c not in "0123456789abcdef" for c in player):
        return None
    keys = club.resolve(player)
    return keys[0] if len(keys) == 1 else None
