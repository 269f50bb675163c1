"""The host's tables (part of the sans-I/O core): which exist, their ids, and how many one player
— and one address — may create.

Rules kept here:
* a host holds at most :data:`MAX_TABLES` unfinished tables; finished ones are dropped, oldest
  first, to make room for a new one;
* griefing limits: per player at most ``max_open_tables_per_player`` open tables and
  ``max_tables_created_per_player`` creations an hour, and per address (keys are free to make:
  :mod:`host.newcomers`) at most ``max_open_tables_per_address`` and
  ``max_tables_created_per_address``; an open table created over the network that nobody but its
  creator sits at expires after ``table_expiry`` seconds (:meth:`Registry.expired`);
* options are checked against the game's declared table (:mod:`hexnet.options`): a ``create``
  from the network may not stack a position (``local_only``); the host's own code may.

The registry only keeps the books: who is told of a new or dropped table is the caller's
business (:class:`host.lobby.Lobby`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from hexnet.engine import Game
from hexnet.games import get_game
from hexnet.options import OptionError, check_options, with_pace
from host.core import LobbyError
from host.table import Seat, Table
from host.watch_rules import WatchRules, split_options

# unfinished tables one host holds (``hexnet bench --tables 500``: 500 tables / 2000 clients
# stay within the latency target on one core), and tables the lobby lists (finished ones are
# dropped, oldest first, past it)
MAX_TABLES = 500
TABLE_EXPIRY = 600.0  # seconds an open table nobody sits at is kept
MAX_OPEN_TABLES_PER_PLAYER = 3  # open tables one identity may have created at a time
MAX_TABLES_CREATED_PER_PLAYER = 20  # tables one identity may create per CREATE_WINDOW
MAX_OPEN_TABLES_PER_ADDRESS = 6  # open tables created from one address at a time
MAX_TABLES_CREATED_PER_ADDRESS = 40  # tables created from one address per CREATE_WINDOW
CREATE_WINDOW = 3600.0
MAX_CREATORS = 4096  # creators (identities, addresses) whose creations are remembered


class Registry:
    """Every table of one host by id, the next id, and when each player created tables."""

    def __init__(self, games: list[str] | None = None, *, table_expiry: float = TABLE_EXPIRY,
                 max_open_tables_per_player: int = MAX_OPEN_TABLES_PER_PLAYER,
                 max_tables_created_per_player: int = MAX_TABLES_CREATED_PER_PLAYER,
                 max_open_tables_per_address: int = MAX_OPEN_TABLES_PER_ADDRESS,
                 max_tables_created_per_address: int = MAX_TABLES_CREATED_PER_ADDRESS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.games = games
        self.tables: dict[int, Table] = {}
        self.table_expiry = table_expiry
        self.max_open_tables_per_player = max_open_tables_per_player
        self.max_tables_created_per_player = max_tables_created_per_player
        self.max_open_tables_per_address = max_open_tables_per_address
        self.max_tables_created_per_address = max_tables_created_per_address
        self.clock = clock
        self._next_table = 1
        # identity or address → when it created tables (within the last CREATE_WINDOW)
        self._created: dict[bytes | str, deque[float]] = {}

    def get(self, table_id: int) -> Table:
        """The table ``table_id``; ``no_table`` if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError("no_table", f"There is no table {table_id}.")
        return table

    def open_seats(self) -> int:
        """Empty seats at tables still seating (mDNS TXT)."""
        return sum(t.open_seats() for t in self.tables.values())

    # -- a new table -----------------------------------------------------------------------
    def checked(self, game: str, seats: int, options: dict[str, Any] | None, local: bool
                ) -> tuple[Game, dict[str, Any], WatchRules]:
        """A new table's engine, game options (paced) and watching rules, checked; ``local``:
        the host's own code (it may stack a position; the network may not)."""
        if self.games is not None and game not in self.games:
            raise LobbyError("unknown_game", f"This host has no game {game!r}.")
        try:
            engine = get_game(game)
        except (KeyError, ModuleNotFoundError) as exc:
            raise LobbyError("unknown_game", f"This host has no game {game!r}.") from exc
        if not engine.min_players <= seats <= engine.max_players:
            raise LobbyError("bad_seats", f"{engine.title or game} takes "
                             f"{engine.min_players}–{engine.max_players} players, not {seats}.")
        options, watch_rules = split_options(options, local=local)
        try:
            options = with_pace(engine, check_options(engine, options, local=local))
        except OptionError as exc:
            raise LobbyError(exc.code, exc.message) from exc
        return engine, options, watch_rules

    def check_caps(self, identity: bytes, address: str = "") -> None:
        """One player — and one address, whatever keys it brings — may have only so many open
        tables, and create only so many an hour: one client cannot fill the host
        (``too_many_tables`` for everyone else)."""
        mine = sum(1 for t in self.tables.values()
                   if t.status == "open" and t.creator == identity)
        if mine >= self.max_open_tables_per_player:
            raise LobbyError("too_many_tables", f"You have {mine} open tables already; sit at "
                             "one of them, or wait until one starts or expires.")
        if address:
            here = sum(1 for t in self.tables.values()
                       if t.status == "open" and t.creator_address == address)
            if here >= self.max_open_tables_per_address:
                raise LobbyError("too_many_tables", f"{here} open tables were created from "
                                 "your address already; sit at one of them, or wait until "
                                 "one starts or expires.")
        self._check_recent(identity, self.max_tables_created_per_player, "You created")
        if address:
            self._check_recent(address, self.max_tables_created_per_address,
                               "Your address created")

    def _check_recent(self, creator: bytes | str, cap: int, who: str) -> None:
        """``too_many_tables`` if ``creator`` (an identity or an address) created ``cap``
        tables within the last hour."""
        now = self.clock()
        recent = self._created.get(creator, deque())
        while recent and now - recent[0] >= CREATE_WINDOW:
            recent.popleft()
        if len(recent) >= cap:
            wait = int(CREATE_WINDOW - (now - recent[0])) // 60 + 1
            raise LobbyError("too_many_tables", f"{who} {len(recent)} tables within an "
                             f"hour; you may create another in {wait} min.")
        if not recent:
            self._created.pop(creator, None)
        while len(self._created) > MAX_CREATORS:  # bounded memory: forget the oldest
            self._created.pop(next(iter(self._created)))

    def crowding(self) -> list[int]:
        """The finished tables to drop (oldest first) so that one more fits; ``too_many_tables``
        if the unfinished ones alone fill the host."""
        if sum(1 for t in self.tables.values() if t.status != "over") >= MAX_TABLES:
            raise LobbyError("too_many_tables", "This host has as many tables as it can show.")
        over = [tid for tid, t in self.tables.items() if t.status == "over"]
        return over[:max(0, len(self.tables) - MAX_TABLES + 1)]

    def add(self, game: str, engine: Game, seats: int, options: dict[str, Any],
            creator: bytes | None = None, seed: int | None = None, address: str = "") -> Table:
        """A new open table with ``seats`` empty seats, under the next id; a ``creator``
        identity (a ``create`` over the network) is counted against its caps, and so is the
        ``address`` it came from."""
        table = Table(self._next_table, game, engine, [Seat() for _ in range(seats)],
                      dict(options or {}))
        if seed is not None:
            table.seed = seed
        self._next_table += 1
        self.tables[table.id] = table
        if creator is not None:
            table.creator = creator
            self._created.setdefault(creator, deque()).append(self.clock())
            if address:
                table.creator_address = address
                self._created.setdefault(address, deque()).append(self.clock())
        return table

    # -- tables that go, and tables that come back -------------------------------------------
    def expired(self) -> list[int]:
        """The open tables created over the network at which nobody but their creator has
        sat for ``table_expiry`` seconds (so a creator sitting alone at tables cannot keep
        them; tables the host made itself stay)."""
        now = self.clock()
        return [t.id for t in self.tables.values()
                if t.status == "open" and t.creator is not None and t.idle_since is not None
                and now - t.idle_since >= self.table_expiry and t.awaits_players()]

    def remove(self, table_id: int) -> Table:
        """Forget table ``table_id`` (it must exist); the table."""
        return self.tables.pop(table_id)

    def resume_id(self, table: Table) -> None:
        """Give a table rebuilt after a restart its old id if free, else a new one."""
        if table.id in self.tables or table.id <= 0:
            table.id = self._next_table
        self._next_table = max(self._next_table, table.id + 1)

    def put_back(self, table: Table) -> None:
        """Hold ``table`` (brought back after a restart, :meth:`resume_id` given) again."""
        self.tables[table.id] = table
