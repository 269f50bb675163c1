"""The tick: what the tables changed, made into frames (part of the sans-I/O core).

The one place where a table's changes (:mod:`host.changes`) become frames: once per loop tick in
the host, after the journal records of the tick's actions were written (so no view leaves before
its step is on disk); at once after every call in tests. Rules kept here:
* after every change of a table every connected human seat of it receives one frame with its
  own view (with its legal actions), all of one padded length (the traffic rule,
  :mod:`protocol.traffic`; :func:`host.render.frames`), and every watcher one of its own
  (:meth:`host.watchers.Watchers.tick`);
* at the end every seated human gets the ``reveal`` parts (:mod:`host.fairplay`) — one who is
  away then gets the final view and the reveal when they reconnect.
"""

from __future__ import annotations

from host.changes import Changes
from host.core import Frames, Outbox, Send
from host.fairplay import reveal_messages
from host.people import People
from host.presence import Presence
from host.render import frames
from host.table import Table
from host.watchers import Watchers


class Publisher:
    """Turns each table's change since the last tick into frames for its seats and watchers."""

    def __init__(self, out: Outbox, tables: dict[int, Table], people: People, changes: Changes,
                 presence: Presence, watchers: Watchers) -> None:
        self.out = out
        self.tables = tables  # the registry's (read only here)
        self.people = people
        self.changes = changes
        self.presence = presence
        self.watchers = watchers

    def tick(self, most: int | None = None) -> None:
        """Send every table changed since the last tick (or the ``most`` that changed first:
        the others go with the next tick) its frames: one per connected seat, of one length
        (the tick's frames as one :class:`host.core.Frames` effect); then reveals that are due
        (after the frames before them); then the watchers' frames."""
        batch: list[tuple[int, bytes]] = []
        for tid, change in self.changes.take(most).items():
            table = self.tables.get(tid)
            if table is None or table.state is None or table.status == "halted":
                continue  # (halted: its last step is not in the journal)
            conns = self.people.seat_conns(table)
            table.presence_now = self.presence.presence_of(table)
            self.watchers.to_seats(table, change)
            batch += frames(table, change, conns)
            if change.reveal or change.reveal_to:
                batch = self._flush(batch)
            if change.reveal:
                self._send_reveal(table, conns)
            for seat in change.reveal_to:
                if seat in conns:
                    for msg in reveal_messages(table) if table.salt else []:
                        self.out.emit(Send(conns[seat], msg))
            self.watchers.tick(table, change)
        self._flush(batch)

    def _flush(self, batch: list[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
        """Emit the frames gathered so far (before anything else goes to their seats); an
        empty batch to gather more."""
        if batch:
            self.out.emit(Frames(batch))
        return []

    def _send_reveal(self, table: Table, conns: dict[int, int]) -> None:
        """The game is over: reveal seed, salt and every step to the table's humans. Those
        away at the end get the final view and the reveal when they reconnect
        (``table.missed_end``, :meth:`host.playing.Play.send_missed_end`)."""
        parts = reveal_messages(table) if table.salt else []
        for i, seat in enumerate(table.seats):
            if seat.kind != "human" or seat.identity is None:
                continue
            if i not in conns:
                table.missed_end.add(seat.identity)
                continue
            for msg in parts:
                self.out.emit(Send(conns[i], msg))
