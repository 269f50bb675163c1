"""The sans-I/O core of a host: one small router over the parts that own its state.

Every public method either returns a plain value or raises :class:`~host.core.LobbyError`
(nothing changed); everything it wants done (send a message, start a timer, let a bot think, …)
goes to ``listener(effects)`` as :mod:`host.core` effects, once per call (:class:`Outbox`). No
sockets, no clock: tests drive it directly.

The parts, each owning its own state (lower ones never call higher ones):

================  ===========================================================================
registry          the tables by id; creating, expiring and dropping them; creators' caps
watch_rules       each table's watching rules
people            connections, identities and the seat each holds, stand-ins, unique names
changes, marks    what each table owes its seats by the next tick; what the lobby owes by the
                  next update (and the journal's word on seating, at once)
presence          who is connected, reconnecting, away or absent; the grace periods
playing, bots     the games: start, acts, covers, timers, the end; the host's bot seats
time_limits       a table's time limits switched by its host (Fang)
chat              chat lines: the lobby's, a table's, the witches'
emotes            quick reactions at a table, never while a secret step is open
pause             the host's bots held or slowed at a table by its owner or the host
rematch           the same table again after a game, once its players agree
watchers          who watches what; the watchers' frames
seating           sit, leave, bots in seats, placing, kicks, absence, watching instead
arrivals, resume  players connecting and going; tables coming back after a restart
broadcast         the lobby entries and their coalesced deltas
publish           the tick: each table's change made into frames for seats and watchers
pacing            a secret step's cadence: what waited applied at its ticks, a frame each tick
================  ===========================================================================

Requests from the network all pass :meth:`Lobby.handle` (the one routing point); a refusal of a
request about the table a player is playing at (``add_bot``, ``start``, ``sit``, ``leave``,
``watch``, ``watch_rules``; ``act`` and table chat likewise) rides in that table's frames like
any reply, never as a frame of its own (the traffic rule) — within the player's budget for the
others (:mod:`host.budget`, which every request making frames for others spends from: the parts
below that make such frames pay it); refusals of lobby requests (``create``, another table) are
lobby ``error`` frames, which concern public things only. ``batched=True`` (the host) leaves
the ticks (:meth:`send_due`, :meth:`send_lobby`) to the shell; otherwise every call ends with
both.
``secret_every``: the seconds between a secret step's ticks, and the slot period its seats are
told (:data:`protocol.traffic.SLOT_EVERY`; tests run faster ones).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from hexnet.fairness import new_seed
from host.arrivals import Arrivals
from host.bots import HostBots
from host.broadcast import Broadcast
from host.changes import Changes
from host.chat import Chat
from host.conn import Conn
from host.core import Effect, LobbyError, Outbox, Send
from host.emotes import Emotes
from host.marks import LobbyMarks
from host.pacing import Pacing
from host.pause import BotControl
from host.people import People
from host.playing import Play
from host.presence import Presence
from host.publish import Publisher
from host.registry import (
    MAX_OPEN_TABLES_PER_ADDRESS,
    MAX_OPEN_TABLES_PER_PLAYER,
    MAX_TABLES_CREATED_PER_ADDRESS,
    MAX_TABLES_CREATED_PER_PLAYER,
    TABLE_EXPIRY,
    Registry,
)
from host.rematch import Rematches
from host.resume import Resumer
from host.seating import Seating
from host.table import Table
from host.time_limits import TimeLimits
from host.watch_rules import RuleBook
from host.watchers import Watchers
from protocol.traffic import SLOT_EVERY

# tables whose frames one loop tick of the batched host renders at most (a burst spreads)
TICK_TABLES = 24



class Lobby:
    """All tables and connected players of one host: wires the parts, routes the requests."""

    def __init__(self, listener: Callable[[list[Effect]], None] | None = None,
                 host_open: bool = False, games: list[str] | None = None,
                 seed_source: Callable[[], int | bytes] | None = None, batched: bool = False,
                 *, table_expiry: float = TABLE_EXPIRY,
                 max_open_tables_per_player: int = MAX_OPEN_TABLES_PER_PLAYER,
                 max_tables_created_per_player: int = MAX_TABLES_CREATED_PER_PLAYER,
                 max_open_tables_per_address: int = MAX_OPEN_TABLES_PER_ADDRESS,
                 max_tables_created_per_address: int = MAX_TABLES_CREATED_PER_ADDRESS,
                 absent_after: float | None = None, idle_absent: float | None = None,
                 secret_every: float = SLOT_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.batched = batched
        # the host runs a tournament (host/event.py sets it): the tables the host itself made
        # are its rounds' — never paused, slowed or played again
        self.hosts_event = False
        out = self.out = Outbox(listener or (lambda effects: None),
                                None if batched else self._due)
        self.registry = Registry(games, table_expiry=table_expiry,
                                 max_open_tables_per_player=max_open_tables_per_player,
                                 max_tables_created_per_player=max_tables_created_per_player,
                                 max_open_tables_per_address=max_open_tables_per_address,
                                 max_tables_created_per_address=max_tables_created_per_address,
                                 clock=clock)
        tables = self.tables = self.registry.tables
        self.rules = RuleBook()
        people = self.people = People(tables, clock)
        self.conns = people.conns
        changes = self.changes = Changes(out)
        marks = self.marks = LobbyMarks(out, tables, people, self.rules, clock)
        presence = self.presence = Presence(out, tables, people, clock, absent_after,
                                            idle_absent)
        play = self.play = Play(out, self.registry, people, changes, marks, presence,
                                self.rules, seed_source or (lambda: new_seed()[0]), clock,
                                self.in_event)
        bots = self.bots = HostBots(out, tables, presence, play)
        self.chat = Chat(out, people, changes, presence)
        self.emotes = Emotes(out, self.registry, people, changes)
        self.bot_control = BotControl(out, self.registry, changes, marks, play, clock,
                                      self.in_event)
        self.rematches = Rematches(out, self.registry, people, marks, self.rules, play, clock,
                                   self.in_event)
        watchers = self.watchers = Watchers(out, self.registry, people, changes, marks,
                                            self.rules)
        seating = self.seating = Seating(out, self.registry, people, changes, marks, presence,
                                         play, watchers)
        self.broadcast = Broadcast(out, tables, people, marks, watchers, clock, host_open)
        self.arrivals = Arrivals(out, people, changes, marks, presence, play, seating,
                                 self.broadcast)
        self.resumer = Resumer(out, self.registry, people, marks, self.rules, presence, play,
                               clock)
        self.publisher = Publisher(out, tables, people, changes, presence, watchers,
                                   secret_every)
        self.pacing = Pacing(out, tables, changes, play, bots, self.publisher)
        # the core's entry points that one part answers alone (each flushes)
        self.set_bots = self.bot_control.set
        self.add_bot, self.place, self.kick = seating.add_bot, seating.place, seating.kick
        self.mark_absent, self.watch_table = seating.mark_absent, seating.watch
        self.start, self.halt, self.timeout = play.start, play.halt, play.timeout
        self.cadence = self.pacing.tick
        limits = TimeLimits(out, self.registry, marks, play)
        self.time_limits, self.set_time_limits = limits.of, limits.switch
        self.bot_turn, self.bot_question, self.bot_answer = (bots.bot_turn, bots.bot_question,
                                                             bots.bot_answer)
        self.watching, self.set_watch_rules = watchers.watching, watchers.set_rules
        self.rules_of, self.restore_watch_rules = self.rules.of, self.rules.restore
        self.resume_table_id = self.registry.resume_id
        self.resume_table = self.resumer.resume_table
        self.restore_seating = self.resumer.restore_seating
        # what dashboards, doors and tests read
        self.where, self.holds_seat = people.where, people.holds_seat
        self.open_seats, self.tables_info = self.registry.open_seats, self.broadcast.tables_info
        self.presence_of = presence.presence_of

    def in_event(self, table: Table) -> bool:
        """Whether ``table`` is one of the host's tournament's (host/event.py)."""
        return self.hosts_event and table.creator is None

    def connect(self, conn_id: int, identity: bytes, name: str, address: str = "") -> None:
        """An authenticated connection joins (:meth:`host.arrivals.Arrivals.connect`); the
        rematches offered at its player's finished tables are said again."""
        self.arrivals.connect(conn_id, identity, name, address)
        conn = self.conns.get(conn_id)
        if conn is not None:
            self.rematches.back(conn)
            self.out.flush()

    def disconnect(self, conn_id: int, host_stopping: bool = False) -> None:
        """A connection went away (:meth:`host.arrivals.Arrivals.disconnect`); one that said
        goodbye has left the rematches offered to it."""
        conn = self.conns.get(conn_id)
        gone = conn.identity if conn is not None and conn.said_bye and not host_stopping \
            else None
        self.arrivals.disconnect(conn_id, host_stopping)
        if gone is not None and self.rematches.left(gone):
            self.out.flush()

    def state_of(self, table_id: int) -> dict[str, Any] | None:
        """The engine state of a table (host-side only: never sent)."""
        return self.registry.get(table_id).state

    # -- the ticks -----------------------------------------------------------------------------
    def _due(self) -> None:
        """(Unbatched: before every flush) the frames and the lobby update due."""
        self.publisher.tick()
        self.broadcast.tick()

    def send_due(self) -> None:
        """(The batched host, once per loop tick) the frames of the tables due — at most
        :data:`TICK_TABLES` of them, the rest with the next tick, so that a burst (every table
        starting at once) is spread over ticks and reads go on between them —, then flush."""
        self.publisher.tick(TICK_TABLES)
        self.out.flush()

    def send_lobby(self) -> None:
        """(The batched host, a few times a second) the coalesced lobby update, then flush."""
        self.broadcast.tick()
        self.out.flush()

    # -- requests ------------------------------------------------------------------------------
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
                self.seating.sit(conn, msg["table"], msg["seat"])
            elif kind == "leave":
                self._leave(conn)
            elif kind == "bye":
                conn.said_bye = True
            elif kind == "add_bot":
                self._require_seated(conn, msg["table"])
                self.seating.add_bot(msg["table"], msg["seat"], msg["policy"], by_host=False)
            elif kind == "start":
                self._require_seated(conn, msg["table"])
                self.play.start(msg["table"])
            elif kind == "act":
                self.play.act(conn, msg)
            elif kind == "chat":
                self.chat.say(conn, msg["text"], msg["channel"])
            elif kind == "cover":
                self.play.cover(conn, msg)
            elif kind in ("emote", "rematch", "bots"):
                self._table_ask(conn, msg)
            elif kind == "watch":
                self.seating.watch(conn, msg["table"])
            elif kind == "unwatch":
                self.watchers.unwatch(conn)
            elif kind == "look":
                self.broadcast.look(conn, msg["on"])
            elif kind == "watch_rules":
                self.watchers.set_rules(msg["table"], msg["allowed"], msg.get("delay"), by=conn)
            elif kind == "ping":
                self.out.emit(Send(conn_id, {"type": "pong", "t": msg["t"]}))
            else:
                raise LobbyError("unexpected", f"A {kind!r} message is not expected now.")
        except LobbyError as exc:
            self._refuse(conn, msg, exc)
        self._answer_you(conn, kind)
        self.out.flush()

    def _leave(self, conn: Conn) -> None:
        """``leave``: one's seat at a table not over — or else the rematches offered."""
        if self.where(conn.identity) is not None or not self.rematches.left(conn.identity):
            self.seating.leave(conn)

    def _table_ask(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A table's emote, a rematch answer, the bots held or slowed."""
        kind = msg["type"]
        if kind == "emote":
            self.emotes.react(conn, msg["table"], msg["emote"])
        elif kind == "rematch":
            self.rematches.answer(conn, msg["table"], msg["answer"])
        else:
            self.bot_control.set(msg["table"], msg["paused"], msg["delay"], by=conn)

    def _answer_you(self, conn: Conn, kind: str) -> None:
        """After a request that may move its player: their ``you``, and the rematches they
        left by sitting down elsewhere (one seat per player)."""
        if kind in ("create", "sit", "watch"):
            self.rematches.moved(conn.identity)
        if kind in ("create", "sit", "leave", "start", "watch", "unwatch"):
            self.broadcast.answer_you(conn)

    def _refuse(self, conn: Conn, msg: dict[str, Any], exc: LobbyError) -> None:
        """Refuse ``msg``: an ``error`` to ``conn`` — inside the table's next frames if the
        request is about the table its player is playing at (``add_bot``, ``start``, ``sit``,
        ``leave``, ``watch``, ``watch_rules``: a seated player's table-level refusals are never
        a frame of their own, the traffic rule of :mod:`protocol.traffic`), in a frame to every
        seat only within the player's budget (:meth:`host.playing.Play.refuse`)."""
        error = {"code": exc.code, "message": exc.message}
        here = self.where(conn.identity)
        if here is not None and here[0].status == "playing" and (
                msg.get("table") == here[0].id or msg["type"] == "leave"):
            self.play.refuse(here[0], here[1], conn, error=error)
            return
        self.out.emit(Send(conn.id, {"type": "error", **error}))

    def _require_seated(self, conn: Conn, table_id: int) -> None:
        if self.registry.get(table_id).seat_of(conn.identity) is None:
            raise LobbyError("not_seated", f"Only players at table {table_id} may do that.")

    # -- tables --------------------------------------------------------------------------------
    def create_table(self, game: str, seats: int, options: dict[str, Any] | None = None,
                     creator: Conn | None = None, seed: int | None = None,
                     owner_seat: int | None = None) -> int:
        """A new open table of ``game`` with ``seats`` empty seats; its id. A ``creator``
        connection is seated at seat 0 (moving from an open table if needed) and owns the
        table; ``owner_seat`` (the host's own tables: ``hexnet play``): the player who sits
        there owns it (pauses and slows its bots, fills a rematch's silent seats)."""
        engine, options, watch_rules = self.registry.checked(game, seats, options,
                                                             local=creator is None)
        if creator is not None:
            self.seating.check_can_move(creator)
            self.registry.check_caps(creator.identity, creator.address)
        self.expire_tables()
        for tid in self.registry.crowding():
            self._drop_table(tid)
        table = self.registry.add(game, engine, seats, options,
                                  creator.identity if creator is not None else None, seed,
                                  creator.address if creator is not None else "")
        self.rules.set(table.id, watch_rules)
        table.owner_seat = owner_seat
        if creator is not None:
            table.owner = creator.identity
            self.seating.seat_human(creator, table, 0)
        self.marks.changed(table)
        self.out.flush()
        return table.id

    def refresh_entries(self, tables: list[Table]) -> None:
        """The lobby entries of ``tables`` are made again (their players were re-rated)."""
        if tables:
            self.marks.changed(*tables)
            self.out.flush()

    def expire_tables(self) -> list[int]:
        """Remove the open tables created over the network that nobody but their creator has
        sat at for ``table_expiry`` seconds (:meth:`host.registry.Registry.expired`); their
        ids. A creator still sitting there is told why. The shell calls this now and then, and
        every ``create`` does."""
        gone = self.registry.expired()
        for tid in gone:
            creator = self.people.conn_of(self.tables[tid].creator)
            if creator is not None and self.tables[tid].seat_of(creator.identity) is not None:
                minutes = max(1, round(self.registry.table_expiry / 60))
                self.out.emit(Send(creator.id, {
                    "type": "error", "code": "table_expired",
                    "message": f"Table {tid} was closed: nobody else sat down there within "
                               f"{minutes} min."}))
            self._drop_table(tid)
        if gone:
            self.out.flush()
        return gone

    def _drop_table(self, table_id: int) -> None:
        """Forget a table (finished, or expired): its watchers are told, the lobby lists it
        as removed."""
        table = self.registry.remove(table_id)
        self.rematches.forget(table_id)
        self.watchers.table_dropped(table_id)
        self.marks.dropped(table)

    # -- the shell's presence timers -------------------------------------------------------------
    def absent_if_gone(self, table_id: int, seat: int) -> None:
        """The grace period of a disconnected seat ended (:class:`host.core.SeatDisconnected`)."""
        self._settle(self.presence.absent_if_gone(table_id, seat))

    def stopped_reconnecting(self, table_id: int, seat: int) -> None:
        """A dropped link's client would have come back by now."""
        self._settle(self.presence.stopped_reconnecting(table_id, seat))

    def idle_due(self, table_id: int, seat: int) -> None:
        """A connected seat's ``idle_absent`` ran out (:class:`host.core.SeatIdle`)."""
        self._settle(self.presence.idle_due(table_id, seat))

    def _settle(self, table: Table | None) -> None:
        """A seat's presence changed at ``table``: the lobby shows it, the game goes on."""
        if table is not None:
            self.marks.changed(table)
            self.play.advance(table)
            self.out.flush()
