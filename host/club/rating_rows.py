"""The club database's games and ratings as rows (inside the caller's write transaction):
read the indexed games in rating order, rate the newest game, or every game again."""

from __future__ import annotations

import sqlite3

from host.club.games import FinishedGame, SeatResult
from host.club.ratings import Rating, Ratings, Standing


def read_games(conn: sqlite3.Connection, since: float | None = None) -> list[FinishedGame]:
    """The indexed games in rating order (ended, commitment), ``since`` a time."""
    rows = conn.execute(
        "SELECT id, commitment, game, started, ended, journal, result FROM games "
        "WHERE ended >= ? ORDER BY ended, commitment", (since or float("-inf"),)).fetchall()
    seats: dict[int, list[SeatResult]] = {}
    for r in conn.execute(
            "SELECT game_id, seat, key, name, kind, place, won, score, role, side "
            "FROM seats ORDER BY game_id, seat"):
        seats.setdefault(r[0], []).append(SeatResult(r[1], r[2], r[3], r[4], r[5],
                                                     bool(r[6]), r[7], r[8], r[9]))
    return [FinishedGame(r[1], r[2], r[3], r[4], r[5], tuple(seats.get(r[0], ())), r[6])
            for r in rows]


def _ids(conn: sqlite3.Connection) -> dict[str, int]:
    return dict(conn.execute("SELECT commitment, id FROM games"))


def recompute(conn: sqlite3.Connection) -> None:
    """Every rating again from the first game."""
    conn.execute("DELETE FROM ratings")
    conn.execute("DELETE FROM rating_changes")
    ratings, ids = Ratings(), _ids(conn)
    for game in read_games(conn):
        _write_changes(conn, ids[game.commitment], game, ratings)
    _write_ratings(conn, ratings)


def rate_next(conn: sqlite3.Connection, game: FinishedGame) -> None:
    """Rate ``game``, which ended after every other, from the ratings as they are."""
    ratings = Ratings()
    for key, g, mu, sigma, games, wins in conn.execute(
            "SELECT key, game, mu, sigma, games, wins FROM ratings WHERE game = ?",
            (game.game,)):
        ratings.table[(key, g)] = Standing(Rating(mu, sigma), games, wins)
    _write_changes(conn, _ids(conn)[game.commitment], game, ratings)
    _write_ratings(conn, ratings)


def _write_changes(conn: sqlite3.Connection, game_id: int, game: FinishedGame,
                   ratings: Ratings) -> None:
    for c in ratings.play(game):
        conn.execute("INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?)",
                     (game_id, c.key, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma))


def _write_ratings(conn: sqlite3.Connection, ratings: Ratings) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?)",
        [(key, game, s.rating.mu, s.rating.sigma, s.games, s.wins)
         for (key, game), s in ratings.table.items()])
