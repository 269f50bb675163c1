"""Chat (part of the sans-I/O core): the lobby's, a table's, and the witches' channel.

Lobby chat goes to every connection; table and witches' chat at a playing table ride in the
table's frames (a whisper is a change: every seat gets one frame, the non-witches' with nothing
in it), and so do refusals of it. Each line reaches many connections, so it is paid from its
player's budget (:mod:`host.budget`: :data:`~host.budget.CHAT_BURST` lines at once, then
:data:`~host.budget.CHAT_RATE` a second, within the budget for the others; ``chat_too_fast``
past it, nothing sent to anyone else). Public table lines are kept for players who come back
(:meth:`host.presence.Presence.keep_chat`).
"""

from __future__ import annotations

from host.changes import Changes
from host.conn import Conn
from host.core import LobbyError, Outbox, Send, clean_text
from host.people import People
from host.presence import Presence


class Chat:
    """Carries chat lines to whom they are for, within each connection's chat budget."""

    def __init__(self, out: Outbox, people: People, changes: Changes,
                 presence: Presence) -> None:
        self.out = out
        self.people = people
        self.changes = changes
        self.presence = presence

    def say(self, conn: Conn, text: str, channel: str) -> None:
        """``conn``'s player says ``text`` on ``channel`` (``lobby``, ``table``, ``witches``)."""
        text = clean_text(text)
        here = self.people.where(conn.identity) if channel != "lobby" else None
        secret = here is not None and here[0].status == "playing"

        def refuse(code: str, message: str) -> None:
            if secret:
                # at a playing table a refusal is a frame to every seat: one a second, the
                # rest of a flood is dropped unanswered
                assert here is not None
                if conn.budget.spend("chat_refusal"):
                    self.changes.reply(here[0], here[1],
                                       error={"code": code, "message": message})
                return
            raise LobbyError(code, message)

        if not text:
            return refuse("empty", "That message was empty.")
        if not conn.budget.spend("chat"):
            return refuse("chat_too_fast", "You are writing faster than the others can read; "
                          "wait a moment.")
        if channel == "lobby":
            msg = {"type": "chat", "from": conn.name, "seat": None, "text": text,
                   "channel": channel}
            for target in list(self.people.conns.values()):
                self.out.emit(Send(target.id, msg))
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
            self.presence.keep_chat(table, line)
        if secret:
            change = self.changes.of(table)
            for s in seats:
                change.chat.setdefault(s, []).append(line)
            return
        conns = self.people.seat_conns(table)
        for s in seats:
            if s in conns:
                self.out.emit(Send(conns[s], {"type": "chat", **line}))
