"""The sans-I/O core of a host: connections, tables, seats, actions, timers, bots.

Every public method either returns a plain value or raises :class:`~host.core.LobbyError`
(nothing changed); everything it wants done (send a message, start a timer, let a bot think, …)
goes to ``listener(effects)`` as :mod:`host.core` effects, once per call. No sockets, no clock:
tests drive it directly.

Rules kept here:
* a seat is bound to its player's identity key; that player reconnecting (same key) gets the
  seat back; a second connection with the same key replaces the first;
* after every change of a table every connected human seat of it receives one frame with its
  own view (with its legal actions), all of one padded length (the traffic rule,
  :mod:`protocol.traffic`; frames are made by :meth:`Lobby.tick`, :mod:`host.render`);
  ``act`` must quote a ``state_id`` from which the seat's choice (its
  legal actions and the engine's deadline key) is unchanged — normally the current one — else
  ``stale`` (so two players answering one reaction window at once are both accepted);
* seats marked absent are answered for by the engine's absent default whenever waited on;
  only the host (:meth:`Lobby.add_bot` from its own code) may give an absent seat to a bot, which
  keeps it for its player: the player's return (connect or sit) takes it back;
* names are unique per host: a second "pi" is "pi (2)" in the lobby, chat, seats and logs; a
  player holding a seat keeps the name the table knows;
* griefing limits: per player at most ``max_open_tables_per_player`` open tables and
  ``max_tables_created_per_player`` creations an hour; an open table created over the network
  that nobody sits at expires after ``table_expiry`` seconds (:meth:`Lobby.expire_tables`);
* options are checked against the game's declared table (:mod:`hexnet.options`): a ``create``
  from the network may not stack a position (``local_only``); the host's own code may;
* host-side bots: a :class:`~host.core.BotTurn` effect, then :meth:`Lobby.bot_turn`;
* fairness (issue 6): :meth:`Lobby.start` draws seed and salt (:func:`hexnet.fairness.new_seed`);
  every view carries the commitment, and at the end every seated human gets the ``reveal``
  parts (:mod:`host.fairplay`) — one who is away then gets the final view and the reveal when
  they reconnect;
* journal hooks: ``TableStarted`` (with seed, salt and seats), ``Accepted`` and ``TableOver``
  effects, in that order and before the frames they cause (those come from :meth:`tick`);
  ``SeatsChanged`` (a playing table's seats changed) and ``SeatingChanged`` (the tables still
  seating) as every change is made — never coalesced; :meth:`Lobby.resume_table` takes back a
  table rebuilt from its journal after a restart (:mod:`host.recovery`), and
  :meth:`Lobby.restore_seating` the tables that were still seating;
* lobby updates are coalesced deltas (:meth:`Lobby.lobby_tick`) sent only to connections not
  playing; ``batched=True`` (the host) leaves :meth:`tick` and :meth:`lobby_tick` to the
  shell, otherwise (tests, tools) every call ends with both;
* a refusal of a request about the table a player is playing at (``add_bot``, ``start``,
  ``sit``; ``act`` and table chat likewise) rides in that table's frames like any reply, never
  as a frame of its own (the traffic rule); refusals of lobby requests (``create``, another
  table) are lobby ``error`` frames, which concern public things only.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hexnet.fairness import new_seed
from hexnet.games import get_game, get_policy
from hexnet.options import OptionError, check_options, with_pace
from host.core import (
    CancelTimer,
    Close,
    Effect,
    LobbyChanged,
    LobbyDue,
    LobbyError,
    SeatDisconnected,
    SeatingChanged,
    SeatsChanged,
    Send,
    SetTimer,
    TableStarted,
    clean_name,
    unique_name,
)
from host.limits import TokenBucket
from host.playing import PlayMixin
from host.presence import PresenceMixin
from host.render import Change
from host.table import Seat, Table
from host.watchers import WatchBook, WatchMixin, split_options
from protocol import traffic

# unfinished tables one host holds (``hexnet bench --tables 500``: 500 tables / 2000 clients
# stay within the latency target on one core), and tables the lobby lists (finished ones are
# dropped, oldest first, past it)
MAX_TABLES = 500
_LOBBY = traffic.packed("lobby")
_DELTA = traffic.packed("lobby_delta")
TABLE_EXPIRY = 600.0  # seconds an open table nobody sits at is kept
MAX_OPEN_TABLES_PER_PLAYER = 3  # open tables one identity may have created at a time
MAX_TABLES_CREATED_PER_PLAYER = 20  # tables one identity may create per CREATE_WINDOW
CREATE_WINDOW = 3600.0


@dataclass
class Conn:
    """An authenticated connection. ``synced``: it holds the full lobby and follows its
    deltas; ``you_sent``: the ``you`` it was last sent."""

    id: int
    identity: bytes
    name: str
    address: str = ""
    synced: bool = False
    you_sent: dict[str, Any] | None = None
    said_bye: bool = False  # its client is closing on purpose (a ``bye``)
    looking: bool = False  # its player, seated at a playing table, has the lobby on screen
    chat_budget: TokenBucket | None = None  # chat lines it may send (host.playing.CHAT_BURST)
    chat_refusals: TokenBucket | None = None  # "too fast" answers at a playing table
    refusals: TokenBucket | None = None  # refused actions answered in a frame to every seat


class Lobby(PresenceMixin, PlayMixin, WatchMixin):
    """All tables and connected players of one host."""

    def __init__(self, listener: Callable[[list[Effect]], None] | None = None,
                 host_open: bool = False, games: list[str] | None = None,
                 seed_source: Callable[[], int | bytes] | None = None, batched: bool = False,
                 *, table_expiry: float = TABLE_EXPIRY,
                 max_open_tables_per_player: int = MAX_OPEN_TABLES_PER_PLAYER,
                 max_tables_created_per_player: int = MAX_TABLES_CREATED_PER_PLAYER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.listener = listener or (lambda effects: None)
        self.host_open = host_open
        self.games = games
        self.tables: dict[int, Table] = {}
        self.conns: dict[int, Conn] = {}
        self.by_identity: dict[bytes, Conn] = {}
        self.seated: dict[bytes, int] = {}  # identity → the table it last sat at
        self.batched = batched
        self._next_table = 1
        self._seed = seed_source or (lambda: new_seed()[0])
        self.table_expiry = table_expiry
        self.max_open_tables_per_player = max_open_tables_per_player
        self.max_tables_created_per_player = max_tables_created_per_player
        self.clock = clock
        self._created: dict[bytes, deque[float]] = {}  # identity → when it created tables
        self._seat_records: dict[int, list[dict[str, Any]]] = {}  # playing table → last seats
        self._seating: dict[int, dict[str, Any]] | None = None  # tables seating, as reported
        # indexes, so a host of hundreds of tables does not scan them all per connection:
        # names in use (case-folded; connections and human seats, and bots' seats: a superset,
        # see _unique_name), each table's seat names as last noted, and identity → the table
        # where a bot keeps that player's seat
        self._human_names: Counter[str] = Counter()
        self._bot_names: Counter[str] = Counter()
        self._table_names: dict[int, tuple[list[str], list[str]]] = {}
        self._stand_ins: dict[bytes, int] = {}
        self._out: list[Effect] = []
        self._changes: dict[int, Change] = {}
        self._lobby_dirty: set[int] = set()
        self._lobby_removed: set[int] = set()
        self._lobby_pending = False
        self._info: dict[int, bytes] = {}  # table id → its packed lobby entry
        self.watch = WatchBook()  # watchers and each table's watching rules (host/watchers.py)

    # -- plumbing ------------------------------------------------------------------------
    def _flush(self) -> None:
        """Hand the effects gathered so far to the listener. Unbatched (tests, tools) the
        frames and lobby updates due are made first, so each call is one change; batched
        (the host) the shell calls :meth:`tick` and :meth:`lobby_tick` itself."""
        if not self.batched:
            self.tick()
            self.lobby_tick()
        out, self._out = self._out, []
        if out:
            self.listener(out)

    def _emit(self, effect: Effect) -> None:
        self._out.append(effect)

    def _table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError("no_table", f"There is no table {table_id}.")
        return table

    def _conn_of(self, identity: bytes | None) -> Conn | None:
        return None if identity is None else self.by_identity.get(identity)

    def where(self, identity: bytes) -> tuple[Table, int] | None:
        """The (table, seat) ``identity`` holds at a table that is not over, or None."""
        tid = self.seated.get(identity)
        table = self.tables.get(tid) if tid is not None else None
        if table is None or table.status == "over":
            return None
        seat = table.seat_of(identity)
        return (table, seat) if seat is not None else None

    def holds_seat(self, identity: bytes) -> bool:
        """Whether ``identity`` holds a seat, or a bot keeps one for it (it may then resume
        without the room code)."""
        return self.where(identity) is not None or self._stand_in(identity) is not None

    def _stand_in(self, identity: bytes) -> Table | None:
        """The playing table where a bot keeps ``identity``'s seat, or None."""
        table = self.tables.get(self._stand_ins.get(identity, 0))
        if table is None or table.reserved_seat(identity) is None:
            self._stand_ins.pop(identity, None)
            return None
        return table

    def _reclaim(self, identity: bytes, only: Table | None = None) -> Table | None:
        """A player returns: a bot standing in for them gives their seat back (a seat they
        took meanwhile at a table still seating is freed; while they play at another table —
        one a tournament seated them at — the bot keeps standing in: one seat per player)."""
        table = self._stand_in(identity)
        here = self.where(identity)
        if here is not None and here[0] is not table and here[0].status == "playing":
            return None  # one seat per player: the bot stands in until that table is over
        if table is not None and (only is None or only is table):
            seat = table.reserved_seat(identity)
            assert seat is not None
            del self._stand_ins[identity]
            if here is not None and here[0] is not table and here[0].status == "open":
                here[0].seats[here[1]].clear()
                self._lobby_changed(here[0])
            s = table.seats[seat]
            s.kind, s.identity, s.policy, s.reserved = "human", identity, None, None
            s.absent = s.absent_auto = False
            self.seated[identity] = table.id
            self._seat_back(table, seat)
            self._advance(table)
            return table
        return None

    def _note_bots(self, table: Table) -> None:
        """Index the bots of ``table`` that keep a player's seat."""
        for s in table.seats:
            if s.kind == "bot" and s.reserved is not None:
                self._stand_ins[s.reserved] = table.id

    def _unique_name(self, wanted: str, identity: bytes | None,
                     table: Table | None = None) -> str:
        """``wanted`` made unique on this host: against every other connected player and every
        seat at a table that is not over (for a bot: against humans and its own table)."""
        key = wanted.casefold()
        if not self._human_names[key] and not (
                self._bot_names[key] if identity is not None
                else table is not None and any(s.kind == "bot" and s.name.casefold() == key
                                               for s in table.seats)):
            return wanted  # nobody uses it (the indexes hold every name in use, and more)
        taken = {c.name.casefold() for c in self.conns.values() if c.identity != identity}
        for t in self.tables.values():
            if t.status == "over":
                continue
            for s in t.seats:
                if (s.kind == "human" and (s.identity != identity or identity is None)) or (
                        s.kind == "bot" and (identity is not None or t is table)):
                    taken.add(s.name.casefold())
        return unique_name(wanted, taken)

    def open_seats(self) -> int:
        """Empty seats at tables still seating (mDNS TXT)."""
        return sum(t.open_seats() for t in self.tables.values())

    # -- lobby messages ------------------------------------------------------------------
    def tables_info(self) -> list[dict[str, Any]]:
        """Every table as the lobby lists it, by id."""
        return [self.watch_info(t, t.info(self._connected(t), self.clock()))
                for t in self.tables.values()]

    def _packed_info(self, table: Table) -> bytes:
        data = self._info.get(table.id)
        if data is None:
            data = self._info[table.id] = traffic.packed(
                self.watch_info(table, table.info(self._connected(table), self.clock())))
        return data

    def _you(self, conn: Conn) -> dict[str, Any]:
        here = self.where(conn.identity)
        you = {"name": conn.name, "table": here[0].id if here else None,
               "seat": here[1] if here else None, "open": self.host_open}
        watching = self.watching(conn)
        if watching is not None:  # host/watchers.py
            you["watching"] = watching
        return you

    def look(self, conn: Conn, on: bool) -> None:
        """``conn``'s player has the lobby on screen (``on``) or not. A player at a playing
        table is sent no lobby updates, except while looking: then, from the next coalesced
        update on, the whole lobby once and its changes (to that connection alone, at most a
        few frames a second however often it flips)."""
        conn.looking = on
        if on:
            self._lobby_changed()

    def _sync_lobby(self, conn: Conn) -> None:
        """Send ``conn`` the whole lobby now (it then follows the deltas)."""
        everything = [self._packed_info(t) for t in self.tables.values()]
        chunks = [self._array(everything[i:i + traffic.LOBBY_CHUNK])
                  for i in range(0, max(1, len(everything)), traffic.LOBBY_CHUNK)]
        conn.synced, conn.you_sent = True, self._you(conn)
        self._emit(Send(conn.id, data=self._frame(
            [("type", _LOBBY), ("tables", chunks[0]), ("you", traffic.packed(conn.you_sent))])))
        for chunk in chunks[1:]:
            self._emit(Send(conn.id, data=self._frame(
                [("type", _DELTA), ("tables", chunk), ("removed", traffic.packed([]))])))

    def _answer_you(self, conn: Conn) -> None:
        """``conn`` changed where it sits: tell it at once (a reply to its own request, so
        nothing is multiplied), with the entry of the table it is at."""
        you = self._you(conn)
        if you == conn.you_sent or conn.id not in self.conns:
            return
        conn.you_sent = you
        table = self.tables.get(you["table"]) if you["table"] is not None else None
        tables = self._array([self._packed_info(table)] if table else [])
        self._emit(Send(conn.id, data=self._frame(
            [("type", _DELTA), ("tables", tables), ("removed", traffic.packed([])),
             ("you", traffic.packed(you))])))

    def _note_seating(self, tables: tuple[Table | None, ...]) -> None:
        """Journal hooks for seating, as each change is made (not coalesced): a playing
        table's seats that changed (:class:`SeatsChanged`), the tables still seating
        (:class:`SeatingChanged`, all of them, when one of them changed or went); and the time
        since when an open table has nobody seated (for :meth:`expire_tables`). Only the
        ``tables`` just changed are looked at (a host holds hundreds)."""
        now = self.clock()
        seating_changed = self._seating is None
        if self._seating is None:
            self._seating = {}
        for table in tables:
            if table is None:
                continue
            tid = table.id
            self._index_names(tid, table if self.tables.get(tid) is table else None)
            if self.tables.get(tid) is not table:  # removed
                seating_changed |= self._seating.pop(tid, None) is not None
                self._seat_records.pop(tid, None)
                continue
            if table.status == "open":
                if any(s.kind == "human" for s in table.seats):
                    table.idle_since = None
                elif table.idle_since is None:
                    table.idle_since = now
                record = self.watch_record(table, table.seating_record())
                if self._seating.get(tid) != record:
                    self._seating[tid] = record
                    seating_changed = True
            else:
                seating_changed |= self._seating.pop(tid, None) is not None
            if table.status == "playing":
                records = [s.record() for s in table.seats]
                if tid in self._seat_records and self._seat_records[tid] != records:
                    self._emit(SeatsChanged(tid, records))
                self._seat_records[tid] = records
            else:
                self._seat_records.pop(tid, None)
        if seating_changed:
            self._emit(SeatingChanged(list(self._seating.values())))

    def _index_names(self, tid: int, table: Table | None) -> None:
        """Keep the names index of table ``tid`` (None: it is gone) as its seats are now."""
        humans, bots = self._table_names.pop(tid, ([], []))
        self._human_names.subtract(humans)
        self._bot_names.subtract(bots)
        if table is not None:
            humans = [s.name.casefold() for s in table.seats if s.kind == "human"]
            bots = [s.name.casefold() for s in table.seats if s.kind == "bot"]
            self._table_names[tid] = (humans, bots)
            self._human_names.update(humans)
            self._bot_names.update(bots)
        for counter in (self._human_names, self._bot_names):
            for name in [n for n in humans + bots if counter[n] <= 0]:
                del counter[name]

    def _lobby_changed(self, *tables: Table | None) -> None:
        """Mark tables (none: only someone's ``you``) for the next coalesced lobby update,
        after noting their seating for the journal (:meth:`_note_seating`, at once)."""
        self._note_seating(tables)
        for table in tables:
            if table is not None:
                self._lobby_dirty.add(table.id)
                self._info.pop(table.id, None)
        if not self._lobby_pending:
            self._lobby_pending = True
            self._emit(LobbyDue())

    @staticmethod
    def _frame(parts: list[tuple[str, bytes]]) -> bytes:
        payload = bytes([0x80 | len(parts)]) + traffic.body_of(parts)
        return len(payload).to_bytes(4, "big") + payload

    @staticmethod
    def _array(items: list[bytes]) -> bytes:
        n = len(items)
        head = bytes([0x90 | n]) if n < 16 else b"\xdc" + n.to_bytes(2, "big")
        return head + b"".join(items)

    def send_due(self) -> None:
        """(The batched host, once per loop tick) every table's frames due, then flush."""
        self.tick()
        self._flush()

    def send_lobby(self) -> None:
        """(The batched host, a few times a second) the coalesced lobby update, then flush."""
        self.lobby_tick()
        self._flush()

    def lobby_tick(self) -> None:
        """Send the lobby changes gathered since the last call, coalesced: the changed tables
        and removed ids to every connection in the lobby (not playing, or looking at it:
        :meth:`look`), the whole lobby to one just back in it, and ``you`` to whoever's
        changed. The shell calls this at most a few times a second, so no client's input is
        multiplied to everyone."""
        if not self._lobby_pending:
            return
        self._lobby_pending = False
        self._emit(LobbyChanged())
        dirty = [self.tables[t] for t in sorted(self._lobby_dirty) if t in self.tables]
        removed = sorted(t for t in self._lobby_removed if t not in self.tables)
        self._lobby_dirty, self._lobby_removed = set(), set()
        chunks = [self._array([self._packed_info(t) for t in dirty[i:i + traffic.LOBBY_CHUNK]])
                  for i in range(0, len(dirty), traffic.LOBBY_CHUNK)]
        removed_b = traffic.packed(removed[-1000:])
        empty = traffic.packed([])
        shared = [self._frame([("type", _DELTA), ("tables", c), ("removed", removed_b)])
                  for c in chunks[1:]]
        for conn in list(self.conns.values()):
            you = self._you(conn)
            here = self.where(conn.identity)
            if here is not None and here[0].status == "playing" and not conn.looking:
                conn.synced = False
                if you != conn.you_sent:
                    conn.you_sent = you
                    self._emit(Send(conn.id, data=self._frame(
                        [("type", _DELTA), ("tables", empty), ("removed", empty),
                         ("you", traffic.packed(you))])))
                continue
            if not conn.synced:
                self._sync_lobby(conn)
                continue
            if not chunks and not removed and you == conn.you_sent:
                continue
            parts = [("type", _DELTA), ("tables", chunks[0] if chunks else empty),
                     ("removed", removed_b)]
            if you != conn.you_sent:
                conn.you_sent = you
                parts.append(("you", traffic.packed(you)))
            self._emit(Send(conn.id, data=self._frame(parts)))
            for data in shared:
                self._emit(Send(conn.id, data=data))

    # -- connections ---------------------------------------------------------------------
    def connect(self, conn_id: int, identity: bytes, name: str, address: str = "") -> None:
        """An authenticated connection joins; an older one with the same identity is closed.
        It receives the lobby and, if its identity holds a seat, that table's view."""
        old = self._conn_of(identity)
        if old is not None:
            self._forget_conn(old)
            self._emit(Close(old.id, "replaced", "You connected again from elsewhere."))
        reclaimed = self._reclaim(identity)
        here = self.where(identity)
        # a seated player keeps the name the table knows; anyone else gets a name no one else
        # on this host has ("pi", then "pi (2)")
        name = (here[0].seats[here[1]].name if here is not None
                else self._unique_name(clean_name(name), identity))
        conn = Conn(conn_id, identity, name, address)
        self.conns[conn_id] = conn
        self.by_identity[identity] = conn
        self._human_names[name.casefold()] += 1
        if here is not None and reclaimed is not here[0] and here[0].status == "playing" and (
                here[0].seats[here[1]].absent_auto or here[1] in here[0].away_until):
            seat = here[0].seats[here[1]]
            seat.absent = seat.absent_auto = False
            self._seat_back(here[0], here[1])
            self._advance(here[0])
        self._lobby_changed(here[0] if here else None, reclaimed)
        self._sync_lobby(conn)
        if here is not None:
            self._resync(here[0], here[1])
            self._send_kept_chat(conn, here[0])
        self._send_missed_end(conn)
        self._flush()

    def disconnect(self, conn_id: int, host_stopping: bool = False) -> None:
        """A connection went away (its seat stays bound to its identity; at a playing table a
        :class:`SeatDisconnected` effect starts the grace period before it counts as absent,
        and the table reads that its player is lost). ``host_stopping``: the host itself is
        going down — nothing is logged or journaled for the seat (a restarted host counts its
        players back in, :meth:`resume_table`)."""
        conn = self.conns.get(conn_id)
        if conn is not None:
            self._forget_conn(conn)
            here = self.where(conn.identity)
            if here is not None and here[0].status == "playing" and not host_stopping:
                self._emit(SeatDisconnected(here[0].id, here[1]))
                self._seat_lost(here[0], here[1], reconnecting=not conn.said_bye)
                self._advance(here[0])
            self._lobby_changed(here[0] if here else None)
        self._flush()

    def _forget_conn(self, conn: Conn) -> None:
        """``conn`` is gone (closed, replaced or kicked)."""
        del self.conns[conn.id]
        self.forget_watcher(conn.id)
        if self.by_identity.get(conn.identity) is conn:
            del self.by_identity[conn.identity]
        key = conn.name.casefold()
        self._human_names[key] -= 1
        if self._human_names[key] <= 0:
            del self._human_names[key]

    def absent_if_gone(self, table_id: int, seat: int) -> None:
        """The grace period of a disconnected seat ended: if its player is still away, the seat
        counts as absent until they reconnect."""
        table = self.tables.get(table_id)
        if table is None or table.status != "playing" or not 0 <= seat < len(table.seats):
            return
        s = table.seats[seat]
        if s.kind != "human" or s.absent or self._conn_of(s.identity) is not None:
            return
        s.absent = s.absent_auto = True
        table.away_until.pop(seat, None)
        table.reconnecting_until.pop(seat, None)
        self._presence(table, seat, "absent")
        self._lobby_changed(table)
        self._advance(table)
        self._flush()

    def handle(self, conn_id: int, msg: dict[str, Any]) -> None:
        """One validated message from an authenticated connection. Refusals become an
        ``error`` (or ``rejected`` for ``act``) to that connection only; nothing changes."""
        conn = self.conns.get(conn_id)
        if conn is None:
            return
        kind = msg["type"]
        try:
            if kind == "create":
                self.create_table(msg["game"], msg["seats"], msg["options"], creator=conn)
            elif kind == "sit":
                self.sit(conn, msg["table"], msg["seat"])
            elif kind == "leave":
                self.leave(conn)
            elif kind == "bye":
                conn.said_bye = True
            elif kind == "add_bot":
                self._require_seated_or_open(conn, msg["table"])
                self.add_bot(msg["table"], msg["seat"], msg["policy"], by_host=False)
            elif kind == "start":
                self._require_seated_or_open(conn, msg["table"])
                self.start(msg["table"])
            elif kind == "act":
                self._act(conn, msg)
            elif kind == "chat":
                self._chat(conn, msg["text"], msg["channel"])
            elif kind == "cover":
                self._cover(conn, msg)
            elif kind == "watch":
                self.watch_table(conn, msg["table"])
            elif kind == "unwatch":
                self.unwatch(conn)
            elif kind == "look":
                self.look(conn, msg["on"])
            elif kind == "watch_rules":
                self.set_watch_rules(msg["table"], msg["allowed"], msg.get("delay"), by=conn)
            elif kind == "ping":
                self._emit(Send(conn_id, {"type": "pong", "t": msg["t"]}))
            else:
                raise LobbyError("unexpected", f"A {kind!r} message is not expected now.")
        except LobbyError as exc:
            self._refuse(conn, msg, exc)
        if kind in ("create", "sit", "leave", "start", "watch", "unwatch"):
            self._answer_you(conn)
        self._flush()

    def _refuse(self, conn: Conn, msg: dict[str, Any], exc: LobbyError) -> None:
        """Refuse ``msg``: an ``error`` to ``conn`` — inside the table's next frames if the
        request is about the table its player is playing at (``add_bot``, ``start``, ``sit``:
        a seated player's table-level refusals are never a frame of their own, the traffic
        rule of :mod:`protocol.traffic`)."""
        error = {"code": exc.code, "message": exc.message}
        here = self.where(conn.identity) if msg["type"] in ("add_bot", "start", "sit") else None
        if here is not None and here[0].status == "playing" and here[0].id == msg["table"]:
            self._reply(here[0], here[1], error=error)
            return
        self._emit(Send(conn.id, {"type": "error", **error}))

    def _require_seated_or_open(self, conn: Conn, table_id: int) -> None:
        table = self._table(table_id)
        if table.seat_of(conn.identity) is None:
            raise LobbyError("not_seated", f"Only players at table {table_id} may do that.")

    # -- tables and seats ----------------------------------------------------------------
    def create_table(self, game: str, seats: int, options: dict[str, Any] | None = None,
                     creator: Conn | None = None, seed: int | None = None) -> int:
        """A new open table of ``game`` with ``seats`` empty seats; its id. A ``creator``
        connection is seated at seat 0 (moving from an open table if needed)."""
        if self.games is not None and game not in self.games:
            raise LobbyError("unknown_game", f"This host has no game {game!r}.")
        try:
            engine = get_game(game)
        except (KeyError, ModuleNotFoundError) as exc:
            raise LobbyError("unknown_game", f"This host has no game {game!r}.") from exc
        if not engine.min_players <= seats <= engine.max_players:
            raise LobbyError("bad_seats", f"{engine.title or game} takes "
                             f"{engine.min_players}–{engine.max_players} players, not {seats}.")
        options, watch_rules = split_options(options, local=creator is None)
        try:  # the host's own code (no creator) may stack a table; the network may not
            options = with_pace(engine, check_options(engine, options, local=creator is None))
        except OptionError as exc:
            raise LobbyError(exc.code, exc.message) from exc
        if creator is not None:
            self._check_can_move(creator)
            self._check_creator_caps(creator.identity)
        self.expire_tables()
        open_tables = [t for t in self.tables.values() if t.status != "over"]
        if len(open_tables) >= MAX_TABLES:
            raise LobbyError("too_many_tables", "This host has as many tables as it can show.")
        over = [tid for tid, t in self.tables.items() if t.status == "over"]
        while len(self.tables) >= MAX_TABLES and over:
            self._drop_table(over.pop(0))
        table = Table(self._next_table, game, engine, [Seat() for _ in range(seats)],
                      dict(options or {}))
        if seed is not None:
            table.seed = seed
        self._next_table += 1
        self.tables[table.id] = table
        self.watch.rules[table.id] = watch_rules
        if creator is not None:
            table.creator = creator.identity
            self._created.setdefault(creator.identity, deque()).append(self.clock())
            self._seat_human(creator, table, 0)
        self._lobby_changed(table)
        self._flush()
        return table.id

    def _check_creator_caps(self, identity: bytes) -> None:
        """One player may have only so many open tables, and create only so many an hour: one
        client cannot fill the host (``too_many_tables`` for everyone else)."""
        mine = sum(1 for t in self.tables.values()
                   if t.status == "open" and t.creator == identity)
        if mine >= self.max_open_tables_per_player:
            raise LobbyError("too_many_tables", f"You have {mine} open tables already; sit at "
                             "one of them, or wait until one starts or expires.")
        now = self.clock()
        recent = self._created.get(identity, deque())
        while recent and now - recent[0] >= CREATE_WINDOW:
            recent.popleft()
        if len(recent) >= self.max_tables_created_per_player:
            wait = int(CREATE_WINDOW - (now - recent[0])) // 60 + 1
            raise LobbyError("too_many_tables", f"You created {len(recent)} tables within an "
                             f"hour; you may create another in {wait} min.")
        if not recent:
            self._created.pop(identity, None)
        while len(self._created) > 4096:  # bounded memory: forget the oldest creators
            self._created.pop(next(iter(self._created)))

    def expire_tables(self) -> list[int]:
        """Remove the open tables created over the network that nobody has sat at for
        ``table_expiry`` seconds (tables the host made itself stay); their ids. The shell calls
        this now and then, and every ``create`` does."""
        now = self.clock()
        gone = [t.id for t in self.tables.values()
                if t.status == "open" and t.creator is not None and t.idle_since is not None
                and now - t.idle_since >= self.table_expiry
                and not any(s.kind == "human" for s in t.seats)]
        for tid in gone:
            self._drop_table(tid)
        if gone:
            self._flush()
        return gone

    def _drop_table(self, table_id: int) -> None:
        """Forget a table (finished, or expired): the lobby lists it as removed."""
        table = self.tables.pop(table_id)
        self.table_dropped(table_id)
        self._info.pop(table_id, None)
        self._lobby_removed.add(table_id)
        self._lobby_changed(table)

    def _check_can_move(self, conn: Conn, to: Table | None = None) -> None:
        here = self.where(conn.identity)
        if here is not None and here[0] is not to and here[0].status == "playing":
            raise LobbyError("playing", f"You are playing at table {here[0].id}; leave it first.")

    def _seat_human(self, conn: Conn, table: Table, seat: int) -> None:
        here = self.where(conn.identity)
        if here is not None and here[0].status == "open":
            here[0].seats[here[1]].clear()
            self._lobby_changed(here[0])
        s = table.seats[seat]
        s.kind, s.name, s.identity, s.absent = "human", conn.name, conn.identity, False
        self.seated[conn.identity] = table.id

    def sit(self, conn: Conn, table_id: int, seat: int | None) -> int:
        """Seat ``conn`` at ``table_id`` (first empty seat if ``seat`` is None); its seat.
        Sitting again in one's own seat at a playing table clears "absent"."""
        table = self._table(table_id)
        if self._reclaim(conn.identity, only=table) is not None:
            self._lobby_changed(table)
        mine = table.seat_of(conn.identity)
        if mine is not None and (seat is None or seat == mine):
            if table.seats[mine].absent:
                self._check_can_move(conn, table)
                table.seats[mine].absent = table.seats[mine].absent_auto = False
                self._seat_back(table, mine)
                self._advance(table)
                self._lobby_changed(table)
            if table.state is not None:
                self._resync(table, mine)
            self._flush()
            return mine
        if table.status == "playing":  # a free seat (host/watchers.py)
            seat = self._take_free_seat(conn, table, seat)
            self._unwatch(conn.id)
            self._lobby_changed(table)
            self._flush()
            return seat
        if table.status != "open":
            raise LobbyError("not_open", f"Table {table_id} has already started.")
        self._check_can_move(conn)
        seat = table.free_seat(seat)
        self._seat_human(conn, table, seat)
        self._unwatch(conn.id)
        self._lobby_changed(table)
        self._flush()
        return seat

    def leave(self, conn: Conn) -> None:
        """Give up one's seat: empty at an open table; marked absent (still bound, so sitting
        again resumes it) at a playing one."""
        here = self.where(conn.identity)
        if here is None:
            raise LobbyError("not_seated", "You are not at a table.")
        table, seat = here
        if table.status == "open":
            table.seats[seat].clear()
            self._lobby_changed(table)
        else:
            self.mark_absent(table.id, seat)
        self._flush()

    def add_bot(self, table_id: int, seat: int | None = None, policy: str = "normal",
                by_host: bool = True) -> int:
        """A host-side bot in ``seat`` (first empty one if None): at an open table an empty
        seat; at a playing table — the host's decision only (``by_host``), never a player's —
        it may replace an absent human, keeping the seat for them: when they come back
        (connect or sit) the seat is theirs again. Returns the seat."""
        table = self._table(table_id)
        try:
            get_policy(table.game_name, policy)
        except KeyError as exc:
            raise LobbyError("bad_policy", str(exc.args[0])) from exc
        if table.status == "playing" and seat is not None and 0 <= seat < len(table.seats) and (
                table.seats[seat].absent):
            if not by_host:
                raise LobbyError("host_only", "Only the host may give an absent player's seat "
                                 "to a bot; the seat waits for its player.")
        elif table.status != "open":
            raise LobbyError("not_open", f"Table {table_id} has already started.")
        else:
            seat = table.free_seat(seat)
        assert seat is not None
        s = table.seats[seat]
        name = (s.name if s.kind == "human"
                else self._unique_name(f"bot {seat + 1}", None, table))
        reserved = s.identity if s.kind == "human" else None
        s.clear()
        s.kind, s.name, s.policy, s.reserved = "bot", name, policy, reserved
        self._note_bots(table)
        if table.status == "playing":
            self._presence(table, seat, "bot")
        self._lobby_changed(table)
        if table.status == "playing":
            self._advance(table)
        self._flush()
        return seat

    def start(self, table_id: int) -> None:
        """Deal the table's game and let it run."""
        table = self._table(table_id)
        table.start(table.seed or self._seed(), new_seed()[1])
        assert table.state is not None
        seats = [s.record() for s in table.seats]
        self._emit(TableStarted(table.id, table.game_name, list(table.state["players"]),
                                dict(table.options), table.seed, table.salt, seats))
        self.watch_started(table)
        self._lobby_changed(table)
        self._advance(table)
        self._flush()

    def resume_table_id(self, table: Table) -> None:
        """Give a table rebuilt after a restart its old id if free, else a new one."""
        if table.id in self.tables or table.id <= 0:
            table.id = self._next_table
        self._next_table = max(self._next_table, table.id + 1)

    def resume_table(self, table: Table, timer: tuple[str, float] | None = None) -> None:
        """Take back a playing ``table`` rebuilt from its journal after a restart (call
        :meth:`resume_table_id` first); every human seat starts disconnected. ``timer`` (key,
        seconds left) resumes the running deadline with the time it had left, if it is still
        the engine's current one."""
        self.resume_table_id(table)
        self.tables[table.id] = table
        for seat in table.seats:
            if seat.kind == "human" and seat.identity is not None:
                self.seated[seat.identity] = table.id
        self._note_bots(table)
        self._seat_records[table.id] = [s.record() for s in table.seats]
        deadline = table.engine.deadline(table.state) if table.state is not None else None
        if timer is not None and deadline is not None and deadline.key == timer[0]:
            table.timer_key, table.timer_since = timer[0], table.state_id
            self._emit(SetTimer(table.id, timer[0], max(0.0, min(timer[1], deadline.seconds))))
        self._lobby_changed(table)
        for i, seat in enumerate(table.seats):
            if seat.kind == "human" and table.status == "playing":
                self._emit(SeatDisconnected(table.id, i))
                if not seat.absent:  # its client comes back by itself after the restart
                    table.reconnecting_until[i] = self.clock() + self.reconnect_for
                if self.absent_after is not None and not seat.absent:
                    table.away_until[i] = self.clock() + self.absent_after
        self._advance(table)
        self._flush()

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
            self.resume_table_id(table)
            self.tables[table.id] = table
            self.restore_watch_rules(table.id, rec.get("watch"))
            for seat in table.seats:
                if seat.kind == "human" and seat.identity is not None:
                    self.seated[seat.identity] = table.id
            restored.append(table)
        if restored:
            self._lobby_changed(*restored)
            self._flush()
        return [t.id for t in restored]

    # -- the host's own powers -----------------------------------------------------------
    def mark_absent(self, table_id: int, seat: int, absent: bool = True) -> None:
        """Mark a human seat absent (the engine's default answers for it) or back."""
        table = self._table(table_id)
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            raise LobbyError("no_seat", f"Seat {seat} at table {table_id} has no human.")
        was = table.seats[seat].absent
        table.seats[seat].absent = absent
        if absent and not was:
            table.away_until.pop(seat, None)
            self._presence(table, seat, "absent")
        elif was and not absent:
            table.seats[seat].absent_auto = False
            self._seat_back(table, seat)
        self._lobby_changed(table)
        self._advance(table)
        self._flush()

    def time_limits(self, table_id: int) -> bool | None:
        """Whether the table's time limits are on; None if its game has no such switch."""
        table = self._table(table_id)
        if "time_limits" not in table.engine.options_help:
            return None
        if table.state is None:
            return bool(table.options.get("time_limits", False))
        return bool(table.engine.view(table.state, None).get("time_limits"))

    def set_time_limits(self, table_id: int, on: bool) -> None:
        """Switch a table's time limits: an option before the start, a journaled host action
        during play (so a restarted host and a replay switch them at the same moment)."""
        table = self._table(table_id)
        if self.time_limits(table_id) is None:
            raise LobbyError("no_option", f"{table.engine.title} has no time limits to switch.")
        if table.status == "open":
            table.options["time_limits"] = on
        elif table.status == "playing":
            action = {"type": "time_limits", "on": on}
            self._accepted(table, None, action, table.act(None, action))
            self._advance(table)
        else:
            raise LobbyError("not_playing", f"Table {table_id} is over.")
        self._lobby_changed(table)
        self._flush()

    def kick(self, table_id: int, seat: int) -> None:
        """Remove the human in ``seat``: their connection is closed; an open table frees the
        seat, a playing one keeps it absent and unbound (add a bot to replace them)."""
        table = self._table(table_id)
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            raise LobbyError("no_seat", f"Seat {seat} at table {table_id} has no human.")
        s = table.seats[seat]
        conn = self._conn_of(s.identity)
        if conn is not None:
            self._forget_conn(conn)
            self._emit(Close(conn.id, "kicked", "The host removed you from the table."))
        if table.status == "open":
            s.clear()
        else:
            if not s.absent:
                self._presence(table, seat, "absent")
            s.identity, s.absent = None, True
            table.away_until.pop(seat, None)
        self._lobby_changed(table)
        self._advance(table)
        self._flush()

    def place(self, table_id: int, seat: int, name: str, identity: bytes | None = None,
              policy: str = "heuristic") -> None:
        """(The host's own code: a tournament's seating, :mod:`host.event`) Put an entrant in
        empty ``seat`` of an open table under ``name``: the player of ``identity`` — seated
        whether connected or not; one who is away is absent until they connect — or, without
        ``identity``, a host-side bot playing ``policy``."""
        table = self._table(table_id)
        if table.status != "open":
            raise LobbyError("not_open", f"Table {table_id} has already started.")
        s = table.seats[table.free_seat(seat)]
        if identity is None:
            s.kind, s.name, s.policy = "bot", name, policy
        else:
            here = self.where(identity)
            if here is not None and here[0] is not table:  # one seat per player: this one
                self._give_up(here[0], here[1])
            s.kind, s.name, s.identity = "human", name, identity
            s.absent = s.absent_auto = identity not in self.by_identity
            self.seated[identity] = table.id

    def _give_up(self, table: Table, seat: int) -> None:
        """The player of ``seat`` is seated elsewhere by the host (:meth:`place`): a seat at a
        table still seating is emptied, one at a playing table is left as :meth:`leave` leaves
        it (absent, still bound: the game's absent rules play it; taking it back waits until
        the other table is over)."""
        if table.status == "open":
            table.seats[seat].clear()
        elif table.status == "playing" and not table.seats[seat].absent:
            table.seats[seat].absent = True
            table.away_until.pop(seat, None)
            self._presence(table, seat, "absent")
            self._advance(table)
        self._lobby_changed(table)

    def halt(self, table_id: int, why: str) -> None:
        """Stop a table that must not play on (its journal cannot be written): status
        "halted", its timer cancelled, its frames not yet sent dropped, no more actions,
        views or bot turns; its connected players get an ``error`` ``journal_failed`` saying
        ``why``. (The shell calls this as the record fails, before the tick's frames.)"""
        table = self.tables.get(table_id)
        if table is None or table.status == "halted":
            return
        table.status = "halted"
        self._changes.pop(table.id, None)
        if table.timer_key is not None:
            table.timer_key = None
            self._emit(CancelTimer(table.id))
        for seat in table.seats:
            conn = self._conn_of(seat.identity) if seat.kind == "human" else None
            if conn is not None:
                self._emit(Send(conn.id, {"type": "error", "code": "journal_failed",
                                          "message": why[:300]}))
        self._lobby_changed(table)
        self._flush()

    # -- for tests and dashboards --------------------------------------------------------
    def state_of(self, table_id: int) -> dict[str, Any] | None:
        """The engine state of a table (host-side only: never sent)."""
        return self._table(table_id).state
