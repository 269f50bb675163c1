"""Presence at a playing table (part of the sans-I/O core): who is connected, reconnecting,
disconnected (both with how long until they count as absent), absent, or played by a bot — as
data every seat receives alike, and as log lines.

A seat whose connection ends without its client's ``bye`` reads *reconnecting*: a client comes
back by itself (with backoff) for :data:`protocol.messages.RECONNECT_FOR` seconds. A client
that said ``bye`` (its player closed it), or one that has not come back within that time (the
host's shell calls :meth:`PresenceMixin.stopped_reconnecting`), reads *disconnected*.
Both count down to absent (``hexnet host --absent-after``); each change is a log line.

Each change of a seat's presence at a playing table is a journaled host action
(``{"type": "presence", "seat", "state", "count"}``, :data:`hexnet.engine.PRESENCE`): its log
line is public (the lobby shows who is connected anyway), except ``played`` — told to the
returning player only: how many moves the game or a bot made for them while they were away.
Every frame of the table carries the whole table's presence (``view["presence"]``, the same for
every seat, :meth:`host.table.Table.presence`), so nothing observable depends on hidden
information (:mod:`protocol.traffic`).

Mixed into :class:`host.lobby.Lobby`, whose plumbing (``clock``, ``by_identity``, ``_advance``,
``_accepted``) it uses.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from hexnet.engine import IllegalAction
from host.core import SeatIdle
from host.table import Table
from protocol.messages import RECONNECT_FOR

if TYPE_CHECKING:
    from collections.abc import Callable

KEEP_CHAT = 50  # public chat lines a table keeps for players who reconnect


class PresenceMixin:
    """The presence half of :class:`host.lobby.Lobby`."""

    absent_after: float | None = None  # the shell's grace before a lost seat counts absent
    idle_absent: float | None = None  # seconds a connected seat may keep a table waiting
    reconnect_for: float = RECONNECT_FOR  # how long a dropped seat reads as reconnecting
    clock: Callable[[], float]
    by_identity: dict[bytes, Any]
    tables: dict[int, Table]

    def _connected(self, table: Table) -> dict[int, bool]:
        return {i: s.identity in self.by_identity
                for i, s in enumerate(table.seats) if s.kind == "human"}

    def presence_of(self, table: Table) -> list[dict[str, Any]]:
        """Every seat's presence at ``table`` now (see :meth:`host.table.Table.presence`)."""
        return table.presence(self._connected(table), self.clock())

    def _presence(self, table: Table, seat: int, what: str, count: int = 0) -> None:
        """Log ``what`` happened to ``seat``'s presence (a journaled host action); only at a
        playing table. The caller advances the table afterwards."""
        if table.status != "playing" or table.state is None:
            return
        action = {"type": "presence", "seat": seat, "state": what, "count": max(0, count)}
        try:
            events = table.act(None, action)
        except IllegalAction:
            return
        self._accepted(table, None, action, events)  # type: ignore[attr-defined]

    def _seat_lost(self, table: Table, seat: int, reconnecting: bool = True) -> None:
        """The player of ``seat`` lost the connection at a playing table — their link dropped
        (``reconnecting``: their client is expected back) or their client said goodbye: the
        countdown to absent starts (if the host has a grace) and the table reads it."""
        if table.status != "playing" or table.seats[seat].absent:
            return
        now = self.clock()
        if reconnecting:
            table.reconnecting_until[seat] = now + self.reconnect_for
        else:
            table.reconnecting_until.pop(seat, None)
        if self.absent_after is None:
            self._presence(table, seat, "lost" if reconnecting else "gone")
            return
        table.away_until[seat] = now + self.absent_after
        self._presence(table, seat, "reconnecting" if reconnecting else "disconnected",
                       round(self.absent_after))

    def stopped_reconnecting(self, table_id: int, seat: int) -> None:
        """(The shell, :attr:`reconnect_for` seconds after a link dropped) A seat still away
        whose client would have come back by now reads *disconnected*, with what is left of
        its countdown to absent. A timer from an earlier loss does nothing."""
        table = self.tables.get(table_id)
        if table is None or table.status != "playing" or not 0 <= seat < len(table.seats):
            return
        s = table.seats[seat]
        until = table.reconnecting_until.get(seat)
        now = self.clock()
        if (until is None or until > now + 0.5 or s.kind != "human" or s.absent
                or s.identity in self.by_identity):
            return
        del table.reconnecting_until[seat]
        away = table.away_until.get(seat)
        if away is None:
            self._presence(table, seat, "gone")
        else:
            self._presence(table, seat, "disconnected", max(0, math.ceil(away - now)))
        self._lobby_changed(table)  # type: ignore[attr-defined]
        self._advance(table)  # type: ignore[attr-defined]
        self._flush()  # type: ignore[attr-defined]

    def _seat_back(self, table: Table, seat: int) -> None:
        """The player of ``seat`` is back (reconnected, sat again, took their seat back from a
        bot): the table reads it, and they are told how many moves were played for them."""
        table.away_until.pop(seat, None)
        table.reconnecting_until.pop(seat, None)
        if table.status != "playing":
            table.played_for.pop(seat, None)
            return
        self._presence(table, seat, "back")
        # always a step, 0 moves too: how often the game waited on a seat may follow its
        # hidden role, and the other seats see the state id move
        self._presence(table, seat, "played", table.played_for.pop(seat, 0))

    def _watch_waiting(self, table: Table) -> None:
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
                    and s.identity in self.by_identity):
                table.waited_since[seat] = self.clock()
                self._emit(SeatIdle(table.id, seat, self.idle_absent))  # type: ignore[attr-defined]

    def idle_due(self, table_id: int, seat: int) -> None:
        """(The shell, ``idle_absent`` seconds after a wait began) A connected player who has
        kept the table waiting all that time is marked absent: the game answers for them
        (each game's absent move) until they come back with a ``sit`` at their seat (``b`` at
        the table, ``s`` in the lobby). So an idle player cannot hold a table whose rules
        leave a step untimed. A timer of an earlier wait does nothing, nor one for a player
        who has lost the connection meanwhile (``absent_after`` counts for them)."""
        table = self.tables.get(table_id)
        if (table is None or table.status != "playing" or not self.idle_absent
                or not 0 <= seat < len(table.seats)):
            return
        since = table.waited_since.get(seat)
        s = table.seats[seat]
        if (since is None or self.clock() - since < self.idle_absent - 0.5
                or s.kind != "human" or s.absent or table.state is None
                or s.identity not in self.by_identity
                or seat not in table.engine.needed(table.state)):
            return
        del table.waited_since[seat]
        s.absent, s.absent_auto = True, False
        self._presence(table, seat, "absent")
        self._lobby_changed(table)  # type: ignore[attr-defined]
        self._advance(table)  # type: ignore[attr-defined]
        self._flush()  # type: ignore[attr-defined]

    def _played_for(self, table: Table, seat: int) -> None:
        """A move was made for ``seat`` (its absent default, or a bot keeping its seat)."""
        table.played_for[seat] = table.played_for.get(seat, 0) + 1

    def _keep_chat(self, table: Table, line: dict[str, Any]) -> None:
        """Keep a public table chat line for players who reconnect (whispers are not kept: a
        seat's resent history must not depend on its hidden role). It gets a number ``n``,
        rising across tables and restarts, so a client shows each line once."""
        self._chat_n = max(getattr(self, "_chat_n", 0) + 1, int(time.time() * 1000))
        line["n"] = self._chat_n
        table.chat_kept.append(line)
        del table.chat_kept[:-KEEP_CHAT]
