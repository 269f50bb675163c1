"""Watching a table (part of the sans-I/O core): watchers, their frames, the table's rules.

Any connection in the lobby may watch any table (``watch`` {table}) whose rules allow it; the
table's creator (``watch_rules``) or the host (:meth:`WatchMixin.set_watch_rules`) may forbid it,
and set a delay before the start. The rules are two table options of the host's own
(``seeds/watching.toml``: ``watch``, ``watch_delay``), taken out of a ``create``'s options before
the game's are checked: they never reach the engine or the fairness commitment.

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
player by sitting: at a table still seating, in an empty seat; at a playing table, in a *free*
seat — one whose player the host removed (human, absent, bound to nobody). A player leaves to
watch by watching the table they play at: their seat becomes free (the engine's absent default
answers for it until someone takes it) and they watch it from then on.

Kept across a host restart: a table's rules. A table still seating keeps them in its seating
record (:meth:`WatchMixin.watch_record`); a playing table's journal has a ``watch`` record
(:class:`host.core.WatchRulesChanged`) at the start when they are not the defaults and whenever
they change (:mod:`host.recovery` gives them back, :meth:`WatchMixin.restore_watch_rules`). Not
kept: who watches (watchers reconnect and ask again; the client does so by itself).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexnet.engine import public_form, visible
from hexnet.options import OptionError, check_options
from host.core import LobbyError, Send, WatchRulesChanged
from host.fairplay import reveal_messages
from host.limits import TokenBucket
from host.table import Table
from protocol import traffic

if TYPE_CHECKING:
    from host.lobby import Conn
    from host.render import Change

_WATCH_VIEW = traffic.packed("watch_view")
_TRUE = traffic.packed(True)
_EMPTY = traffic.packed([])
MAX_WATCHERS = 50  # per table (the lobby lists their names)
# How often one connection may change what it watches: every change sends each seat of the
# table a frame, so without a budget a client toggling at its message rate (100/s) would make a
# table it does not even sit at receive ~100 frames a second (issue 9: nobody amplifies).
WATCH_CHANGES_BURST = 5
WATCH_CHANGES_RATE = 1.0  # per second, once the burst is spent


class WatchingOptions:
    """The declared watching options (``seeds/watching.toml``), as an engine-like object for
    :func:`hexnet.options.check_options` and :func:`hexnet.options.parse_flags`."""

    name = "watching"
    title = "Watching"


WATCH_OPTIONS = ("watch", "watch_delay")


@dataclass
class WatchRules:
    """Whether a table may be watched, and how many actions late."""

    allowed: bool = True
    delay: int = 0


@dataclass
class Watcher:
    """One connection watching one table: what it was last sent (packed view parts), how far
    into the log, and whether its next frame is whole."""

    conn: int
    table: int
    sent: dict[str, bytes] | None = None
    log_at: int = 0
    ended: bool = False  # it has the final (all-seeing) frame and the reveal


@dataclass
class Lag:
    """The position ``delay`` actions behind a table: a state replayed from the seed."""

    state: dict[str, Any]
    steps: int = 0  # history steps applied


@dataclass
class WatchBook:
    """Every watcher and table rule of one host."""

    rules: dict[int, WatchRules] = field(default_factory=dict)
    told: dict[int, list[str]] = field(default_factory=dict)  # table → names its seats hold
    watchers: dict[int, Watcher] = field(default_factory=dict)  # conn id → watcher
    lags: dict[int, Lag] = field(default_factory=dict)
    budgets: dict[int, TokenBucket] = field(default_factory=dict)  # conn id → watch changes

    def of_table(self, table_id: int) -> list[Watcher]:
        return [w for w in self.watchers.values() if w.table == table_id]


def split_options(options: dict[str, Any] | None, local: bool
                  ) -> tuple[dict[str, Any], WatchRules]:
    """A ``create``'s options without the watching ones, and the rules they set. Raises
    :class:`LobbyError` (``bad_options``) for a watching option out of its bounds."""
    game = {k: v for k, v in (options or {}).items() if k not in WATCH_OPTIONS}
    mine = {k: v for k, v in (options or {}).items() if k in WATCH_OPTIONS}
    try:
        checked = check_options(WatchingOptions(), mine, local=local)
    except OptionError as exc:
        raise LobbyError(exc.code, exc.message) from exc
    return game, WatchRules(bool(checked.get("watch", True)), int(checked.get("watch_delay", 0)))


class WatchMixin:
    """The watching half of :class:`host.lobby.Lobby` (uses its plumbing)."""

    watch: WatchBook
    conns: dict[int, Conn]
    tables: dict[int, Table]

    # -- requests -----------------------------------------------------------------------------
    def rules_of(self, table_id: int) -> WatchRules:
        """The watching rules of a table (the defaults if none were set)."""
        return self.watch.rules.get(table_id) or WatchRules()

    def watch_table(self, conn: Conn, table_id: int) -> None:
        """``conn`` watches ``table_id`` from now on (stops watching any other). At the table it
        plays at, it leaves its seat first (the seat becomes free)."""
        table = self._table(table_id)  # type: ignore[attr-defined]
        rules = self.rules_of(table_id)
        if not rules.allowed:
            raise LobbyError("no_watching", f"Table {table_id} may not be watched.")
        here = self.where(conn.identity)  # type: ignore[attr-defined]
        if here is not None and here[0] is not table and here[0].status == "playing":
            raise LobbyError("playing", f"You are playing at table {here[0].id}; leave it first.")
        current = self.watch.watchers.get(conn.id)
        if current is not None and current.table == table_id:
            return
        if len(self.watch.of_table(table_id)) >= MAX_WATCHERS:
            raise LobbyError("too_many_watchers", f"Table {table_id} has {MAX_WATCHERS} "
                             "watchers already.")
        self._spend_watch_change(conn)
        if here is not None:  # a player leaves their seat to watch (this table or another)
            at, seat = here[0], here[0].seats[here[1]]
            if at.status == "playing":  # only at this very table (checked above)
                seat.identity, seat.absent, seat.absent_auto = None, True, False
                self._advance(at)  # type: ignore[attr-defined]
            else:
                seat.clear()
            self.seated.pop(conn.identity, None)  # type: ignore[attr-defined]
            self._lobby_changed(at)  # type: ignore[attr-defined]
        self._unwatch(conn.id)
        self.watch.watchers[conn.id] = Watcher(conn.id, table_id)
        self._change(table)  # type: ignore[attr-defined]  # its first frame goes with the tick
        self._lobby_changed(table)  # type: ignore[attr-defined]
        self._flush()  # type: ignore[attr-defined]

    def unwatch(self, conn: Conn) -> None:
        """``conn`` stops watching (nothing if it was not)."""
        if conn.id in self.watch.watchers:
            self._spend_watch_change(conn)
        self._unwatch(conn.id)
        self._flush()  # type: ignore[attr-defined]

    def _spend_watch_change(self, conn: Conn) -> None:
        """One change of what ``conn`` watches, from its budget (:data:`WATCH_CHANGES_BURST`,
        then :data:`WATCH_CHANGES_RATE` a second); ``too_fast`` past it, nothing changed."""
        budget = self.watch.budgets.get(conn.id)
        if budget is None:
            budget = self.watch.budgets[conn.id] = TokenBucket(
                WATCH_CHANGES_RATE, WATCH_CHANGES_BURST, self.clock)  # type: ignore[attr-defined]
        if not budget.take():
            raise LobbyError("too_fast", "You change what you watch too often; wait a second "
                             "and try again.")

    def _unwatch(self, conn_id: int, code: str = "", message: str = "") -> None:
        """Forget ``conn_id``'s watching; with ``code`` tell it why (forbidden, table gone)."""
        watcher = self.watch.watchers.pop(conn_id, None)
        if watcher is None:
            return
        table = self.tables.get(watcher.table)
        if not self.watch.of_table(watcher.table):
            self.watch.lags.pop(watcher.table, None)
        if table is not None:
            self._lobby_changed(table)  # type: ignore[attr-defined]
            if table.state is not None:
                self._change(table)  # type: ignore[attr-defined]  # the seats are told
        self._lobby_changed()  # type: ignore[attr-defined]  # its ``you`` changed
        if code and conn_id in self.conns:
            self._emit(Send(conn_id, {  # type: ignore[attr-defined]
                "type": "unwatched", "table": watcher.table, "code": code,
                "message": message}))

    def watching(self, conn: Conn) -> int | None:
        """The table ``conn`` watches, or None."""
        watcher = self.watch.watchers.get(conn.id)
        return watcher.table if watcher is not None else None

    def set_watch_rules(self, table_id: int, allowed: bool, delay: int | None = None,
                        by: Conn | None = None) -> None:
        """Allow or forbid watching ``table_id`` (``by`` None: the host; else only its
        creator may); ``delay`` only before the start. Forbidding sends every watcher away."""
        table = self._table(table_id)  # type: ignore[attr-defined]
        if by is not None and (table.creator is None or table.creator != by.identity):
            raise LobbyError("not_creator", f"Only the creator of table {table_id} or the host "
                             "may set who watches it.")
        rules = self.rules_of(table_id)
        if delay is not None and delay != rules.delay:
            if table.status != "open":
                raise LobbyError("not_open", "The delay is set before the game starts.")
            _game, checked = split_options({"watch_delay": delay}, local=by is None)
            rules = WatchRules(rules.allowed, checked.delay)
        rules = WatchRules(allowed, rules.delay)
        changed = rules != self.rules_of(table_id)
        self.watch.rules[table_id] = rules
        if changed and table.status == "playing":  # a seating table's go in its record
            self._emit(WatchRulesChanged(table_id, rules.allowed,  # type: ignore[attr-defined]
                                         rules.delay))
        if not allowed:
            for w in self.watch.of_table(table_id):
                self._unwatch(w.conn, "no_watching",
                              f"Table {table_id} may no longer be watched.")
        self._lobby_changed(table)  # type: ignore[attr-defined]
        self._flush()  # type: ignore[attr-defined]

    # -- across a restart -------------------------------------------------------------------
    def watch_started(self, table: Table) -> None:
        """(Called as ``table`` starts, after its ``TableStarted``.) Its journal keeps its
        rules when they are not the defaults."""
        rules = self.rules_of(table.id)
        if rules != WatchRules():
            self._emit(WatchRulesChanged(table.id, rules.allowed,  # type: ignore[attr-defined]
                                         rules.delay))

    def watch_record(self, table: Table, record: dict[str, Any]) -> dict[str, Any]:
        """A seating table's record (:meth:`host.table.Table.seating_record`) with its rules."""
        rules = self.rules_of(table.id)
        record["watch"] = {"allowed": rules.allowed, "delay": rules.delay}
        return record

    def restore_watch_rules(self, table_id: int, record: Any) -> None:
        """Give a table brought back after a restart the rules kept for it (a seating record's
        ``watch`` map or a journal's last ``watch`` record; None: the defaults). Rules that do
        not check (a damaged file) leave the defaults."""
        rules = WatchRules()
        if isinstance(record, dict):
            try:
                _game, rules = split_options({"watch": record.get("allowed", True),
                                              "watch_delay": record.get("delay", 0)}, local=True)
            except LobbyError:
                rules = WatchRules()
        if rules.delay < 0:  # the host's own bounds are wider, but never below nothing
            rules = WatchRules()
        self.watch.rules[table_id] = rules

    def _take_free_seat(self, conn: Conn, table: Table, seat: int | None) -> int:
        """A watcher (or anyone in the lobby) takes a free seat of a playing table: one the host
        removed its player from. Its name stays the one the game knows."""
        free = [i for i, s in enumerate(table.seats)
                if s.kind == "human" and s.identity is None]
        if seat is None and free:
            seat = free[0]
        if seat is None or seat not in free:
            raise LobbyError("not_open", f"Table {table.id} has already started.")
        self._check_can_move(conn)  # type: ignore[attr-defined]
        here = self.where(conn.identity)  # type: ignore[attr-defined]
        if here is not None and here[0].status == "open":
            here[0].seats[here[1]].clear()
            self._lobby_changed(here[0])  # type: ignore[attr-defined]
        s = table.seats[seat]
        s.identity, s.absent, s.absent_auto = conn.identity, False, False
        self.seated[conn.identity] = table.id  # type: ignore[attr-defined]
        self._resync(table, seat)  # type: ignore[attr-defined]
        self._advance(table)  # type: ignore[attr-defined]
        return seat

    # -- the lobby's word on watching -----------------------------------------------------------
    def watch_info(self, table: Table, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` (a table's lobby entry) with its watchers' names, its rules, and which seats
        of a playing table are free to take."""
        rules = self.rules_of(table.id)
        info["watchers"] = self.watcher_names(table.id)
        info["watch"] = rules.allowed
        info["watch_delay"] = rules.delay
        if table.status == "playing":
            for entry, seat in zip(info["seats"], table.seats, strict=True):
                if seat.kind == "human" and seat.identity is None:
                    entry["free"] = True
        return info

    def forget_watcher(self, conn_id: int) -> None:
        """A connection went away: it watches nothing any more."""
        self.watch.budgets.pop(conn_id, None)
        if conn_id in self.watch.watchers:
            self._unwatch(conn_id)

    def table_dropped(self, table_id: int) -> None:
        """A table is gone: its watchers are told, its rules forgotten."""
        for w in self.watch.of_table(table_id):
            self._unwatch(w.conn, "no_table", f"Table {table_id} is gone.")
        self.watch.rules.pop(table_id, None)
        self.watch.lags.pop(table_id, None)
        self.watch.told.pop(table_id, None)

    # -- frames -----------------------------------------------------------------------------------
    def watcher_names(self, table_id: int) -> list[str]:
        """The names of those watching ``table_id``, in the order they came."""
        return [self.conns[w.conn].name for w in self.watch.of_table(table_id)
                if w.conn in self.conns][:MAX_WATCHERS]

    def watchers_to_seats(self, table: Table, change: Change) -> None:
        """(Called from the tick, before the seats' frames.) The seats are told who watches
        when that changed — a change of the table like any other: one frame to every seat —
        and a seat that gets its whole view again is told too."""
        names = self.watcher_names(table.id)
        if names != self.watch.told.get(table.id, []) or (change.full and names):
            change.watchers = names
        if names:
            self.watch.told[table.id] = names
        else:
            self.watch.told.pop(table.id, None)

    def watch_tick(self, table: Table, change: Change) -> None:
        """The watchers' frames of one change of ``table`` (called from the tick, after the
        seats'): one to every watcher on a burst, or to a watcher who has nothing yet."""
        watchers = self.watch.of_table(table.id)
        if not watchers or table.state is None:
            return
        over = table.status == "over"
        for w in watchers:
            if w.conn not in self.conns or (w.ended and over):
                continue
            if not (change.burst or w.sent is None or (over and not w.ended)):
                continue
            parts = self._watch_parts(table, w, over)
            data = traffic.assemble(parts, traffic.size_class(traffic.needed(parts)))
            self._emit(Send(w.conn, data=data))  # type: ignore[attr-defined]
            if over and not w.ended:
                w.ended = True
                for msg in reveal_messages(table) if table.salt else []:
                    self._emit(Send(w.conn, msg))  # type: ignore[attr-defined]

    def _lagged(self, table: Table) -> dict[str, Any]:
        """The state watchers see: the table's, or the one ``delay`` steps behind it."""
        assert table.state is not None
        delay = self.rules_of(table.id).delay
        if delay <= 0:
            return table.state
        lag = self.watch.lags.get(table.id)
        if lag is None:
            players = list(table.state["players"])
            lag = self.watch.lags[table.id] = Lag(
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
        sid = view.pop("state_id")
        whole = w.sent is None or over
        events = state["log"]
        if over:  # all-seeing: every event, each without its audience list
            log = [public_form(e) for e in events[-traffic.LOG_KEEP:]]
        else:
            start = max(0, len(events) - traffic.LOG_KEEP) if whole else w.log_at
            log = [public_form(e) for e in events[start:] if visible(e, None)]
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
