"""The core's effects carried out (part of the asyncio shell), in the order they come.

The send path (issues 10, 25): the core applies each message as it arrives and collects what
changed; once per loop tick the shell writes the journal records of the tick's actions (one
``os.write`` per journal, before any frame leaves, so a ``kill -9`` loses nothing anyone saw; a
writer thread fsyncs them as a group every few milliseconds, :class:`host.journal.Syncer`) and
then lets the core send one frame per seat per changed table
(:meth:`host.lobby.Lobby.send_due`). Lobby updates are coalesced (at most
:data:`LOBBY_EVERY` apart), and so are writes of the tables still seating
(:data:`SEATING_EVERY`). Then the host's listeners (dashboards, the tournament director) see the
same effects.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from itertools import islice
from typing import Any

from host.announce import Announcer
from host.core import (
    BotTurn,
    Cadence,
    CancelTimer,
    Close,
    Effect,
    Frames,
    LobbyChanged,
    LobbyDue,
    SeatDisconnected,
    SeatIdle,
    SeatingChanged,
    Send,
    SetTimer,
    TableOver,
    TablesChanged,
    TableStarted,
)
from host.links import Links
from host.lobby import Lobby
from host.recovery import Recorder
from host.timers import Timers

LOBBY_EVERY = 0.25  # seconds between two coalesced lobby updates
# what a stopping host no longer schedules
_SCHEDULED = (SetTimer, BotTurn, SeatDisconnected, SeatIdle, Cadence)
SEATING_EVERY = 0.5  # seconds: the tables still seating are written at most this often


class Dispatcher:
    """Turns the core's effects into writes, ticks, timers, journal records and log lines."""

    def __init__(self, lobby: Lobby, links: Links, timers: Timers, recorder: Recorder | None,
                 announcer: Announcer, log: Callable[[str], None]) -> None:
        self.lobby = lobby
        self.links = links
        self.timers = timers
        self.recorder = recorder
        self.announcer = announcer
        self.log = log
        self.listeners: list[Callable[[list[Effect]], None]] = []
        self._tick_handle: asyncio.Handle | None = None
        self._lobby_handle: asyncio.Handle | None = None
        self._lobby_last = 0.0
        self._seating: list[dict[str, Any]] | None = None  # to be written (coalesced)
        self._seating_handle: asyncio.TimerHandle | None = None
        self._halted_now: set[int] = set()  # tables halted as this call's records were written
        self._handlers: dict[type, Callable[[Any], None]] = {
            Send: self._send,
            Frames: self._frames,
            TablesChanged: self._tick_due,
            LobbyDue: self._lobby_due,
            Close: lambda e: links.close(e.conn, e.code, e.message),
            SetTimer: lambda e: timers.set(e.table, e.key, e.seconds),
            CancelTimer: lambda e: timers.cancel(e.table),
            BotTurn: lambda e: timers.bot_turn(e.table, e.seat, e.state_id, e.pause, e.delay),
            SeatIdle: lambda e: timers.later(e.seconds, lobby.idle_due, e.table, e.seat),
            Cadence: lambda e: timers.later(e.seconds, lobby.cadence, e.table),
            SeatDisconnected: lambda e: timers.seat_lost(e.table, e.seat),
            LobbyChanged: lambda e: announcer.changed(),
            SeatingChanged: self._seating_due,
            TableStarted: lambda e: self.log(f"table {e.table}: {e.game} started with "
                                             f"{', '.join(e.players)}"),
        }

    def carry_out(self, effects: list[Effect]) -> None:
        """The core's listener: every effect of one call of the core."""
        self._halted_now = set()
        if self.recorder is not None:
            # Journal FIRST: every accepted action's record is packed as it comes and the
            # tick's records are written (one write per journal) before any frame leaves; a
            # table whose journal cannot be written is halted here (the lobby then makes no
            # frames, timers or bot turns for it).
            self.recorder.record(effects, hold=True)
            if any(type(e) is Frames or type(e) is Send for e in effects):
                lost = len(self.recorder.lost)  # (tables are added as they are lost)
                self.recorder.write()
                self._halted_now = set(islice(self.recorder.lost, lost, None))
        stopping = self.timers.stopped
        for e in effects:  # (Accepted: journaled above, before the sends)
            if stopping and isinstance(e, _SCHEDULED):
                continue
            handler = self._handlers.get(type(e))
            if handler is not None:
                handler(e)
        for listener in self.listeners:
            listener(effects)
        for e in effects:  # after the listeners: the game log's last lines come first
            if isinstance(e, TableOver):
                self.log(f"table {e.table}: over, scores {e.outcome.get('scores')}, "
                         f"winners {e.outcome.get('winners')}")

    def _frames(self, e: Frames) -> None:
        write = self.links.write
        halted = self._halted_now
        if not halted:
            for conn, data in e.frames:
                write(conn, data)
            return
        # a table halted as these effects' records were written: its frames (made before)
        # show a state its journal does not hold, and never leave
        for (conn, data), tid in zip(e.frames, e.tables, strict=True):
            if tid not in halted:
                write(conn, data)

    def _send(self, e: Send) -> None:
        if e.data is not None:
            self.links.write(e.conn, e.data)
        else:
            self.links.send(e.conn, e.msg)

    def _tick_due(self, _e: TablesChanged) -> None:
        if self._tick_handle is None and not self.timers.stopped:
            self._tick_handle = asyncio.get_running_loop().call_soon(self._tick)

    def _lobby_due(self, _e: LobbyDue) -> None:
        if self._lobby_handle is None and not self.timers.stopped:
            loop = asyncio.get_running_loop()
            wait = self._lobby_last + LOBBY_EVERY - loop.time()
            self._lobby_handle = (loop.call_later(wait, self._lobby_tick) if wait > 0
                                  else loop.call_soon(self._lobby_tick))

    def _seating_due(self, e: SeatingChanged) -> None:
        self._seating = e.tables  # written at most every SEATING_EVERY seconds
        if self._seating_handle is None and self.recorder is not None:
            self._seating_handle = asyncio.get_running_loop().call_later(
                SEATING_EVERY, self.write_seating)

    def start(self) -> None:
        """(A host started, again perhaps) The frames and lobby updates that came due while it
        was stopped go out."""
        loop = asyncio.get_running_loop()
        if self._tick_handle is None:
            self._tick_handle = loop.call_soon(self._tick)
        if self._lobby_handle is None:
            self._lobby_handle = loop.call_soon(self._lobby_tick)

    def stop(self) -> None:
        """No more ticks (:meth:`start` sends what is still due)."""
        for handle in (self._tick_handle, self._lobby_handle):
            if handle is not None:
                handle.cancel()
        self._tick_handle = self._lobby_handle = None

    def _tick(self) -> None:
        """The end of a loop tick: every changed table's frames (journal already written)."""
        self._tick_handle = None
        self.lobby.send_due()

    def _lobby_tick(self) -> None:
        self._lobby_handle = None
        self._lobby_last = asyncio.get_running_loop().time()
        self.lobby.send_lobby()

    def write_seating(self) -> None:
        """Write the tables still seating, as last reported, if not written yet."""
        self._seating_handle = None
        if self._seating is not None and self.recorder is not None:
            self.recorder.write_seating(self._seating)
            self._seating = None

    def drop_seating(self) -> None:
        """(A crash, in tests) A seating write still waiting is lost."""
        if self._seating_handle is not None:
            self._seating_handle.cancel()
