"""What each table owes its seats since the last tick (part of the sans-I/O core).

Actions are applied as they arrive (:mod:`host.playing`); what they change is marked here, per
table, as a :class:`Change`, and turned into frames once per tick by :mod:`host.publish` — once
per loop tick in the host, at once after every call in tests. Applying and publishing are kept
apart: whatever marks a change never makes a frame itself.

Which tables are due: a table in an open secret step (:meth:`hexnet.engine.Game.secret_step`)
is *paced* — what it owes waits for its own cadence tick (:mod:`host.pacing`), which sends every
seat a frame whether or not anything changed and publishes the step's close; every other table
is due at the next loop tick.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.core import Outbox, TablesChanged
from host.table import Table


@dataclass
class Change:
    """What happened at one table since the last tick."""

    changed: bool = False  # the game state changed, or a secret step's tick is due
    full: set[int] = field(default_factory=set)  # seats that get their whole view again
    replies: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat → reply fields
    alone: set[int] = field(default_factory=set)  # seats whose reply goes to them only
    chat: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # seat → chat lines
    emotes: list[dict[str, Any]] = field(default_factory=list)  # {seat, emote}: every seat's
    reveal: bool = False  # the game ended: every seat gets the reveal after its frame
    reveal_to: set[int] = field(default_factory=set)  # seats back after missing the end
    watchers: list[str] | None = None  # who watches the table, when that changed (a burst)

    @property
    def burst(self) -> bool:
        """Whether every connected seat gets a frame (else only the ``full`` and ``alone``
        ones)."""
        return (self.changed or any(s not in self.alone for s in self.replies)
                or bool(self.chat) or bool(self.emotes) or self.watchers is not None)


class Changes:
    """The tables with frames due, each with its :class:`Change`, and the tables paced by an
    open secret step. The first mark after a loop tick of a table that is not paced asks the
    shell for the next one (:class:`host.core.TablesChanged`)."""

    def __init__(self, out: Outbox) -> None:
        self.out = out
        self.due: dict[int, Change] = {}
        self.paced: set[int] = set()  # tables whose frames wait for their cadence tick

    def of(self, table: Table) -> Change:
        """``table``'s change since the last tick (a new, empty one if none yet)."""
        change = self.due.get(table.id)
        if change is None:
            if table.id not in self.paced and all(t in self.paced for t in self.due):
                self.out.emit(TablesChanged())
            change = self.due[table.id] = Change()
        return change

    def is_paced(self, table: Table) -> bool:
        """Whether ``table`` is in an open secret step: what it owes waits for its tick."""
        return table.id in self.paced

    def reply(self, table: Table, seat: int, **fields: Any) -> None:
        """A reply to ``seat`` that rides in the table's next frames (a burst to every seat)."""
        change = self.of(table)
        change.replies.setdefault(seat, {}).update(fields)
        change.alone.discard(seat)

    def resync(self, table: Table, seat: int) -> None:
        """``seat`` gets its whole view (and recent log) again with the next frames."""
        self.of(table).full.add(seat)

    def take(self, most: int | None = None) -> dict[int, Change]:
        """The changes due at the loop tick — of the tables not paced —, handed to the tick
        (and forgotten here): every one, or the ``most`` that came first — the others stay
        due, and the next tick is asked for."""
        ready = [tid for tid in self.due if tid not in self.paced]
        if most is not None and len(ready) > most:
            ready = ready[:most]
            self.out.emit(TablesChanged())
        if len(ready) == len(self.due):
            due, self.due = self.due, {}
            return due
        due = {tid: self.due.pop(tid) for tid in ready}
        return due

    def take_paced(self, table: Table) -> Change:
        """A paced table's cadence tick: what it owes (forgotten here), always a burst."""
        change = self.due.pop(table.id, None) or Change()
        change.changed = True
        return change

    def drop(self, table_id: int) -> None:
        """Forget what ``table_id`` owes (a halted table sends nothing more)."""
        self.due.pop(table_id, None)
        self.paced.discard(table_id)
