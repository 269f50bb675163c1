"""Playing at a table (part of the sans-I/O core): the start, actions and their stale checks,
covers, absent seats, timers, host-side bots, the end, halting (time limits:
:mod:`host.time_limits`).

Rules kept here:
* an ``act`` must quote a ``state_id`` from which the seat's choice (its legal actions and the
  engine's deadline key) is unchanged — normally the current one — else ``stale`` (so two players
  answering one reaction window at once are both accepted); one chosen in a timed window that
  closed before it arrived is ``too_late``;
* a refusal about the table a player is playing at rides in that table's frames like any reply,
  never as a frame of its own (the traffic rule, :mod:`protocol.traffic`) — within its player's
  budget (:mod:`host.budget`), past which it goes to the sender alone (:meth:`Play.refuse`);
* seats marked absent are answered for by the engine's absent default whenever waited on
  (:meth:`Play.advance`) — at a secret step only at its ticks, every such seat alike;
* a table nobody is left at — no bot there and none of its players connected — is *deserted*
  (:meth:`Play.deserted`): the game waits for them, nothing is played for its absent seats and
  its clock is held with the seconds it had left, until a player is back (then their absent
  neighbours' defaults and the clock go on, the clock with at least :data:`RESUME_LEAST`
  seconds). Neither a whole table whose Wi-Fi dropped comes back to a game the host finished
  for them, nor does a game whose defaults never end it (Hexenhammer's phase 1: every absent
  seat passes) run the host's steps in a loop. A tournament's tables play on — its rounds wait
  for nobody —, a move for an absent seat as each deadline runs out (at once where nothing is
  timed, until :data:`MAX_HOST_STEPS` such moves have not ended the game: then it waits too);
* at a secret step (the table is paced, :mod:`host.changes`) an ``act`` and a timer's expiry are
  not applied as they come: they wait for the step's next tick (:mod:`host.pacing`), so what
  the host does, and when it answers, is the same for an action and for a cover — a cover
  (``cover``) itself is read and dropped;
* host-side bots are asked with a :class:`~host.core.BotTurn` effect (:mod:`host.bots`
  answers);
* fairness (issue 6): :meth:`Play.start` draws seed and salt (:func:`hexnet.fairness.new_seed`);
  every view carries the commitment, and the end's ``reveal`` goes out with the tick
  (:mod:`host.publish`);
* journal hooks: ``TableStarted`` (with seed, salt and seats), ``Accepted`` and ``TableOver``
  effects, in that order and before the frames they cause (those come from the tick).

Actions are applied here as they arrive (at a secret step: at its ticks); what they change is
only marked (:class:`host.changes.Changes`) — the frames are made by the tick,
:mod:`host.publish`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexnet.engine import IllegalAction
from hexnet.fairness import new_seed
from host.changes import Changes
from host.conn import Conn
from host.core import (
    BotTurn,
    CancelTimer,
    Outbox,
    Send,
    SetTimer,
    TableOver,
    TableStarted,
)
from host.marks import LobbyMarks
from host.people import People
from host.presence import Presence
from host.registry import Registry
from host.table import MAX_HOST_STEPS, Table, accepted
from host.watch_rules import RuleBook

RESUME_LEAST = 3.0  # seconds a held deadline has at least when it runs again (host/pause.py)

# Actions one seat may have waiting for a secret step's tick: its client sends at most one a
# slot, one slot a tick; more is a flood, refused (in the tick's frames, like any refusal).
QUEUE_PER_SEAT = 4


class Play:
    """The games at the tables: applies what is played and marks what changed."""

    def __init__(self, out: Outbox, registry: Registry, people: People, changes: Changes,
                 marks: LobbyMarks, presence: Presence, rules: RuleBook,
                 seed_source: Callable[[], int | bytes], clock: Callable[[], float],
                 in_event: Callable[[Table], bool] = lambda table: False) -> None:
        self.out = out
        self.registry = registry
        self.tables = registry.tables
        self.people = people
        self.changes = changes
        self.marks = marks
        self.presence = presence
        self.rules = rules
        self.seed_source = seed_source
        self.clock = clock
        self.in_event = in_event
        self.ticking = False  # a secret step's tick is applying what waited for it

    # -- the start and the end ---------------------------------------------------------------
    def start(self, table_id: int) -> None:
        """Deal the table's game and let it run."""
        table = self.registry.get(table_id)
        table.start(table.seed or self.seed_source(), new_seed()[1])
        assert table.state is not None
        seats = [s.record() for s in table.seats]
        self.out.emit(TableStarted(table.id, table.game_name, list(table.state["players"]),
                                   dict(table.options), table.seed, table.salt, seats))
        kept = self.rules.started(table)
        if kept is not None:
            self.out.emit(kept)
        self.marks.changed(table)
        self.advance(table)
        self.out.flush()

    def halt(self, table_id: int, why: str) -> None:
        """Stop a table that must not play on (its journal cannot be written): status
        "halted", its timer cancelled, its frames not yet sent dropped, no more actions,
        views or bot turns; its connected players get an ``error`` ``journal_failed`` saying
        ``why``. (The shell calls this as the record fails, before the tick's frames.)"""
        table = self.tables.get(table_id)
        if table is None or table.status == "halted":
            return
        table.status = "halted"
        table.queued.clear()
        self.changes.drop(table.id)
        if table.timer_key is not None:
            table.timer_key = None
            self.out.emit(CancelTimer(table.id))
        for seat in table.seats:
            conn = self.people.conn_of(seat.identity) if seat.kind == "human" else None
            if conn is not None:
                self.out.emit(Send(conn.id, {"type": "error", "code": "journal_failed",
                                             "message": why[:300]}))
        self.marks.changed(table)
        self.out.flush()

    # -- actions -----------------------------------------------------------------------------
    def act(self, conn: Conn, msg: dict[str, Any]) -> None:
        """``conn``'s player plays ``msg["action"]`` at ``msg["table"]``, chosen at
        ``msg["state_id"]``."""
        table = self.registry.get(msg["table"])
        seat = table.seat_of(conn.identity)

        def reject(code: str, text: str, reason: IllegalAction | None = None) -> None:
            msg = {"type": "rejected", "table": table.id, "code": code, "message": text}
            if reason is not None:  # the refusal as data: the client words it
                msg["reason"] = {"key": reason.key, "args": reason.params}
            self.out.emit(Send(conn.id, msg))

        if seat is None:
            return reject("not_seated", f"You have no seat at table {table.id}.")
        if table.status != "playing":
            return reject("not_playing", f"Table {table.id} is not playing.")
        # from here on the reply rides in the table's frames: every seat gets one
        if self.changes.is_paced(table) and not self.ticking:
            if sum(1 for e in table.queued if e[0] == "act" and e[2] == seat) >= QUEUE_PER_SEAT:
                return self.changes.reply(table, seat, rejected={
                    "code": "too_fast", "message": "Too many actions at once; wait for the "
                                                   "table to answer."})
            table.queued.append(("act", conn, seat, msg))  # applied at the step's next tick
            return None
        self.settle(conn, table, seat, msg)
        return None

    def settle(self, conn: Conn, table: Table, seat: int, msg: dict[str, Any]) -> None:
        """Apply ``seat``'s ``act`` (at once, or at a secret step's tick) if it is still
        current and legal, else refuse it in the table's frames."""
        if not table.is_current(seat, msg["state_id"]):
            if table.too_late(msg["state_id"]):
                return self._too_late(table, seat, conn)
            return self.refuse_stale(table, seat, conn)
        try:
            events = table.act(seat, msg["action"])
        except IllegalAction as exc:
            if table.too_late(msg["state_id"]):
                return self._too_late(table, seat, conn)
            return self.refuse(table, seat, conn, rejected={
                "code": "illegal", "message": exc.reason[:300],
                "reason": {"key": exc.key, "args": exc.params}})  # the client words it
        self.out.emit(accepted(table, seat, msg["action"], events))
        self.changes.reply(table, seat, answered=msg["state_id"])
        table.waited_since.pop(seat, None)  # it acted: a new wait counts from now
        self.advance(table)

    def refuse_stale(self, table: Table, seat: int, conn: Conn) -> None:
        """Refuse an action chosen at a state the game has left (code ``stale``)."""
        self.refuse(table, seat, conn, rejected={
            "code": "stale", "message": "The game moved on before your action arrived; look "
                                        "again and choose anew."})

    def _too_late(self, table: Table, seat: int, conn: Conn) -> None:
        """Refuse an answer chosen in the timed window that closed before it arrived: "too
        late" (code ``too_late``, worded by the client), not a rules error."""
        reason = IllegalAction("too_late")
        self.refuse(table, seat, conn, rejected={
            "code": "too_late", "message": "Too late: the time for that answer ran out "
                                           "before it reached the host.",
            "reason": {"key": reason.key, "args": reason.params}})

    def refuse(self, table: Table, seat: int, conn: Conn, **fields: Any) -> None:
        """The answer to a refused request of ``conn``'s player about the table it plays at
        (an action: stale, illegal, too late; a ``start``, ``sit``, … the lobby refused): in a
        burst to every seat (so that nobody can tell who was refused) while the player's
        budget lasts (:mod:`host.budget`), else in a frame to ``seat`` alone (riding a burst
        anyway if one is due) — a client flooding refused requests cannot make every other
        seat receive a frame per message. An honest client's refusals are races ("stale"), a
        few per change of the table; only a flood tells an eavesdropper that this seat was
        refused. At a secret step always in the tick's burst: every seat gets one at every
        tick anyway (an answer to the sender alone would tell an action from a cover)."""
        change = self.changes.of(table)
        riding = seat in change.replies and seat not in change.alone
        if riding or self.changes.is_paced(table) or conn.budget.spend():
            return self.changes.reply(table, seat, **fields)
        change.replies.setdefault(seat, {}).update(fields)
        change.alone.add(seat)

    def cover(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A seat's empty slot at a secret step (:mod:`protocol.traffic`): read and dropped —
        the host's answers run on the step's own cadence, not on what arrives."""

    def advance(self, table: Table) -> None:
        """After a change: answer for absent seats, then mark the table's frames due and set
        timers and bot turns."""
        if table.status not in ("playing", "over") or table.state is None:
            return
        nobody = self.nobody_there(table)  # (once a change: as deserted() reads it)
        in_event = nobody and self.in_event(table)
        was_deserted, table.deserted = table.deserted, nobody and (table.stalled or not in_event)
        # a tournament's table nobody is at plays on at its clock's pace: a move for an absent
        # seat as each deadline runs out (one minute, not 10,000 moves at once as they went)
        by_clock = in_event and table.deadline() is not None
        steps = 0
        while steps < (MAX_HOST_STEPS if (self.ticking or not self.changes.is_paced(table))
                       and not table.deserted and not by_clock
                       else 0):  # at a secret step: at its next tick, every such seat alike
            if table.status != "playing":
                break
            absent = [s for s in table.waiting_for() if table.seats[s].absent]
            if not absent:
                break
            action = {"type": "absent", "seat": absent[0]}
            events = table.act(None, action)
            self.out.emit(accepted(table, None, action, events))
            self.presence.played_for(table, absent[0])
            steps += 1
        if steps == MAX_HOST_STEPS and table.status == "playing":  # defaults going round
            table.stalled = True  # (a tournament's too: it waits, not 10,000 more a deadline)
            table.deserted = self.deserted(table)
        change = self.changes.of(table)
        change.changed = True
        if table.status == "over":
            if table.timer_key is not None:
                table.timer_key = None
                self.out.emit(CancelTimer(table.id))
            self.out.emit(TableOver(table.id, table.engine.outcome(table.state) or {}))
            change.reveal = True
            self.marks.changed(table)
            return
        # timed windows in publications: from the first that shows one to the last before it
        # closed (an answer quoting one of those is "too late")
        deadline = table.deadline()
        if deadline is None and table.timer_key is not None:
            table.timer_key = None
            table.closed_window = (table.timer_since, table.published)
            self.out.emit(CancelTimer(table.id))
        elif deadline is not None and deadline.key != table.timer_key and (
                table.timer_key is not None and self.same_decision(table)):
            # a turn's key names the state, which a presence record moves: the same decision,
            # its clock runs on (a player's coming and going gives nobody a fresh minute)
            left = table.timer_held if table.timer_due is None else \
                table.timer_due - self.clock()
            table.timer_key = deadline.key
            self.run_timer(table, max(0.0, left or 0.0))
        elif deadline is not None and deadline.key != table.timer_key:
            if table.timer_key is not None:
                table.closed_window = (table.timer_since, table.published)
            table.timer_key, table.timer_since = deadline.key, table.published + 1
            table.timer_at = len(table.history)
            self.run_timer(table, float(deadline.seconds))
        if table.deserted:
            self.hold_timer(table)
        elif was_deserted and table.timer_key is not None and table.timer_held is not None \
                and not table.bots_paused:  # a player is back: the clock runs on
            self.run_timer(table, max(table.timer_held, RESUME_LEAST))
        self.ask_bots(table)
        self.presence.watch_waiting(table)

    def nobody_there(self, table: Table) -> bool:
        """``table`` is playing, no bot sits there and none of its players is connected."""
        return (table.status == "playing" and not any(s.kind == "bot" for s in table.seats)
                and not any(self.people.connected(table).values()))

    def deserted(self, table: Table) -> bool:
        """Whether the game waits for a player back: nobody is there and it is not a
        tournament's table — or it is, but its absent seats' moves went round
        :data:`MAX_HOST_STEPS` times without ending the game (untimed, a Hexenhammer table:
        an absent player's turn never calls the Inquisition)."""
        return self.nobody_there(table) and (table.stalled or not self.in_event(table))

    @staticmethod
    def same_decision(table: Table) -> bool:
        """Whether only presence records were applied since ``table``'s deadline was timed
        (they change no decision of the game)."""
        return all(a["type"] == "presence" for _, a in table.history[table.timer_at:])

    def hold_timer(self, table: Table) -> None:
        """Stop the table's running deadline, keeping the seconds it had left."""
        if table.timer_key is not None and table.timer_due is not None:
            table.timer_held = max(0.0, table.timer_due - self.clock())
            table.timer_due = None
            self.out.emit(CancelTimer(table.id))

    def run_timer(self, table: Table, seconds: float) -> None:
        """Time the table's deadline (``table.timer_key``) for ``seconds`` — or, while its bots
        are paused (:mod:`host.pause`) or the table is deserted, hold those seconds until they
        go on or a player is back."""
        if table.bots_paused or table.deserted:
            table.timer_due, table.timer_held = None, seconds
            return
        table.timer_due, table.timer_held = self.clock() + seconds, None
        self.out.emit(SetTimer(table.id, str(table.timer_key), seconds))

    def ask_bots(self, table: Table) -> None:
        """Ask the host's bots the game waits on for their move (none while they are paused),
        each after the table's bot delay (None: the host's) and at least the game's bot pause
        while a person sits at the table."""
        if table.bots_paused or table.state is None or table.status != "playing":
            return
        people = any(s.kind == "human" for s in table.seats)  # else nobody to wait for
        pause = table.engine.bot_pause(table.state) if people else 0.0
        for seat in table.engine.bots_asked(table.state):
            if table.seats[seat].kind == "bot":
                self.out.emit(BotTurn(table.id, seat, table.version, pause, table.bot_delay))

    # -- the host's own moves: timers, time limits -----------------------------------------
    def timeout(self, table_id: int, key: str) -> None:
        """The shell's timer for ``table_id`` fired; applied only if ``key`` is still current."""
        table = self.tables.get(table_id)
        if table is None or table.status != "playing" or table.timer_key != key:
            return
        if self.changes.is_paced(table) and not self.ticking:
            table.queued.append(("timeout", key))  # expires at the step's next tick
            return
        self.expire(table, key)
        self.out.flush()

    def expire(self, table: Table, key: str) -> None:
        """Apply the expiry of ``table``'s timer ``key`` (if still current, and the table's clock
        not held by a pause of its bots, :mod:`host.pause`: it runs again when they go on)."""
        if table.status != "playing" or table.timer_key != key or table.bots_paused:
            return
        if self.deserted(table):  # held: nobody is left (a running one ran out as they went)
            if table.timer_due is not None:
                table.timer_due, table.timer_held = None, 0.0
            table.deserted = True
            return
        now = table.deadline()  # (presence records since it was timed may have moved its key)
        if now is not None and now.key != key and self.same_decision(table):
            key = now.key
        table.timer_key = None
        table.closed_window = (table.timer_since, table.published)
        action = {"type": "timeout", "key": key}
        try:
            events = table.act(None, action)
        except IllegalAction:
            self.advance(table)
            return
        for seat in now.seats if now is not None else ():  # moves made for an absent player
            if table.seats[seat].absent:  # (a tournament's table plays on): told when back
                self.presence.played_for(table, seat)
        self.out.emit(accepted(table, None, action, events))
        self.advance(table)
