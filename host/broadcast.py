"""The lobby broadcast (part of the sans-I/O core): every table's lobby entry, packed once per
change, sent as coalesced deltas.

Rules kept here:
* lobby updates are coalesced deltas (:meth:`Broadcast.tick`, at most a few a second in the
  host) of the tables marked since the last one (:mod:`host.marks`); ``batched=True`` (the host)
  leaves the tick to the shell, otherwise (tests, tools) every call ends with it;
* they go only to connections not playing — or playing but looking at the lobby
  (:meth:`Broadcast.look`) — so nothing a player at a table does is multiplied to everyone;
* a connection that changed where it sits hears its own ``you`` at once (a reply to its own
  request, :meth:`Broadcast.answer_you`);
* a lobby is cut into frames of at most :data:`protocol.traffic.LOBBY_CHUNK` tables and
  :data:`LOBBY_BYTES` bytes of entries (:func:`chunks`): an entry's size grows with its seats
  (and their players' ratings), and no frame may pass the 64 KiB cap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.conn import Conn
from host.core import LobbyChanged, Outbox, Send
from host.marks import LobbyMarks
from host.people import People
from host.table import Table
from host.watchers import Watchers
from protocol import traffic

_LOBBY = traffic.packed("lobby")
_DELTA = traffic.packed("lobby_delta")
LOBBY_BYTES = 48 * 1024  # packed table entries per lobby frame, at most (the cap is 64 KiB)


def chunks(entries: list[bytes]) -> list[list[bytes]]:
    """Packed lobby entries in order, cut into frames' worth: at most ``LOBBY_CHUNK`` tables
    and :data:`LOBBY_BYTES` bytes each (an entry longer than that alone in its frame); at
    least one, empty if there are none."""
    out: list[list[bytes]] = [[]]
    size = 0
    for entry in entries:
        if out[-1] and (len(out[-1]) >= traffic.LOBBY_CHUNK or size + len(entry) > LOBBY_BYTES):
            out.append([])
            size = 0
        out[-1].append(entry)
        size += len(entry)
    return out


class Broadcast:
    """What each connection was last told of the lobby (kept on its :class:`host.conn.Conn`),
    and the lobby entries and updates it is sent."""

    def __init__(self, out: Outbox, tables: dict[int, Table], people: People,
                 marks: LobbyMarks, watchers: Watchers, clock: Callable[[], float],
                 host_open: bool = False) -> None:
        self.out = out
        self.tables = tables  # the registry's (read only here)
        self.people = people
        self.marks = marks
        self.watchers = watchers
        self.clock = clock
        self.host_open = host_open
        # adds each seat's player and rating to an entry (the club's ratings, host.club.board)
        self.rated: Callable[[Table, list[dict[str, Any]]], None] | None = None

    # -- entries -----------------------------------------------------------------------------
    def info(self, table: Table) -> dict[str, Any]:
        """``table`` as the lobby lists it."""
        info = self.watchers.info(table, table.info(self.people.connected(table), self.clock()))
        if self.rated is not None:
            self.rated(table, info["seats"])
        return info

    def tables_info(self) -> list[dict[str, Any]]:
        """Every table as the lobby lists it, by id."""
        return [self.info(t) for t in self.tables.values()]

    def _packed_info(self, table: Table) -> bytes:
        data = self.marks.entries.get(table.id)
        if data is None:
            data = self.marks.entries[table.id] = traffic.packed(self.info(table))
        return data

    def you(self, conn: Conn) -> dict[str, Any]:
        """Where ``conn``'s player is: its name, table and seat, what it watches."""
        here = self.people.where(conn.identity)
        you = {"name": conn.name, "table": here[0].id if here else None,
               "seat": here[1] if here else None, "open": self.host_open}
        watching = self.watchers.watching(conn)
        if watching is not None:
            you["watching"] = watching
        return you

    # -- sending -----------------------------------------------------------------------------
    def look(self, conn: Conn, on: bool) -> None:
        """``conn``'s player has the lobby on screen (``on``) or not. A player at a playing
        table is sent no lobby updates, except while looking: then, from the next coalesced
        update on, the whole lobby once and its changes (to that connection alone, at most a
        few frames a second however often it flips)."""
        conn.looking = on
        if on:
            self.marks.changed()

    def sync(self, conn: Conn) -> None:
        """Send ``conn`` the whole lobby now (it then follows the deltas)."""
        parts = [self._array(c) for c in chunks([self._packed_info(t)
                                                 for t in self.tables.values()])]
        conn.synced, conn.you_sent = True, self.you(conn)
        self.out.emit(Send(conn.id, data=self._frame(
            [("type", _LOBBY), ("tables", parts[0]), ("you", traffic.packed(conn.you_sent))])))
        for chunk in parts[1:]:
            self.out.emit(Send(conn.id, data=self._frame(
                [("type", _DELTA), ("tables", chunk), ("removed", traffic.packed([]))])))

    def answer_you(self, conn: Conn) -> None:
        """``conn`` changed where it sits: tell it at once (a reply to its own request, so
        nothing is multiplied), with the entry of the table it is at."""
        you = self.you(conn)
        if you == conn.you_sent or conn.id not in self.people.conns:
            return
        conn.you_sent = you
        table = self.tables.get(you["table"]) if you["table"] is not None else None
        tables = self._array([self._packed_info(table)] if table else [])
        self.out.emit(Send(conn.id, data=self._frame(
            [("type", _DELTA), ("tables", tables), ("removed", traffic.packed([])),
             ("you", traffic.packed(you))])))

    def tick(self) -> None:
        """Send the lobby changes marked since the last call, coalesced: the changed tables
        and removed ids to every connection in the lobby (not playing, or looking at it:
        :meth:`look`), the whole lobby to one just back in it, and ``you`` to whoever's
        changed. The shell calls this at most a few times a second, so no client's input is
        multiplied to everyone."""
        due = self.marks.take()
        if due is None:
            return
        self.out.emit(LobbyChanged())
        dirty, removed = due
        parts = ([self._array(c) for c in chunks([self._packed_info(t) for t in dirty])]
                 if dirty else [])
        removed_b = traffic.packed(removed[-1000:])
        empty = traffic.packed([])
        shared = [self._frame([("type", _DELTA), ("tables", c), ("removed", removed_b)])
                  for c in parts[1:]]
        for conn in list(self.people.conns.values()):
            you = self.you(conn)
            here = self.people.where(conn.identity)
            if here is not None and here[0].status == "playing" and not conn.looking:
                conn.synced = False
                if you != conn.you_sent:
                    conn.you_sent = you
                    self.out.emit(Send(conn.id, data=self._frame(
                        [("type", _DELTA), ("tables", empty), ("removed", empty),
                         ("you", traffic.packed(you))])))
                continue
            if not conn.synced:
                self.sync(conn)
                continue
            if not parts and not removed and you == conn.you_sent:
                continue
            frame = [("type", _DELTA), ("tables", parts[0] if parts else empty),
                     ("removed", removed_b)]
            if you != conn.you_sent:
                conn.you_sent = you
                frame.append(("you", traffic.packed(you)))
            self.out.emit(Send(conn.id, data=self._frame(frame)))
            for data in shared:
                self.out.emit(Send(conn.id, data=data))

    @staticmethod
    def _frame(parts: list[tuple[str, bytes]]) -> bytes:
        payload = bytes([0x80 | len(parts)]) + traffic.body_of(parts)
        return len(payload).to_bytes(4, "big") + payload

    @staticmethod
    def _array(items: list[bytes]) -> bytes:
        n = len(items)
        head = bytes([0x90 | n]) if n < 16 else b"\xdc" + n.to_bytes(2, "big")
        return head + b"".join(items)
