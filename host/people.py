"""Who is here, and which seat each identity holds (part of the sans-I/O core).

Rules kept here:
* a seat is bound to its player's identity key (:attr:`People.seated` indexes it): that player
  reconnecting (same key) gets the seat back, and a second connection with the same key replaces
  the first (:mod:`host.arrivals`);
* names are unique per host: a second "pi" is "pi (2)" in the lobby, chat, seats and logs
  (:meth:`People.unique_name`); a player holding a seat keeps the name the table knows, and
  so does a name bound to a key (a tournament's entrant, :meth:`People.bind_name`): while
  its player is away nobody else takes it, and its player gets it back;
* each identity has one budget of what it may make the host send to the others
  (:mod:`host.budget`), which every connection of it shares: a reconnect does not refill it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

from host.budget import Budget, Budgets
from host.conn import Conn
from host.core import name_key, unique_name
from host.table import Table


class People:
    """The connections by id and by identity key, the table each identity last sat at, the bots
    keeping a player's seat (stand-ins), and an index of the names in use."""

    def __init__(self, tables: dict[int, Table],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.tables = tables  # the registry's (read only here)
        self.budgets = Budgets(clock)
        self.conns: dict[int, Conn] = {}
        self.by_identity: dict[bytes, Conn] = {}
        self.seated: dict[bytes, int] = {}  # identity → the table it last sat at
        # indexes, so a host of hundreds of tables does not scan them all per connection:
        # names in use (case-folded; connections and human seats, and bots' seats: a superset,
        # see unique_name), each table's seat names as last noted, and identity → the table
        # where a bot keeps that player's seat
        self._human_names: Counter[str] = Counter()
        self._bot_names: Counter[str] = Counter()
        self._table_names: dict[int, tuple[list[str], list[str]]] = {}
        self._stand_ins: dict[bytes, int] = {}
        self._bound: dict[str, bytes] = {}  # name key → the identity the name is bound to
        self._bound_to: dict[bytes, str] = {}  # identity → its bound name

    # -- connections -----------------------------------------------------------------------
    def add(self, conn: Conn) -> None:
        """``conn`` joined (under the name it was given); it spends its identity's budget."""
        conn.budget = self.budgets.of(conn.identity)
        self.conns[conn.id] = conn
        self.by_identity[conn.identity] = conn
        self._human_names[name_key(conn.name)] += 1

    def forget(self, conn: Conn) -> None:
        """``conn`` is gone (closed, replaced or kicked)."""
        del self.conns[conn.id]
        if self.by_identity.get(conn.identity) is conn:
            del self.by_identity[conn.identity]
        key = name_key(conn.name)
        self._human_names[key] -= 1
        if self._human_names[key] <= 0:
            del self._human_names[key]

    def budget_of(self, identity: bytes) -> Budget:
        """``identity``'s budget (:mod:`host.budget`), connected or not."""
        return self.budgets.of(identity)

    def conn_of(self, identity: bytes | None) -> Conn | None:
        """The live connection of ``identity``, if any."""
        return None if identity is None else self.by_identity.get(identity)

    def seat_conns(self, table: Table) -> dict[int, int]:
        """The connected human seats of ``table``: seat → connection id."""
        out = {}
        for i, seat in enumerate(table.seats):
            if seat.kind == "human" and seat.identity is not None:
                conn = self.by_identity.get(seat.identity)
                if conn is not None:
                    out[i] = conn.id
        return out

    def connected(self, table: Table) -> dict[int, bool]:
        """Whether each human seat of ``table`` has a live connection."""
        return {i: s.identity in self.by_identity
                for i, s in enumerate(table.seats) if s.kind == "human"}

    # -- seats -----------------------------------------------------------------------------
    def where(self, identity: bytes) -> tuple[Table, int] | None:
        """The (table, seat) ``identity`` holds at a table that is not over, or None."""
        tid = self.seated.get(identity)
        table = self.tables.get(tid) if tid is not None else None
        if table is None or table.status == "over":
            return None
        seat = table.seat_of(identity)
        return (table, seat) if seat is not None else None

    def holds_seat(self, identity: bytes) -> bool:
        """Whether ``identity`` holds a seat, or a bot keeps one for it (it may then resume
        without the room code)."""
        return self.where(identity) is not None or self.stand_in(identity) is not None

    def stand_in(self, identity: bytes) -> Table | None:
        """The playing table where a bot keeps ``identity``'s seat, or None."""
        table = self.tables.get(self._stand_ins.get(identity, 0))
        if table is None or table.reserved_seat(identity) is None:
            self._stand_ins.pop(identity, None)
            return None
        return table

    def stood_down(self, identity: bytes) -> None:
        """The bot keeping ``identity``'s seat gave it back."""
        del self._stand_ins[identity]

    def note_bots(self, table: Table) -> None:
        """Index the bots of ``table`` that keep a player's seat."""
        for s in table.seats:
            if s.kind == "bot" and s.reserved is not None:
                self._stand_ins[s.reserved] = table.id

    # -- names -----------------------------------------------------------------------------
    def bind_name(self, name: str, identity: bytes) -> None:
        """From now on ``name`` is ``identity``'s (a tournament's entrant): nobody else gets
        it — nor a name that looks like it — and ``identity``'s player connects under it."""
        self._bound[name_key(name)] = identity
        self._bound_to[identity] = name

    def name_for(self, wanted: str, identity: bytes) -> str:
        """The name a player connecting with ``identity`` and asking for ``wanted`` gets: the
        name bound to its key, else ``wanted`` made unique (:meth:`unique_name`)."""
        return self._bound_to.get(identity) or self.unique_name(wanted, identity)

    def unique_name(self, wanted: str, identity: bytes | None,
                    table: Table | None = None) -> str:
        """``wanted`` made unique on this host: against every other connected player, every
        seat at a table that is not over (for a bot: against humans and its own table) and
        every name bound to another key."""
        key = name_key(wanted)
        bound = {k for k, owner in self._bound.items() if owner != identity}
        if key not in bound and not self._human_names[key] and not (
                self._bot_names[key] if identity is not None
                else table is not None and any(s.kind == "bot" and name_key(s.name) == key
                                               for s in table.seats)):
            return wanted  # nobody uses it (the indexes hold every name in use, and more)
        taken = {name_key(c.name) for c in self.conns.values() if c.identity != identity}
        taken |= bound
        for t in self.tables.values():
            if t.status == "over":
                continue
            for s in t.seats:
                if (s.kind == "human" and (s.identity != identity or identity is None)) or (
                        s.kind == "bot" and (identity is not None or t is table)):
                    taken.add(name_key(s.name))
        return unique_name(wanted, taken)

    def index_names(self, tid: int, table: Table | None) -> None:
        """Keep the names index of table ``tid`` (None: it is gone) as its seats are now."""
        humans, bots = self._table_names.pop(tid, ([], []))
        self._human_names.subtract(humans)
        self._bot_names.subtract(bots)
        if table is not None:
            humans = [name_key(s.name) for s in table.seats if s.kind == "human"]
            bots = [name_key(s.name) for s in table.seats if s.kind == "bot"]
            self._table_names[tid] = (humans, bots)
            self._human_names.update(humans)
            self._bot_names.update(bots)
        for counter in (self._human_names, self._bot_names):
            for name in [n for n in humans + bots if counter[n] <= 0]:
                del counter[name]
