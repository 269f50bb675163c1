"""The tick: what the tables changed, made into frames (part of the sans-I/O core).

The one place where a table's changes (:mod:`host.changes`) become frames: once per loop tick in
the host, after the journal records of the tick's actions were written (so no view leaves before
its step is on disk); at once after every call in tests. Rules kept here:
* after every change of a table every connected human seat of it receives one frame with its
  own view (with its legal actions), all of one padded length (the traffic rule,
  :mod:`protocol.traffic`; :func:`host.render.frames`), and every watcher one of its own
  (:meth:`host.watchers.Watchers.tick`); each such burst is one more publication
  (:attr:`host.table.Table.published`, the ``state_id`` the seats see);
* a table whose frames show a secret step open (:meth:`hexnet.engine.Game.secret_step`) is
  paced from then on (:class:`host.changes.Changes`): it publishes on its own cadence — a
  :class:`host.core.Cadence` every :data:`protocol.traffic.SLOT_EVERY` seconds, each tick a
  frame to every seat (:mod:`host.pacing`) — until the tick that publishes the step's close;
  each step gets an opaque key of its own (``s`` + the publication that opened it). Only while
  someone observes the table (a connected seat, a watcher): a table nobody sees — host bots
  alone, every player away — plays at its own speed, and its bursts are no publications (a
  player back finds the count where they left it);
* at the end every seated human gets the ``reveal`` parts (:mod:`host.fairplay`) — one who is
  away then gets the final view and the reveal when they reconnect.
"""

from __future__ import annotations

from host.changes import Change, Changes
from host.core import Cadence, Frames, Outbox, Send, TablesChanged
from host.fairplay import reveal_messages
from host.people import People
from host.presence import Presence
from host.render import frames, step_of
from host.table import Table
from host.watchers import Watchers
from protocol import traffic


class Publisher:
    """Turns each table's change since the last tick into frames for its seats and watchers."""

    def __init__(self, out: Outbox, tables: dict[int, Table], people: People, changes: Changes,
                 presence: Presence, watchers: Watchers,
                 every: float = traffic.SLOT_EVERY) -> None:
        self.out = out
        self.every = every  # a secret step's cadence (and its seats' slot period)
        self.tables = tables  # the registry's (read only here)
        self.people = people
        self.changes = changes
        self.presence = presence
        self.watchers = watchers
        self._tables: list[int] = []  # the table of each frame gathered for the next Frames

    def tick(self, most: int | None = None) -> None:
        """Send every table changed since the last tick (and not paced; or the ``most`` that
        changed first: the others go with the next tick) its frames: one per connected seat, of
        one length (the tick's frames as one :class:`host.core.Frames` effect); then reveals
        that are due (after the frames before them); then the watchers' frames."""
        batch: list[tuple[int, bytes]] = []
        for tid, change in self.changes.take(most).items():
            table = self.tables.get(tid)
            if table is None or table.state is None or table.status == "halted":
                continue  # (halted: its last step is not in the journal)
            batch = self.publish(table, change, batch)
        self._flush(batch)

    def cadence(self, table: Table) -> None:
        """A paced table's tick (:mod:`host.pacing` has applied what waited for it): a frame to
        every seat, whatever changed; the next tick is asked for while the step stays open."""
        if not self.changes.is_paced(table) or table.state is None or table.status == "halted":
            return
        self._flush(self.publish(table, self.changes.take_paced(table), []))

    def publish(self, table: Table, change: Change,
                batch: list[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
        """``table``'s frames of ``change`` (a burst is one more publication), added to
        ``batch`` (emitted first where a reveal follows them); the batch still to emit."""
        conns = self.people.seat_conns(table)
        observed = bool(conns) or bool(self.watchers.of_table(table.id))
        if change.burst and observed:  # a publication: a burst that reaches someone
            table.published += 1
        opened = self._step(table, change.burst, observed)
        if opened:  # a new step's frames start from the smallest size again
            table.step_size = 0
        table.presence_now = self.presence.presence_of(table)
        self.watchers.to_seats(table, change)
        made = frames(table, change, conns, self.every)
        batch += made
        self._tables += [table.id] * len(made)
        if opened:  # (and so do its ticks, whatever the step's first frame needed)
            table.step_size = 0
        if change.reveal or change.reveal_to:
            batch = self._flush(batch)
        if change.reveal:
            self._send_reveal(table, conns)
        for seat in change.reveal_to:
            if seat in conns:
                for msg in reveal_messages(table) if table.salt else []:
                    self.out.emit(Send(conns[seat], msg))
        self.watchers.tick(table, change)
        return batch

    def _flush(self, batch: list[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
        """Emit the frames gathered so far (before anything else goes to their seats); an
        empty batch to gather more."""
        if batch:
            self.out.emit(Frames(batch, self._tables))
        self._tables = []
        return []

    def _step(self, table: Table, burst: bool, observed: bool) -> bool:
        """Keep the secret step the table's frames show, and its pacing, in line with the game
        (on a burst: a frame to one seat alone changes nothing here). Whether a step opened."""
        if not burst:
            return False
        key = step_of(table) if observed else None
        paced = self.changes.is_paced(table)
        if key is None:
            table.step_key = table.step_id = None
            if paced:  # the close is out: the table is due at every loop tick again
                self.changes.paced.discard(table.id)
                if table.id in self.changes.due:
                    self.out.emit(TablesChanged())
            return False
        opened = key != table.step_key
        if opened:
            table.step_key, table.step_id = key, f"s{table.published}"
        if not paced:
            self.changes.paced.add(table.id)
        self.out.emit(Cadence(table.id, self.every))
        return opened

    def _send_reveal(self, table: Table, conns: dict[int, int]) -> None:
        """The game is over: reveal seed, salt and every step to the table's humans. Those
        away at the end get the final view and the reveal when they reconnect
        (``table.missed_end``, :meth:`host.arrivals.Arrivals.send_missed_end`)."""
        parts = reveal_messages(table) if table.salt else []
        for i, seat in enumerate(table.seats):
            if seat.kind != "human" or seat.identity is None:
                continue
            if i not in conns:
                table.missed_end.add(seat.identity)
                continue
            for msg in parts:
                self.out.emit(Send(conns[i], msg))
