"""Presence at a playing table (part of the sans-I/O core): who is connected, reconnecting,
disconnected (both with how long until they count as absent), absent, or played by a bot — as
data every seat receives alike, and as log lines.

A seat whose connection ends without its client's ``bye`` reads *reconnecting*: a client comes
back by itself (with backoff) for :data:`protocol.messages.RECONNECT_FOR` seconds. A client
that said ``bye`` (its player closed it), or one that has not come back within that time (the
host's shell calls :meth:`Presence.stopped_reconnecting`), reads *disconnected*.
Both count down to absent (``hexnet host --absent-after``); each change is a log line.

Each change of a seat's presence at a playing table is a journaled host action
(``{"type": "presence", "seat", "state", "count"}``, :data:`hexnet.engine.PRESENCE`): its log
line is public (the lobby shows who is connected anyway), except ``played`` — told to the
returning player only: how many moves the game or a bot made for them while they were away.
Every frame of the table carries the whole table's presence (``view["presence"]``, the same for
every seat, :meth:`host.table.Table.presence`), so nothing observable depends on hidden
information (:mod:`protocol.traffic`).

What a player's own coming and going changes is logged within its presence budget
(:mod:`host.budget`: a few changes at once, then one every ten seconds): past it a change still
holds — the seat reads connected or away in the table's next frame — but is no journal record,
no log line and no frame of its own (a client that reconnects in a loop, or toggles ``leave`` and
``sit``, cannot flood every seat and the journal). What the host does (timers, the dashboard, a
tournament's seating) is always logged.

The shell's timers (:meth:`Presence.stopped_reconnecting`, :meth:`Presence.absent_if_gone`,
:meth:`Presence.idle_due`) only change the seat and return the table; the lobby then marks it
and lets it play on (:mod:`host.playing` is above this part).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from hexnet.engine import IllegalAction
from host.core import Outbox, SeatIdle
from host.people import People
from host.table import Table, accepted
from protocol.messages import RECONNECT_FOR

KEEP_CHAT = 50  # public chat lines a table keeps for players who reconnect


class Presence:
    """The host's grace periods (``absent_after``, ``idle_absent``, ``reconnect_for``) and the
    presence of every seat at the playing tables (kept on each :class:`host.table.Table`)."""

    def __init__(self, out: Outbox, tables: dict[int, Table], people: People,
                 clock: Callable[[], float], absent_after: float | None = None,
                 idle_absent: float | None = None) -> None:
        self.out = out
        self.tables = tables  # the registry's (read only here)
        self.people = people
        self.clock = clock
        self.absent_after = absent_after  # the shell's grace before a lost seat counts absent
        self.idle_absent = idle_absent  # seconds a connected seat may keep a table waiting
        self.reconnect_for = RECONNECT_FOR  # how long a dropped seat reads as reconnecting
        self._chat_n = 0

    def presence_of(self, table: Table) -> list[dict[str, Any]]:
        """Every seat's presence at ``table`` now (see :meth:`host.table.Table.presence`)."""
        return table.presence(self.people.connected(table), self.clock())

    def log(self, table: Table, seat: int, what: str, count: int = 0) -> None:
        """Log ``what`` happened to ``seat``'s presence (a journaled host action); only at a
        playing table. The caller advances the table afterwards."""
        if table.status != "playing" or table.state is None:
            return
        action = {"type": "presence", "seat": seat, "state": what, "count": max(0, count)}
        try:
            events = table.act(None, action)
        except IllegalAction:
            return
        self.out.emit(accepted(table, None, action, events))

    def may_change(self, identity: bytes) -> bool:
        """Whether ``identity``'s player may ask to change its presence now (``leave``, or
        ``sit`` back): its presence budget is not spent (nothing is spent here)."""
        return self.people.budget_of(identity).presence.ready()

    def by_player(self, table: Table, seat: int) -> bool:
        """A change of ``seat``'s presence its player made: whether it is logged (its
        presence budget, :mod:`host.budget`, spent)."""
        identity = table.seats[seat].identity
        return identity is None or self.people.budget_of(identity).presence_change()

    def seat_lost(self, table: Table, seat: int, reconnecting: bool = True) -> bool:
        """The player of ``seat`` lost the connection at a playing table — their link dropped
        (``reconnecting``: their client is expected back) or their client said goodbye: the
        countdown to absent starts (if the host has a grace) and the table reads it. Whether
        it was logged (within the player's presence budget)."""
        if table.status != "playing" or table.seats[seat].absent:
            return False
        now = self.clock()
        if reconnecting:
            table.reconnecting_until[seat] = now + self.reconnect_for
        else:
            table.reconnecting_until.pop(seat, None)
        if self.absent_after is not None:
            table.away_until[seat] = now + self.absent_after
        if not self.by_player(table, seat):
            return False
        if self.absent_after is None:
            self.log(table, seat, "lost" if reconnecting else "gone")
        else:
            self.log(table, seat, "reconnecting" if reconnecting else "disconnected",
                     round(self.absent_after))
        return True

    def stopped_reconnecting(self, table_id: int, seat: int) -> Table | None:
        """(The shell, :attr:`reconnect_for` seconds after a link dropped) A seat still away
        whose client would have come back by now reads *disconnected*, with what is left of
        its countdown to absent; the table, if so. A timer from an earlier loss does nothing."""
        table = self.tables.get(table_id)
        if table is None or table.status != "playing" or not 0 <= seat < len(table.seats):
            return None
        s = table.seats[seat]
        until = table.reconnecting_until.get(seat)
        now = self.clock()
        if (until is None or until > now + 0.5 or s.kind != "human" or s.absent
                or s.identity in self.people.by_identity):
            return None
        del table.reconnecting_until[seat]
        away = table.away_until.get(seat)
        if away is None:
            self.log(table, seat, "gone")
        else:
            self.log(table, seat, "disconnected", max(0, math.ceil(away - now)))
        return table

    def absent_if_gone(self, table_id: int, seat: int) -> Table | None:
        """(The shell, when the grace of a disconnected seat ended) If its player is still away,
        the seat counts as absent until they reconnect; the table, if so."""
        table = self.tables.get(table_id)
        if table is None or table.status != "playing" or not 0 <= seat < len(table.seats):
            return None
        s = table.seats[seat]
        if s.kind != "human" or s.absent or self.people.conn_of(s.identity) is not None:
            return None
        s.absent = s.absent_auto = True
        table.away_until.pop(seat, None)
        table.reconnecting_until.pop(seat, None)
        self.log(table, seat, "absent")
        return table

    def seat_back(self, table: Table, seat: int, by_player: bool = True) -> bool:
        """The player of ``seat`` is back (reconnected, sat again, took their seat back from a
        bot; or the host says so, not ``by_player``): the table reads it, and they are told
        how many moves were played for them. Whether it was logged (a player's own return:
        within its presence budget; past it the moves played for them are told next time)."""
        table.away_until.pop(seat, None)
        table.reconnecting_until.pop(seat, None)
        if table.status != "playing":
            table.played_for.pop(seat, None)
            return False
        if by_player and not self.by_player(table, seat):
            return False
        self.log(table, seat, "back")
        # always a step, 0 moves too: how often the game waited on a seat may follow its
        # hidden role, and the other seats see the state id move
        self.log(table, seat, "played", table.played_for.pop(seat, 0))
        return True

    def watch_waiting(self, table: Table) -> None:
        """(After every change) With ``idle_absent`` set, each connected human seat the game
        now needs (:meth:`hexnet.engine.Game.needed`) starts its count (a
        :class:`host.core.SeatIdle` timer), kept while it is needed without acting; a seat no
        longer needed stops counting."""
        if not self.idle_absent:
            return
        waiting = (set(table.engine.needed(table.state))
                   if table.status == "playing" and table.state is not None else set())
        for seat in [s for s in table.waited_since if s not in waiting]:
            del table.waited_since[seat]
        for seat in sorted(waiting):
            s = table.seats[seat]
            if (s.kind == "human" and not s.absent and seat not in table.waited_since
                    and s.identity in self.people.by_identity):
                table.waited_since[seat] = self.clock()
                self.out.emit(SeatIdle(table.id, seat, self.idle_absent))

    def idle_due(self, table_id: int, seat: int) -> Table | None:
        """(The shell, ``idle_absent`` seconds after a wait began) A connected player who has
        kept the table waiting all that time is marked absent: the game answers for them
        (each game's absent move) until they come back with a ``sit`` at their seat (``b`` at
        the table, ``s`` in the lobby). So an idle player cannot hold a table whose rules
        leave a step untimed. A timer of an earlier wait does nothing, nor one for a player
        who has lost the connection meanwhile (``absent_after`` counts for them). The table,
        if the seat went absent."""
        table = self.tables.get(table_id)
        if (table is None or table.status != "playing" or not self.idle_absent
                or not 0 <= seat < len(table.seats)):
            return None
        since = table.waited_since.get(seat)
        s = table.seats[seat]
        if (since is None or self.clock() - since < self.idle_absent - 0.5
                or s.kind != "human" or s.absent or table.state is None
                or s.identity not in self.people.by_identity
                or seat not in table.engine.needed(table.state)):
            return None
        del table.waited_since[seat]
        s.absent, s.absent_auto = True, False
        self.log(table, seat, "absent")
        return table

    @staticmethod
    def played_for(table: Table, seat: int) -> None:
        """A move was made for ``seat`` (its absent default, or a bot keeping its seat)."""
        table.played_for[seat] = table.played_for.get(seat, 0) + 1

    def keep_chat(self, table: Table, line: dict[str, Any]) -> None:
        """Keep a public table chat line for players who reconnect (whispers are not kept: a
        seat's resent history must not depend on its hidden role). It gets a number ``n``,
        rising across tables and restarts, so a client shows each line once."""
        self._chat_n = max(self._chat_n + 1, int(time.time() * 1000))
        line["n"] = self._chat_n
        table.chat_kept.append(line)
        del table.chat_kept[:-KEEP_CHAT]
