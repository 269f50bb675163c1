"""A secret step's cadence (part of the sans-I/O core): what waited for the tick is applied, then
every seat gets a frame.

While a table is in an open secret step (:meth:`hexnet.engine.Game.secret_step`; the table is
*paced*, :class:`host.changes.Changes`), nothing a seat or a timer does is applied as it comes:
players' ``act`` s, host bots' choices and the timer's expiry wait in the table's queue
(:attr:`host.table.Table.queued`) — a cover is read and dropped, the same work as queueing an
action —, and at each tick of the step's cadence (every :data:`protocol.traffic.SLOT_EVERY`
seconds, :class:`host.core.Cadence`) :meth:`Pacing.tick`:

1. applies what waited, in the order it came (each checked then: still current, still legal;
   refusals ride in the tick's frames), journaled in that order before any frame leaves; a
   player's action that waited behind the one that ended the game is refused as ``stale``;
2. plays the absent seats' defaults, every absent seat the game waits on alike — never in the
   change that opened the step, so nothing about them shows before the tick;
3. publishes: one frame to every seat, of one length, whether or not anything changed — a
   constant stream while the step is open — and with the step's close the table is due at
   every loop tick again.

So neither when the host applies an action nor when it answers says which seat sent what: every
client sends on the same schedule (:mod:`client.session`) and the host answers on its own.
"""

from __future__ import annotations

from host.bots import HostBots
from host.changes import Changes
from host.core import Outbox
from host.playing import Play
from host.publish import Publisher
from host.table import Table


class Pacing:
    """The ticks of the tables in an open secret step."""

    def __init__(self, out: Outbox, tables: dict[int, Table], changes: Changes, play: Play,
                 bots: HostBots, publisher: Publisher) -> None:
        self.out = out
        self.tables = tables  # the registry's (read only here)
        self.changes = changes
        self.play = play
        self.bots = bots
        self.publisher = publisher

    def tick(self, table_id: int) -> None:
        """(The shell, :class:`host.core.Cadence`) The next tick of ``table_id``'s step."""
        table = self.tables.get(table_id)
        if table is None or not self.changes.is_paced(table):
            return
        self.play.ticking = True
        try:
            self._apply(table)
        finally:
            self.play.ticking = False
        self.publisher.cadence(table)
        self.out.flush()

    def _apply(self, table: Table) -> None:
        """What waited for this tick, then the absent seats' defaults."""
        waiting, table.queued = table.queued, []
        if table.status != "playing" or table.state is None:
            return
        for entry in waiting:
            over = table.status != "playing"  # the game ended at this tick
            if entry[0] == "act":
                _, conn, seat, msg = entry
                if over:  # a player's action after the end: refused, as come too late
                    self.play.refuse_stale(table, seat, conn)
                else:
                    self.play.settle(conn, table, seat, msg)
            elif over:  # (a bot's choice or a timer: nobody waits for an answer)
                continue
            elif entry[0] == "bot":
                _, seat, action, choice = entry
                self.bots.settle(table, seat, action, choice)
            else:
                self.play.expire(table, entry[1])
        if any(table.seats[s].absent for s in table.waiting_for()):
            self.play.advance(table)
