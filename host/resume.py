"""Tables coming back after a restart (part of the sans-I/O core): the playing tables rebuilt
from their journals (:mod:`host.recovery` reads them) and the tables that were still seating.

Every human seat of a resumed table starts disconnected: its client comes back by itself, and
the grace periods of :mod:`host.presence` run as after any lost connection — nothing is
journaled for that (the host's stop wrote nothing either). A running deadline resumes with the
time it had left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexnet.games import get_game
from host.core import Outbox, SeatDisconnected
from host.marks import LobbyMarks
from host.people import People
from host.playing import Play
from host.presence import Presence
from host.registry import Registry
from host.table import Seat, Table
from host.watch_rules import RuleBook


class Resumer:
    """Puts tables that come back into the registry and seats their players as they were."""

    def __init__(self, out: Outbox, registry: Registry, people: People, marks: LobbyMarks,
                 rules: RuleBook, presence: Presence, play: Play,
                 clock: Callable[[], float]) -> None:
        self.out = out
        self.registry = registry
        self.people = people
        self.marks = marks
        self.rules = rules
        self.presence = presence
        self.play = play
        self.clock = clock

    def _seat_players(self, table: Table) -> None:
        for seat in table.seats:
            if seat.kind == "human" and seat.identity is not None:
                self.people.seated[seat.identity] = table.id

    def resume_table(self, table: Table, timer: tuple[str, float] | None = None) -> None:
        """Take back a playing ``table`` rebuilt from its journal after a restart (give it an
        id first, :meth:`host.registry.Registry.resume_id`); every human seat starts
        disconnected. ``timer`` (key, seconds left) resumes the running deadline with the time
        it had left, if it is still the engine's current one."""
        self.registry.resume_id(table)
        self.registry.put_back(table)
        self._seat_players(table)
        self.people.note_bots(table)
        self.marks.seats_known(table)
        deadline = table.engine.deadline(table.state) if table.state is not None else None
        if timer is not None and deadline is not None and deadline.key == timer[0]:
            table.timer_key, table.timer_since = timer[0], table.published + 1
            self.play.run_timer(table, max(0.0, min(timer[1], deadline.seconds)))
        self.marks.changed(table)
        presence = self.presence
        for i, seat in enumerate(table.seats):
            if seat.kind == "human" and table.status == "playing":
                self.out.emit(SeatDisconnected(table.id, i))
                if not seat.absent:  # its client comes back by itself after the restart
                    table.reconnecting_until[i] = self.clock() + presence.reconnect_for
                if presence.absent_after is not None and not seat.absent:
                    table.away_until[i] = self.clock() + presence.absent_after
        self.play.advance(table)
        self.out.flush()

    def restore_seating(self, records: list[dict[str, Any]]) -> list[int]:
        """Bring back the tables that were still seating before a restart (records of
        :meth:`host.table.Table.seating_record`); their ids. A record that no longer makes a
        table (unknown game, bad seats) is skipped."""
        restored: list[Table] = []
        for rec in records:
            try:
                engine = get_game(str(rec["game"]))
                seats = [Seat.from_record(s) for s in rec["seats"]]
                table = Table(int(rec["id"]), str(rec["game"]), engine, seats,
                              dict(rec["options"]))
                table.seed = rec.get("seed") or 0
                creator = rec.get("creator")
                table.creator = bytes(creator) if creator is not None else None
            except (KeyError, TypeError, ValueError, ModuleNotFoundError):
                continue
            self.registry.resume_id(table)
            self.registry.put_back(table)
            self.rules.restore(table.id, rec.get("watch"))
            self._seat_players(table)
            restored.append(table)
        if restored:
            self.marks.changed(*restored)
            self.out.flush()
        return [t.id for t in restored]
