"""What each table owes its seats since the last tick (part of the sans-I/O core).

Actions are applied as they arrive (:mod:`host.playing`); what they change is marked here, per
table, as a :class:`Change`, and turned into frames once per tick by :mod:`host.publish` — once
per loop tick in the host, at once after every call in tests. Applying and publishing are kept
apart: whatever marks a change never makes a frame itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.core import Outbox, TablesChanged
from host.table import Table


@dataclass
class Change:
    """What happened at one table since the last tick."""

    changed: bool = False  # the game state changed, or a cover asked for a burst
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
    """The tables with frames due, each with its :class:`Change`. The first mark after a tick
    asks the shell for the next one (:class:`host.core.TablesChanged`)."""

    def __init__(self, out: Outbox) -> None:
        self.out = out
        self.due: dict[int, Change] = {}

    def of(self, table: Table) -> Change:
        """``table``'s change since the last tick (a new, empty one if none yet)."""
        change = self.due.get(table.id)
        if change is None:
            if not self.due:
                self.out.emit(TablesChanged())
            change = self.due[table.id] = Change()
        return change

    def reply(self, table: Table, seat: int, **fields: Any) -> None:
        """A reply to ``seat`` that rides in the table's next frames (a burst to every seat)."""
        change = self.of(table)
        change.replies.setdefault(seat, {}).update(fields)
        change.alone.discard(seat)

    def resync(self, table: Table, seat: int) -> None:
        """``seat`` gets its whole view (and recent log) again with the next frames."""
        self.of(table).full.add(seat)

    def take(self) -> dict[int, Change]:
        """Every change due, handed to the tick (and forgotten here)."""
        due, self.due = self.due, {}
        return due

    def drop(self, table_id: int) -> None:
        """Forget what ``table_id`` owes (a halted table sends nothing more)."""
        self.due.pop(table_id, None)
