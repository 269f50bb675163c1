"""Playing at a table (part of the sans-I/O core): actions, stale checks, views per seat,
absent seats, timers, host-side bots, chat. Mixed into :class:`host.lobby.Lobby`, whose
plumbing (``_emit``, ``_flush``, ``_table``, ``_conn_of``, ``where``, ``conns``) it uses."""

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
    clean_text,
)
from host.fairplay import reveal_messages
from host.table import MAX_HOST_STEPS, Table

if TYPE_CHECKING:
    from host.lobby import Conn


class PlayMixin:
    """The table-play half of :class:`host.lobby.Lobby`."""

    _answered: tuple[int, int] | None
    conns: dict[int, Conn]

    def _send_views(self, table: Table, only: int | None = None) -> None:
        if table.state is None or table.status == "halted":  # (its last step is not on disk)
            return
        if only is None:
            table.note_choices()
        for i, seat in enumerate(table.seats):
            if seat.kind != "human":
                continue
            conn = self._conn_of(seat.identity)
            if conn is None or (only is not None and conn.id != only):
                continue
            view, legal = table.view(i)
            answering = self._answered is not None and self._answered[0] == conn.id
            if not table.view_changed(i, view, legal) and only is None and not answering:
                continue
            msg = {"type": "view", "table": table.id, "view": view, "legal": legal}
            if table.commitment:
                msg["commitment"] = table.commitment
            if answering:
                msg["answered"] = self._answered[1]
            self._emit(Send(conn.id, msg))

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
        if not table.is_current(seat, msg["state_id"]):
            return reject("stale", "The game moved on before your action arrived; "
                                   "look again and choose anew.")
        try:
            events = table.act(seat, msg["action"])
        except IllegalAction as exc:
            return reject("illegal", exc.reason[:300], exc)
        self._accepted(table, seat, msg["action"], events)
        self._answered = (conn.id, msg["state_id"])
        try:
            self._advance(table)
        finally:
            self._answered = None

    def _accepted(self, table: Table, seat: int | None, action: dict[str, Any],
                  events: list[dict[str, Any]]) -> None:
        self._emit(Accepted(table.id, seat, dict(action), table.state_id, list(events)))

    def _advance(self, table: Table) -> None:
        """After a change: answer for absent seats, then send views, timers and bot turns."""
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
        self._send_views(table)
        if table.status == "over":
            if table.timer_key is not None:
                table.timer_key = None
                self._emit(CancelTimer(table.id))
            self._emit(TableOver(table.id, table.engine.outcome(table.state) or {}))
            self._send_reveal(table)
            self._lobby_changed()
            return
        deadline = table.engine.deadline(table.state)
        if deadline is None and table.timer_key is not None:
            table.timer_key = None
            self._emit(CancelTimer(table.id))
        elif deadline is not None and deadline.key != table.timer_key:
            table.timer_key = deadline.key
            self._emit(SetTimer(table.id, deadline.key, float(deadline.seconds)))
        for seat in table.waiting_for():
            if table.seats[seat].kind == "bot":
                self._emit(BotTurn(table.id, seat, table.state_id))

    def _send_reveal(self, table: Table) -> None:
        """The game is over: reveal seed, salt and every step to the table's humans. Those
        away at the end get the final view and the reveal when they reconnect
        (``table.missed_end``, see :meth:`_send_missed_end`)."""
        parts = reveal_messages(table) if table.salt else []
        for seat in table.seats:
            if seat.kind != "human" or seat.identity is None:
                continue
            conn = self._conn_of(seat.identity)
            if conn is None:
                table.missed_end.add(seat.identity)
                continue
            for msg in parts:
                self._emit(Send(conn.id, msg))

    def _send_missed_end(self, conn: Conn) -> None:
        """``conn``'s player was away when a game of theirs ended: its final view + reveal."""
        for table in list(self.tables.values()):
            if conn.identity in table.missed_end:
                table.missed_end.discard(conn.identity)
                self._send_views(table, only=conn.id)
                for msg in reveal_messages(table) if table.salt else []:
                    self._emit(Send(conn.id, msg))

    def timeout(self, table_id: int, key: str) -> None:
        """The shell's timer for ``table_id`` fired; applied only if ``key`` is still current."""
        table = self.tables.get(table_id)
        if table is None or table.status != "playing" or table.timer_key != key:
            return
        table.timer_key = None
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
        table = self.tables.get(table_id)
        if (table is None or table.status != "playing" or table.state_id != state_id
                or seat not in table.waiting_for() or table.seats[seat].kind != "bot"):
            return
        view, legal = table.view(seat)
        policy = get_policy(table.game_name, table.seats[seat].policy or "random")
        try:
            action = policy(view, legal, table.bot_rng)
            events = table.act(seat, action)
        except Exception:  # noqa: BLE001 - a confused policy must not stall the table
            action = legal[0]
            events = table.act(seat, action)
        self._accepted(table, seat, action, events)
        self._advance(table)
        self._flush()

    def _chat(self, conn: Conn, text: str, channel: str) -> None:
        text = clean_text(text)
        if not text:
            raise LobbyError("empty", "That message was empty.")
        here = self.where(conn.identity)
        seat = here[1] if here else None
        msg = {"type": "chat", "from": conn.name, "seat": seat, "text": text,
               "channel": channel}
        if channel == "lobby":
            targets = list(self.conns.values())
        elif here is None:
            raise LobbyError("not_seated", "You are not at a table.")
        else:
            table, seat = here
            seats = list(range(len(table.seats)))
            if channel == "witches":
                members = getattr(table.engine, "chat_members", None)
                if members is None or table.state is None:
                    raise LobbyError("no_channel", "This game has no witches' channel.")
                seats = list(members(table.state, channel))
                if seat not in seats:
                    raise LobbyError("no_channel", "You may not speak on that channel.")
            idents = {table.seats[s].identity for s in seats}
            targets = [c for c in self.conns.values() if c.identity in idents]
        for target in targets:
            self._emit(Send(target.id, msg))

