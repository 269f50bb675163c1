"""Playing at a table (part of the sans-I/O core): actions, stale checks, frames per seat,
covers, absent seats, timers, host-side bots, chat. Mixed into :class:`host.lobby.Lobby`, whose
plumbing (``_emit``, ``_flush``, ``_table``, ``by_identity``, ``where``, ``conns``) it uses.

Actions are applied as they arrive; what they change is collected per table (:class:`Change`)
and sent by :meth:`PlayMixin.tick` — once per loop tick in the host, at once after every call
in tests — as one frame per connected seat (:mod:`host.render`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexnet.engine import IllegalAction
from hexnet.games import get_policy
from host.core import (
    Accepted,
    BotTurn,
    CancelTimer,
    LobbyError,
    Send,
    SetTimer,
    TableOver,
    TablesChanged,
    clean_text,
)
from host.fairplay import reveal_messages
from host.limits import TokenBucket
from host.render import Change, cover_of, frames
from host.table import MAX_HOST_STEPS, Table

if TYPE_CHECKING:
    from host.lobby import Conn

# Chat lines one connection may send at once, then a second; each line reaches every other
# connection (the lobby) or every seat of the table, so more would let one client flood many.
CHAT_BURST = 5
CHAT_RATE = 1.0
# Refused actions (stale, illegal, too late) of one connection answered in a frame to every seat
# of its table (so that nobody can tell who was refused), at once, then a second. Past that the
# answer goes to the sender alone: a client flooding refused actions cannot make every other
# seat receive a frame per message. An honest client's refusals are races ("stale"), a few per
# change of the table; only a flood tells an eavesdropper that this seat was refused.
REFUSAL_BURST = 10
REFUSAL_RATE = 2.0


class PlayMixin:
    """The table-play half of :class:`host.lobby.Lobby`."""

    conns: dict[int, Conn]
    tables: dict[int, Table]
    _changes: dict[int, Change]

    # -- changes and their frames ----------------------------------------------------------
    def _change(self, table: Table) -> Change:
        change = self._changes.get(table.id)
        if change is None:
            if not self._changes:
                self._emit(TablesChanged())
            change = self._changes[table.id] = Change()
        return change

    def _reply(self, table: Table, seat: int, **fields: Any) -> None:
        """A reply to ``seat`` that rides in the table's next frames (a burst to every seat)."""
        change = self._change(table)
        change.replies.setdefault(seat, {}).update(fields)
        change.alone.discard(seat)

    def _refuse_action(self, table: Table, seat: int, conn: Conn, **fields: Any) -> None:
        """A refused action's answer: in a burst to every seat while ``conn``'s refusal
        budget (:data:`REFUSAL_BURST`, :data:`REFUSAL_RATE`) lasts, else in a frame to
        ``seat`` alone (riding a burst anyway if one is due). At a secret step always in a
        burst: there an answer to the sender alone would tell an action (a witch's, a seer's)
        from a cover, which is always answered to every seat."""
        if conn.refusals is None:
            conn.refusals = TokenBucket(REFUSAL_RATE, REFUSAL_BURST,
                                        self.clock)  # type: ignore[attr-defined]
        change = self._change(table)
        riding = seat in change.replies and seat not in change.alone
        if riding or conn.refusals.take() or cover_of(table) is not None:
            return self._reply(table, seat, **fields)
        change.replies.setdefault(seat, {}).update(fields)
        change.alone.add(seat)

    def _resync(self, table: Table, seat: int) -> None:
        """``seat`` gets its whole view (and recent log) again with the next frames."""
        self._change(table).full.add(seat)

    def _seat_conns(self, table: Table) -> dict[int, int]:
        out = {}
        for i, seat in enumerate(table.seats):
            if seat.kind == "human" and seat.identity is not None:
                conn = self.by_identity.get(seat.identity)
                if conn is not None:
                    out[i] = conn.id
        return out

    def tick(self) -> None:
        """Send every table changed since the last tick its frames: one per connected seat,
        of one length (:mod:`host.render`); then reveals that are due. The shell calls this
        once per loop tick, after the journal records of the tick's actions were written."""
        changes, self._changes = self._changes, {}
        for tid, change in changes.items():
            table = self.tables.get(tid)
            if table is None or table.state is None or table.status == "halted":
                continue  # (halted: its last step is not in the journal)
            conns = self._seat_conns(table)
            table.presence_now = self.presence_of(table)  # type: ignore[attr-defined]
            self.watchers_to_seats(table, change)  # type: ignore[attr-defined]  # watchers.py
            for conn_id, data in frames(table, change, conns):
                self._emit(Send(conn_id, data=data))
            if change.reveal:
                self._send_reveal(table, conns)
            for seat in change.reveal_to:
                if seat in conns:
                    for msg in reveal_messages(table) if table.salt else []:
                        self._emit(Send(conns[seat], msg))
            self.watch_tick(table, change)  # type: ignore[attr-defined]  # host/watchers.py

    def _act(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = self._table(msg["table"])
        seat = table.seat_of(conn.identity)

        def reject(code: str, text: str, reason: IllegalAction | None = None) -> None:
            msg = {"type": "rejected", "table": table.id, "code": code, "message": text}
            if reason is not None:  # the refusal as data: the client words it
                msg["reason"] = {"key": reason.key, "args": reason.params}
            self._emit(Send(conn.id, msg))

        if seat is None:
            return reject("not_seated", f"You have no seat at table {table.id}.")
        if table.status != "playing":
            return reject("not_playing", f"Table {table.id} is not playing.")
        # from here on the reply rides in the table's frames: every seat gets one
        if not table.is_current(seat, msg["state_id"]):
            if table.too_late(msg["state_id"]):
                return self._too_late(table, seat, conn)
            return self._refuse_action(table, seat, conn, rejected={
                "code": "stale", "message": "The game moved on before your action arrived; "
                                            "look again and choose anew."})
        try:
            events = table.act(seat, msg["action"])
        except IllegalAction as exc:
            if table.too_late(msg["state_id"]) and msg["state_id"] < table.state_id:
                return self._too_late(table, seat, conn)
            return self._refuse_action(table, seat, conn, rejected={
                "code": "illegal", "message": exc.reason[:300],
                "reason": {"key": exc.key, "args": exc.params}})  # the client words it
        self._accepted(table, seat, msg["action"], events)
        self._reply(table, seat, answered=msg["state_id"])
        table.waited_since.pop(seat, None)  # it acted: a new wait counts from now
        self._advance(table)

    def _too_late(self, table: Table, seat: int, conn: Conn) -> None:
        """Refuse an answer chosen in the timed window that closed before it arrived: "too
        late" (code ``too_late``, worded by the client), not a rules error."""
        reason = IllegalAction("too_late")
        self._refuse_action(table, seat, conn, rejected={
            "code": "too_late", "message": "Too late: the time for that answer ran out "
                                           "before it reached the host.",
            "reason": {"key": reason.key, "args": reason.params}})

    def _cover(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A seat's empty turn at a secret step: counted (at most the step's frames per seat)
        and answered like a change, with one frame to every seat. Anything else is ignored."""
        table = self.tables.get(msg["table"])
        if table is None or table.status != "playing":
            return
        seat = table.seat_of(conn.identity)
        step = cover_of(table)
        if seat is None or step is None or step["key"] != msg["key"]:
            return
        if any(k != step["key"] for k, _ in table.covers):
            table.covers = {}
        n = table.covers.get((step["key"], seat), 0)
        if n >= step["frames"]:
            return
        table.covers[(step["key"], seat)] = n + 1
        self._change(table).changed = True

    def _accepted(self, table: Table, seat: int | None, action: dict[str, Any],
                  events: list[dict[str, Any]]) -> None:
        self._emit(Accepted(table.id, seat, dict(action), table.state_id, list(events)))

    def _advance(self, table: Table) -> None:
        """After a change: answer for absent seats, then mark the table's frames due and set
        timers and bot turns."""
        if table.status not in ("playing", "over") or table.state is None:
            return
        for _ in range(MAX_HOST_STEPS):
            if table.status != "playing":
                break
            absent = [s for s in table.waiting_for() if table.seats[s].absent]
            if not absent:
                break
            action = {"type": "absent", "seat": absent[0]}
            events = table.act(None, action)
            self._accepted(table, None, action, events)
            self._played_for(table, absent[0])  # type: ignore[attr-defined]
        change = self._change(table)
        change.changed = True
        if table.status == "over":
            if table.timer_key is not None:
                table.timer_key = None
                self._emit(CancelTimer(table.id))
            self._emit(TableOver(table.id, table.engine.outcome(table.state) or {}))
            change.reveal = True
            self._lobby_changed(table)
            return
        deadline = table.engine.deadline(table.state)
        if deadline is None and table.timer_key is not None:
            table.timer_key = None
            table.closed_window = (table.timer_since, table.state_id - 1)
            self._emit(CancelTimer(table.id))
        elif deadline is not None and deadline.key != table.timer_key:
            if table.timer_key is not None:
                table.closed_window = (table.timer_since, table.state_id - 1)
            table.timer_key, table.timer_since = deadline.key, table.state_id
            self._emit(SetTimer(table.id, deadline.key, float(deadline.seconds)))
        for seat in table.engine.bots_asked(table.state):
            if table.seats[seat].kind == "bot":
                self._emit(BotTurn(table.id, seat, table.state_id))
        self._watch_waiting(table)  # type: ignore[attr-defined]  # host/presence.py

    def _send_reveal(self, table: Table, conns: dict[int, int]) -> None:
        """The game is over: reveal seed, salt and every step to the table's humans. Those
        away at the end get the final view and the reveal when they reconnect
        (``table.missed_end``, see :meth:`_send_missed_end`)."""
        parts = reveal_messages(table) if table.salt else []
        for i, seat in enumerate(table.seats):
            if seat.kind != "human" or seat.identity is None:
                continue
            if i not in conns:
                table.missed_end.add(seat.identity)
                continue
            for msg in parts:
                self._emit(Send(conns[i], msg))

    def _send_kept_chat(self, conn: Conn, table: Table) -> None:
        """A player back at a table still seating gets its chat so far (at a playing table the
        kept chat rides in their full frame, :func:`host.render.frames`)."""
        if table.status == "open":
            for line in table.chat_kept:
                self._emit(Send(conn.id, {"type": "chat", **line}))

    def _send_missed_end(self, conn: Conn) -> None:
        """``conn``'s player was away when a game of theirs ended: its final view + reveal."""
        for table in list(self.tables.values()):
            if conn.identity in table.missed_end:
                table.missed_end.discard(conn.identity)
                seat = table.seat_of(conn.identity)
                if seat is not None:
                    self._resync(table, seat)
                    self._change(table).reveal_to.add(seat)

    def timeout(self, table_id: int, key: str) -> None:
        """The shell's timer for ``table_id`` fired; applied only if ``key`` is still current."""
        table = self.tables.get(table_id)
        if table is None or table.status != "playing" or table.timer_key != key:
            return
        table.timer_key = None
        table.closed_window = (table.timer_since, table.state_id)
        action = {"type": "timeout", "key": key}
        try:
            events = table.act(None, action)
        except IllegalAction:
            self._advance(table)
            self._flush()
            return
        self._accepted(table, None, action, events)
        self._advance(table)
        self._flush()

    def bot_turn(self, table_id: int, seat: int, state_id: int) -> None:
        """Let the bot in ``seat`` choose from its view, if ``state_id`` is still current."""
        asked = self.bot_question(table_id, seat, state_id)
        if asked is None:
            return
        view, legal, policy, rng = asked
        try:
            action = policy(view, legal, rng)
        except Exception:  # noqa: BLE001 - a confused policy must not stall the table
            action = legal[0]
        self.bot_answer(table_id, seat, state_id, action)

    def bot_question(self, table_id: int, seat: int, state_id: int
                     ) -> tuple[dict[str, Any], list[dict[str, Any]], Any, Any] | None:
        """What the bot in ``seat`` decides on — its view, legal actions, policy and the
        table's bot generator — or None if ``state_id`` is stale. A shell may run a policy that
        ``thinks`` off its event loop and hand the choice to :meth:`bot_answer`."""
        table = self.tables.get(table_id)
        if (table is None or table.status != "playing" or table.state_id != state_id
                or seat not in table.waiting_for() or table.seats[seat].kind != "bot"):
            return None
        view, legal = table.view(seat)
        policy = get_policy(table.game_name, table.seats[seat].policy or "random")
        return view, legal, policy, table.bot_rng

    def bot_answer(self, table_id: int, seat: int, state_id: int,
                   action: dict[str, Any] | None) -> None:
        """Apply the bot's choice if ``state_id`` is still current (its first legal action if
        the choice is missing or refused)."""
        table = self.tables.get(table_id)
        if (table is None or table.status != "playing" or table.state_id != state_id
                or seat not in table.waiting_for() or table.seats[seat].kind != "bot"):
            return
        legal = table.engine.legal_actions(table.state, seat)
        if action is None:  # the policy failed or was stopped: its first legal action
            action = legal[0]
        try:
            events = table.act(seat, action)
        except IllegalAction:
            action = legal[0]
            events = table.act(seat, action)
        self._accepted(table, seat, action, events)
        if table.seats[seat].reserved is not None:
            self._played_for(table, seat)  # type: ignore[attr-defined]
        self._advance(table)
        self._flush()

    def _chat(self, conn: Conn, text: str, channel: str) -> None:
        """Lobby chat goes to every connection; table and witches' chat at a playing table
        ride in the table's frames (a whisper is a change: every seat gets one frame, the
        non-witches' with nothing in it), and so do refusals of it. Each line reaches many
        connections, so a connection may send :data:`CHAT_BURST` lines at once, then
        :data:`CHAT_RATE` a second (``chat_too_fast`` past it, nothing sent to anyone else)."""
        text = clean_text(text)
        here = self.where(conn.identity) if channel != "lobby" else None
        secret = here is not None and here[0].status == "playing"

        def refuse(code: str, message: str) -> None:
            if secret:
                assert here is not None
                self._reply(here[0], here[1], error={"code": code, "message": message})
                return
            raise LobbyError(code, message)

        if not text:
            return refuse("empty", "That message was empty.")
        if conn.chat_budget is None:
            clock = self.clock  # type: ignore[attr-defined]
            conn.chat_budget = TokenBucket(CHAT_RATE, CHAT_BURST, clock)
            conn.chat_refusals = TokenBucket(CHAT_RATE, 1, clock)
        if not conn.chat_budget.take():
            # at a playing table a refusal is a frame to every seat: one a second, the rest
            # of the flood is dropped unanswered
            if secret and conn.chat_refusals is not None and not conn.chat_refusals.take():
                return None
            return refuse("chat_too_fast", "You are writing faster than the others can read; "
                          "wait a moment.")
        if channel == "lobby":
            msg = {"type": "chat", "from": conn.name, "seat": None, "text": text,
                   "channel": channel}
            for target in list(self.conns.values()):
                self._emit(Send(target.id, msg))
            return
        if here is None:
            raise LobbyError("not_seated", "You are not at a table.")
        table, seat = here
        seats = list(range(len(table.seats)))
        if channel == "witches":
            members = getattr(table.engine, "chat_members", None)
            if members is None or table.state is None:
                return refuse("no_channel", "This game has no witches' channel.")
            seats = list(members(table.state, channel))
            if seat not in seats:
                return refuse("no_channel", "You may not speak on that channel.")
        line = {"from": conn.name, "seat": seat, "text": text, "channel": channel}
        if channel == "table":
            self._keep_chat(table, line)  # type: ignore[attr-defined]
        if secret:
            change = self._change(table)
            for s in seats:
                change.chat.setdefault(s, []).append(line)
            return
        conns = self._seat_conns(table)
        for s in seats:
            if s in conns:
                self._emit(Send(conns[s], {"type": "chat", **line}))
