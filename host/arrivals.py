"""Players coming and going (part of the sans-I/O core): an authenticated connection joins the
lobby, or goes away.

Rules kept here:
* a seat is bound to its player's identity key: that player reconnecting (same key) gets the
  seat back — from a bot standing in for them, or from the absence their lost connection
  caused — and a second connection with the same key replaces the first;
* a connection that goes away leaves its seat bound; at a playing table a
  :class:`host.core.SeatDisconnected` effect starts the grace period before it counts as absent
  (:mod:`host.presence`).
"""

from __future__ import annotations

from host.broadcast import Broadcast
from host.changes import Changes
from host.conn import Conn
from host.core import Close, Outbox, SeatDisconnected, Send, clean_name
from host.marks import LobbyMarks
from host.people import People
from host.playing import Play
from host.presence import Presence
from host.seating import Seating
from host.table import Table


class Arrivals:
    """Connects and disconnects players; what they find is the other parts'."""

    def __init__(self, out: Outbox, people: People, changes: Changes, marks: LobbyMarks,
                 presence: Presence, play: Play, seating: Seating, broadcast: Broadcast) -> None:
        self.out = out
        self.people = people
        self.changes = changes
        self.marks = marks
        self.presence = presence
        self.play = play
        self.seating = seating
        self.broadcast = broadcast

    def connect(self, conn_id: int, identity: bytes, name: str, address: str = "") -> None:
        """An authenticated connection joins; an older one with the same identity is closed.
        It receives the lobby and, if its identity holds a seat, that table's view."""
        old = self.people.conn_of(identity)
        if old is not None:
            self.seating.forget(old)
            self.out.emit(Close(old.id, "replaced", "You connected again from elsewhere."))
        reclaimed = self.seating.reclaim(identity)
        here = self.people.where(identity)
        # a seated player keeps the name the table knows, a player with a name bound to its key
        # that name; anyone else gets a name no one else on this host has ("pi", "pi (2)")
        name = (here[0].seats[here[1]].name if here is not None
                else self.people.name_for(clean_name(name), identity))
        conn = Conn(conn_id, identity, name, address)
        self.people.add(conn)
        if here is not None and reclaimed is not here[0] and here[0].status == "playing" and (
                here[0].seats[here[1]].absent_auto or here[1] in here[0].away_until):
            seat = here[0].seats[here[1]]
            seat.absent = seat.absent_auto = False
            if self.presence.seat_back(here[0], here[1]):
                self.play.advance(here[0])
            else:  # (past its presence budget: no step, no frame of its own)
                self.presence.watch_waiting(here[0])
        if here is not None and here[0].deserted:  # someone is back: the game goes on
            self.play.advance(here[0])
        self.marks.changed(here[0] if here else None, reclaimed)
        self.broadcast.sync(conn)
        if here is not None:
            self.changes.resync(here[0], here[1])
            self.send_kept_chat(conn, here[0])
        self.send_missed_end(conn)
        self.out.flush()

    def send_kept_chat(self, conn: Conn, table: Table) -> None:
        """A player back at a table still seating gets its chat so far (at a playing table the
        kept chat rides in their full frame, :func:`host.render.frames`)."""
        if table.status == "open":
            for line in table.chat_kept:
                self.out.emit(Send(conn.id, {"type": "chat", **line}))

    def send_missed_end(self, conn: Conn) -> None:
        """``conn``'s player was away when a game of theirs ended: its final view + reveal
        with the next tick."""
        for table in list(self.play.tables.values()):
            if conn.identity in table.missed_end:
                table.missed_end.discard(conn.identity)
                seat = table.seat_of(conn.identity)
                if seat is not None:
                    self.changes.resync(table, seat)
                    self.changes.of(table).reveal_to.add(seat)

    def disconnect(self, conn_id: int, host_stopping: bool = False) -> None:
        """A connection went away (its seat stays bound to its identity; at a playing table a
        :class:`SeatDisconnected` effect starts the grace period before it counts as absent,
        and the table reads that its player is lost). ``host_stopping``: the host itself is
        going down — nothing is logged or journaled for the seat (a restarted host counts its
        players back in, :mod:`host.resume`)."""
        conn = self.people.conns.get(conn_id)
        if conn is not None:
            self.seating.forget(conn)
            here = self.people.where(conn.identity)
            if here is not None and here[0].status == "playing" and not host_stopping:
                self.out.emit(SeatDisconnected(here[0].id, here[1]))
                if self.presence.seat_lost(here[0], here[1], reconnecting=not conn.said_bye):
                    self.play.advance(here[0])
            self.marks.changed(here[0] if here else None)
        self.out.flush()
