"""The ratings a running host shows, kept in memory: what the lobby's seats carry and what a
Swiss event seeds by — so nothing on the event loop ever queries the club database.

The :class:`Board` is filled from the database off the loop (:mod:`host.club.history`: once
it is open, and again for a game's title after each game is indexed) and read on the loop:
:meth:`Board.seats` adds each seat's ``player`` and ``rating`` to a table's lobby entry
(:meth:`host.broadcast.Broadcast.info`; the entry, packed, is cached per table until the table
is marked changed — as the tables of the players a new game rated are), :meth:`Board.seeded`
orders entrants by rating.

On the wire a player is their *handle* (:func:`handle`): a bot its key (``bot:normal``), a
person the first 16 hex digits of their key's fingerprint — enough to tell a club's players
apart (and to ask for a profile), no more of their key than that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hexnet.ratings import Rating, seeded
from host.club.games import player_key
from host.club.ratings import Standing
from host.table import Table

HANDLE = 16  # hex digits of a person's fingerprint that name them on the wire


def handle(key: str) -> str:
    """``key`` as it goes on the wire: a bot's whole, a person's first :data:`HANDLE` digits."""
    return key if key.startswith("bot:") else key[:HANDLE]


def rating_entry(standing: Standing) -> dict[str, Any]:
    """A rating as a lobby seat carries it: μ, σ, the ordinal (two decimals) and games."""
    r = standing.rating
    return {"mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "ordinal": round(r.ordinal, 2),
            "games": standing.games}


class Board:
    """Every rated player's standing per game, as the club database last said."""

    def __init__(self) -> None:
        self.table: dict[tuple[str, str], Standing] = {}  # (key, game) → standing

    def replace(self, table: Mapping[tuple[str, str], Standing],
                game: str | None = None) -> set[str]:
        """Take ``table`` (only ``game``'s rows, if given, are replaced); the keys whose
        standing changed."""
        old = {k: v for k, v in self.table.items() if game is None or k[1] == game}
        for k in old:
            del self.table[k]
        self.table.update(table)
        return {k[0] for k in old.keys() | table.keys()
                if old.get(k) != table.get(k)}

    def standing(self, key: str | None, game: str) -> Standing | None:
        return self.table.get((key, game)) if key is not None else None

    def seats(self, table: Table, entries: list[dict[str, Any]]) -> None:
        """Add to a table's lobby seat entries each seat's player handle and, once rated in
        the table's game, their rating."""
        for entry, seat in zip(entries, table.seats, strict=True):
            if seat.kind == "empty":
                continue
            key, _ = player_key(seat.record())
            if key is None:
                continue
            entry["player"] = handle(key)
            found = self.standing(key, table.game_name)
            if found is not None:
                entry["rating"] = rating_entry(found)

    def keys_at(self, table: Table) -> set[str]:
        """The player keys seated at ``table``."""
        keys = {player_key(s.record())[0] for s in table.seats if s.kind != "empty"}
        return {k for k in keys if k is not None}

    def seeded(self, keys: Sequence[str], game: str) -> list[str]:
        """``keys`` best first by their rating in ``game`` (newcomers as such; ties as
        given)."""
        wanted = set(keys)
        return seeded(keys, {k: s.rating for (k, g), s in self.table.items()
                             if g == game and k in wanted})

    def rating(self, key: str, game: str) -> Rating | None:
        found = self.standing(key, game)
        return found.rating if found is not None else None
