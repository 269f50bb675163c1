"""A table changed where the lobby can see it (part of the sans-I/O core): marked for the next
coalesced lobby update, and noted for the journal at once.

Rules kept here:
* lobby updates are coalesced: a change only marks the table (and invalidates its packed entry);
  the first mark asks the shell for an update (:class:`host.core.LobbyDue`), which
  :mod:`host.broadcast` then sends;
* the journal's word on seating is written as every change is made — never coalesced:
  :class:`host.core.SeatsChanged` (a playing table's seats changed) and
  :class:`host.core.SeatingChanged` (all the tables still seating, when one of them changed or
  went), so a restarted host seats everyone alike;
* an open table with nobody seated but its creator counts its idle time from the change that
  left it so (:meth:`host.registry.Registry.expired`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.core import LobbyDue, Outbox, SeatingChanged, SeatsChanged
from host.people import People
from host.table import Table
from host.watch_rules import RuleBook


class LobbyMarks:
    """The tables whose lobby entry changed or went since the last update, their packed entries
    until then, and what the journal last heard of each table's seating."""

    def __init__(self, out: Outbox, tables: dict[int, Table], people: People, rules: RuleBook,
                 clock: Callable[[], float]) -> None:
        self.out = out
        self.tables = tables  # the registry's (read only here)
        self.people = people
        self.rules = rules
        self.clock = clock
        self.dirty: set[int] = set()
        self.removed: set[int] = set()
        self.pending = False
        self.entries: dict[int, bytes] = {}  # table id → its packed lobby entry (host.broadcast)
        self._seat_records: dict[int, list[dict[str, Any]]] = {}  # playing table → last seats
        self._seating: dict[int, dict[str, Any]] | None = None  # tables seating, as reported

    def changed(self, *tables: Table | None) -> None:
        """Mark tables (none: only someone's ``you``) for the next coalesced lobby update,
        after noting their seating for the journal (at once)."""
        self._note_seating(tables)
        for table in tables:
            if table is not None:
                self.dirty.add(table.id)
                self.entries.pop(table.id, None)
        if not self.pending:
            self.pending = True
            self.out.emit(LobbyDue())

    def dropped(self, table: Table) -> None:
        """``table`` is gone (the registry forgot it): the lobby lists it as removed."""
        self.entries.pop(table.id, None)
        self.removed.add(table.id)
        self.changed(table)

    def seats_known(self, table: Table) -> None:
        """The journal already holds ``table``'s seats as they are (a table resumed from it)."""
        self._seat_records[table.id] = [s.record() for s in table.seats]

    def take(self) -> tuple[list[Table], list[int]] | None:
        """The update due (changed tables, removed ids), or None if none is; forgets them."""
        if not self.pending:
            return None
        self.pending = False
        dirty = [self.tables[t] for t in sorted(self.dirty) if t in self.tables]
        removed = sorted(t for t in self.removed if t not in self.tables)
        self.dirty, self.removed = set(), set()
        return dirty, removed

    def _note_seating(self, tables: tuple[Table | None, ...]) -> None:
        """Journal hooks for seating, as each change is made (not coalesced): a playing
        table's seats that changed (:class:`SeatsChanged`), the tables still seating
        (:class:`SeatingChanged`, all of them, when one of them changed or went); and the time
        since when an open table has nobody seated but its creator. Only the ``tables`` just
        changed are looked at (a host holds hundreds)."""
        now = self.clock()
        seating_changed = self._seating is None
        if self._seating is None:
            self._seating = {}
        for table in tables:
            if table is None:
                continue
            tid = table.id
            self.people.index_names(tid, table if self.tables.get(tid) is table else None)
            if self.tables.get(tid) is not table:  # removed
                seating_changed |= self._seating.pop(tid, None) is not None
                self._seat_records.pop(tid, None)
                continue
            if table.status == "open":
                if not table.awaits_players():
                    table.idle_since = None
                elif table.idle_since is None:
                    table.idle_since = now
                record = self.rules.record(table, table.seating_record())
                if self._seating.get(tid) != record:
                    self._seating[tid] = record
                    seating_changed = True
            else:
                seating_changed |= self._seating.pop(tid, None) is not None
            if table.status == "playing":
                records = [s.record() for s in table.seats]
                if tid in self._seat_records and self._seat_records[tid] != records:
                    self.out.emit(SeatsChanged(tid, records))
                self._seat_records[tid] = records
            else:
                self._seat_records.pop(tid, None)
        if seating_changed:
            self.out.emit(SeatingChanged(list(self._seating.values())))
