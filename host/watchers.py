"""Watching a table (part of the sans-I/O core): who watches what, and the watchers' frames.

Any connection in the lobby may watch any table (``watch`` {table}) whose rules allow it; the
table's creator (``watch_rules``) or the host (:meth:`Watchers.set_rules`) may forbid it, and set
a delay before the start (the rules themselves: :mod:`host.watch_rules`).

What a watcher receives (the traffic rule of :mod:`protocol.traffic`, for watchers):

* while the game runs, only the public view — ``view(state, None)`` and the events without an
  audience — as ``watch_view`` frames built like a seat's (whole after watching starts, else the
  parts that changed, the new public events), each padded to the size class of its *own* parts.
  Those parts are public, so the length of a watcher's frame follows public facts only (never
  the largest frame of the seats, which follows their hands);
* exactly one frame for every change of the table that sends the seats a burst (an action, a
  timer, a cover, a refusal, a whisper: "something happened", the same for every seat) — so the
  count and timing of a watcher's frames are those every seat sees — and one when it starts
  watching (the reply to its own request). Table chat is not sent to watchers;
* with a delay of ``N``, the public view of the position ``N`` actions back: a second state
  follows the table's history ``N`` steps behind (replayed from the seed, as a replay would);
* once the game is over: the final view with the whole recent log — every event, private lines
  included (all-seeing) — and the ``reveal`` (seed, salt, every step), as the seats get it.

Watchers are listed at the table and in the lobby (``watchers``: names). A watcher becomes a
player by sitting, and a player leaves their seat to watch (:mod:`host.seating`). Not kept
across a restart: who watches (watchers reconnect and ask again; the client does so by itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hexnet.engine import public_form, visible
from host.changes import Change, Changes
from host.conn import Conn
from host.core import LobbyError, Outbox, Send, WatchRulesChanged
from host.fairplay import reveal_messages
from host.marks import LobbyMarks
from host.people import People
from host.registry import Registry
from host.render import BEHIND_MOST
from host.table import Table
from host.watch_rules import RuleBook, WatchRules, split_options
from protocol import traffic

_WATCH_VIEW = traffic.packed("watch_view")
_TRUE = traffic.packed(True)
_EMPTY = traffic.packed([])
MAX_WATCHERS = 50  # per table (the lobby lists their names)


@dataclass
class Watcher:
    """One connection watching one table: what it was last sent (packed view parts), how far
    into the log, and whether its next frame is whole."""

    conn: int
    table: int
    sent: dict[str, bytes] | None = None
    log_at: int = 0
    log_n: int = 0  # public events sent (a watcher's own numbering, as a seat's)
    ended: bool = False  # it has the final (all-seeing) frame and the reveal


@dataclass
class Lag:
    """The position ``delay`` actions behind a table: a state replayed from the seed."""

    state: dict[str, Any]
    steps: int = 0  # history steps applied


class Watchers:
    """Every watcher of one host (by connection), what each table's seats were told of them,
    and the delayed positions watchers see."""

    def __init__(self, out: Outbox, registry: Registry, people: People, changes: Changes,
                 marks: LobbyMarks, rules: RuleBook) -> None:
        self.out = out
        self.registry = registry
        self.tables = registry.tables
        self.people = people
        self.changes = changes
        self.marks = marks
        self.rules = rules
        self.by_conn: dict[int, Watcher] = {}
        self.told: dict[int, list[str]] = {}  # table → names its seats hold
        self.paid: set[int] = set()  # tables whose seats hear who watches at the next tick
        self.lags: dict[int, Lag] = {}

    def of_table(self, table_id: int) -> list[Watcher]:
        return [w for w in self.by_conn.values() if w.table == table_id]

    # -- requests ----------------------------------------------------------------------------
    def admit(self, conn: Conn, table_id: int) -> Table | None:
        """Whether ``conn`` may watch ``table_id`` now (``LobbyError`` if not; one change of
        its budget spent): the table, or None if it watches it already."""
        table = self.registry.get(table_id)
        if not self.rules.of(table_id).allowed:
            raise LobbyError("no_watching", f"Table {table_id} may not be watched.")
        here = self.people.where(conn.identity)
        if here is not None and here[0] is not table and here[0].status == "playing":
            raise LobbyError("playing", f"You are playing at table {here[0].id}; leave it first.")
        current = self.by_conn.get(conn.id)
        if current is not None and current.table == table_id:
            return None
        if len(self.of_table(table_id)) >= MAX_WATCHERS:
            raise LobbyError("too_many_watchers", f"Table {table_id} has {MAX_WATCHERS} "
                             "watchers already.")
        self._spend_watch_change(conn)
        return table

    def add(self, conn: Conn, table: Table) -> None:
        """``conn`` (admitted) watches ``table`` from now on, and no other."""
        self.drop(conn.id)
        self.by_conn[conn.id] = Watcher(conn.id, table.id)
        self._tell(table)  # (its first frame goes with the tick too)
        self.marks.changed(table)

    def unwatch(self, conn: Conn) -> None:
        """``conn`` stops watching (nothing if it was not)."""
        if conn.id in self.by_conn:
            self._spend_watch_change(conn)
        self.drop(conn.id)
        self.out.flush()

    @staticmethod
    def _spend_watch_change(conn: Conn) -> None:
        """One change of what ``conn`` watches, from its player's budget: every change sends
        each seat of the table a frame, so a client toggling at its message rate (100/s)
        would make a table it does not even sit at receive ~100 frames a second (issue 9:
        nobody amplifies). ``too_fast`` past it (:data:`host.budget.WATCH_BURST`, then
        :data:`~host.budget.WATCH_RATE` a second), nothing changed."""
        if not conn.budget.spend("watch"):
            raise LobbyError("too_fast", "You change what you watch too often; wait a second "
                             "and try again.")

    def _tell(self, table: Table) -> None:
        """Who watches ``table`` changed and someone paid for it (a watch change from its
        budget, a seat taken, the rules switched): its seats hear it with the next tick."""
        if table.state is not None:
            self.paid.add(table.id)
            self.changes.of(table)

    def drop(self, conn_id: int, code: str = "", message: str = "", paid: bool = True) -> None:
        """Forget ``conn_id``'s watching; with ``code`` tell it why (forbidden, table gone).
        Not ``paid`` (its connection went away): the seats hear it with the table's next
        burst, not with a frame of its own — else a watcher reconnecting in a loop would
        make every seat receive a frame each time."""
        watcher = self.by_conn.pop(conn_id, None)
        if watcher is None:
            return
        table = self.tables.get(watcher.table)
        if not self.of_table(watcher.table):
            self.lags.pop(watcher.table, None)
        if table is not None:
            self.marks.changed(table)
            if paid:
                self._tell(table)
        self.marks.changed()  # its ``you`` changed
        if code and conn_id in self.people.conns:
            self.out.emit(Send(conn_id, {"type": "unwatched", "table": watcher.table,
                                         "code": code, "message": message}))

    def watching(self, conn: Conn) -> int | None:
        """The table ``conn`` watches, or None."""
        watcher = self.by_conn.get(conn.id)
        return watcher.table if watcher is not None else None

    def set_rules(self, table_id: int, allowed: bool, delay: int | None = None,
                  by: Conn | None = None) -> None:
        """Allow or forbid watching ``table_id`` (``by`` None: the host; else only its
        creator may); ``delay`` only before the start. Forbidding sends every watcher away."""
        table = self.registry.get(table_id)
        if by is not None and (table.creator is None or table.creator != by.identity):
            raise LobbyError("not_creator", f"Only the creator of table {table_id} or the host "
                             "may set who watches it.")
        rules = self.rules.of(table_id)
        if delay is not None and delay != rules.delay:
            if table.status != "open":
                raise LobbyError("not_open", "The delay is set before the game starts.")
            _game, checked = split_options({"watch_delay": delay}, local=by is None)
            rules = WatchRules(rules.allowed, checked.delay)
        rules = WatchRules(allowed, rules.delay)
        changed = rules != self.rules.of(table_id)
        if changed and by is not None and not by.budget.spend():
            raise LobbyError("too_often", "You switch who may watch too often; wait a moment.")
        self.rules.set(table_id, rules)
        if changed and table.status == "playing":  # a seating table's go in its record
            self.out.emit(WatchRulesChanged(table_id, rules.allowed, rules.delay))
        if not allowed:
            for w in self.of_table(table_id):
                self.drop(w.conn, "no_watching", f"Table {table_id} may no longer be watched.")
        self.marks.changed(table)
        self.out.flush()

    def forget(self, conn_id: int) -> None:
        """A connection went away: it watches nothing any more."""
        if conn_id in self.by_conn:
            self.drop(conn_id, paid=False)

    def table_dropped(self, table_id: int) -> None:
        """A table is gone: its watchers are told, its rules forgotten."""
        for w in self.of_table(table_id):
            self.drop(w.conn, "no_table", f"Table {table_id} is gone.")
        self.rules.drop(table_id)
        self.lags.pop(table_id, None)
        self.told.pop(table_id, None)
        self.paid.discard(table_id)

    # -- the lobby's word on watching ----------------------------------------------------------
    def names(self, table_id: int) -> list[str]:
        """The names of those watching ``table_id``, in the order they came."""
        return [self.people.conns[w.conn].name for w in self.of_table(table_id)
                if w.conn in self.people.conns][:MAX_WATCHERS]

    def info(self, table: Table, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` (a table's lobby entry) with its watchers' names, its rules, and which seats
        of a playing table are free to take."""
        rules = self.rules.of(table.id)
        info["watchers"] = self.names(table.id)
        info["watch"] = rules.allowed
        info["watch_delay"] = rules.delay
        if table.status == "playing":
            for entry, seat in zip(info["seats"], table.seats, strict=True):
                if seat.kind == "human" and seat.identity is None:
                    entry["free"] = True
        return info

    # -- frames (called from the tick, host.publish) ------------------------------------------
    def to_seats(self, table: Table, change: Change) -> None:
        """(Before the seats' frames.) The seats are told who watches when that changed and
        someone paid for it (:meth:`_tell`) — a change of the table like any other: one frame
        to every seat — or with the next burst (a watcher whose connection went), and with any
        burst that gives a seat its whole view again. A seat's whole view alone (a player
        back) makes no burst for it: the lobby it is sent as it connects lists the watchers,
        so a client reconnecting in a loop cannot make every seat receive a frame each time."""
        names = self.names(table.id)
        paid = table.id in self.paid
        self.paid.discard(table.id)
        changed = names != self.told.get(table.id, [])
        if not (change.burst or paid) or not (changed or (change.full and names)):
            return  # (an unpaid change waits for the next burst)
        change.watchers = names
        if names:
            self.told[table.id] = names
        else:
            self.told.pop(table.id, None)

    def tick(self, table: Table, change: Change) -> None:
        """The watchers' frames of one change of ``table`` (after the seats'): one to every
        watcher on a burst, or to a watcher who has nothing yet."""
        watchers = self.of_table(table.id)
        if not watchers or table.state is None:
            return
        over = table.status == "over"
        for w in watchers:
            if w.conn not in self.people.conns or (w.ended and over):
                continue
            if not (change.burst or w.sent is None or (over and not w.ended)):
                continue
            parts = self._watch_parts(table, w, over)
            data = traffic.assemble(parts, traffic.size_class(traffic.needed(parts)))
            self.out.emit(Send(w.conn, data=data))
            if over and not w.ended:
                w.ended = True
                for msg in reveal_messages(table) if table.salt else []:
                    self.out.emit(Send(w.conn, msg))

    def _lagged(self, table: Table) -> dict[str, Any]:
        """The state watchers see: the table's, or the one ``delay`` steps behind it."""
        assert table.state is not None
        delay = self.rules.of(table.id).delay
        if delay <= 0:
            return table.state
        lag = self.lags.get(table.id)
        if lag is None:
            players = list(table.state["players"])
            lag = self.lags[table.id] = Lag(
                table.engine.setup(players, table.seed, table.options))
        target = max(0, len(table.history) - delay)
        while lag.steps < target:
            seat, action = table.history[lag.steps]
            table.engine.apply(lag.state, seat, action)
            lag.steps += 1
        return lag.state

    def _watch_parts(self, table: Table, w: Watcher, over: bool) -> list[tuple[str, bytes]]:
        """The parts of ``w``'s next frame: the public view (delayed), or all-seeing at the
        end; whole the first time (and at the end), else what changed."""
        engine = table.engine
        state = table.state if over else self._lagged(table)
        assert state is not None
        view = engine.view(state, None, log=False)
        if table.presence_now is not None and not over and state is table.state:
            view["presence"] = table.presence_now  # public, as every seat gets it (undelayed)
        bots = table.bots_public() if not over else None
        if bots is not None:  # the bots held or slowed (host/pause.py): public, undelayed
            view["bots"] = bots
        view.pop("state_id")
        sid = table.published  # the seats' publication counter (host/render.py)
        events = state["log"]
        whole = w.sent is None or over or len(events) - w.log_at > BEHIND_MOST
        if over:  # all-seeing: every event, each without its audience list
            log = self._final_log(events, w)
        else:
            start = max(0, len(events) - traffic.LOG_KEEP) if whole else w.log_at
            log = [public_form(e) for e in events[start:] if visible(e, None)]
            first = (sum(1 for e in events if visible(e, None)) - len(log) if whole
                     else w.log_n)
            log = [{**e, "n": first + i} for i, e in enumerate(log)]
            w.log_n = first + len(log)
        items = {k: traffic.packed(v) for k, v in view.items()}
        parts = [("type", _WATCH_VIEW), ("table", traffic.packed(table.id)),
                 ("state_id", traffic.packed(sid))]
        if whole:
            parts.append(("view", traffic.map_of(items)))
        else:
            old = w.sent or {}
            changed = {k: v for k, v in items.items() if old.get(k) != v}
            gone = [k for k in old if k not in items]
            if changed:
                parts.append(("view_delta", traffic.map_of(changed)))
            if gone:
                parts.append(("view_gone", traffic.packed(gone)))
        parts.append(("log", traffic.packed(log) if log else _EMPTY))
        if whole:
            parts.append(("log_reset", _TRUE))
            if table.commitment:
                parts.append(("commitment", traffic.packed(table.commitment)))
        w.sent, w.log_at = items, len(events)
        return parts

    @staticmethod
    def _final_log(events: list[dict[str, Any]], w: Watcher) -> list[dict[str, Any]]:
        """The all-seeing log at the end, numbered as the watcher's log was: the public events
        it was sent keep their numbers, every other event (private lines, now shown) follows
        after its last."""
        start = max(0, len(events) - traffic.LOG_KEEP)
        public_n = sum(1 for e in events[:start] if visible(e, None))
        out, fresh = [], w.log_n
        for i, e in enumerate(events[start:], start):
            seen = i < w.log_at and visible(e, None)
            out.append({**public_form(e), "n": public_n if seen else fresh})
            public_n += visible(e, None)
            fresh += not seen
        w.log_n = fresh
        return out
