"""Quick reactions at a table (part of the sans-I/O core): ``emote`` {table, emote} shows an
emote of ``seeds/emotes.toml`` beside its player's name on every screen at the table.

Rules kept here:
* only a player seated at the table, while it plays or once it is over (its results screen);
* never while a secret step is open (:func:`secret_step_open`): there every client sends on a
  fixed schedule, and an emote's moment would say who was awake — and the refusal (every seat's
  frame, like any reply at a playing table) says nothing about who asked, since anyone may;
* within its player's budget for the others (:mod:`host.budget`), at a pace of its own like
  chat's (:data:`EMOTE_BURST` at once, then :data:`EMOTE_RATE` a second): each reaches every
  seat. Past it at a playing table the refusal rides in the frames once a second, the rest of a
  flood is dropped unanswered;
* at a playing table an emote rides in the table's frames (``emotes``: the traffic rule, every
  seat one frame of one length); at a finished one it is an ``emote`` message to the players
  still at its results (not those gone on to another table).
"""

from __future__ import annotations

from hexnet.emotes import by_key
from host.budget import EMOTE_BURST, EMOTE_RATE
from host.changes import Changes
from host.conn import Conn
from host.core import LobbyError, Outbox, Send
from host.people import People
from host.registry import Registry
from host.render import step_of
from host.table import Table

__all__ = ["EMOTE_BURST", "EMOTE_RATE", "Emotes", "secret_step_open"]


def secret_step_open(table: Table) -> bool:
    """Whether a secret step is open at ``table`` (:meth:`hexnet.engine.Game.secret_step`: Fang's
    guard, witches' window and evening powers, …) — in the engine's state, or as the seats were
    last told it (its close not yet published: the table still ticks on its cadence)."""
    return step_of(table) is not None or table.step_id is not None


class Emotes:
    """Carries emotes to the players at a table, within each connection's budget."""

    def __init__(self, out: Outbox, registry: Registry, people: People,
                 changes: Changes) -> None:
        self.out = out
        self.registry = registry
        self.people = people
        self.changes = changes

    def react(self, conn: Conn, table_id: int, key: str) -> None:
        """``conn``'s player shows emote ``key`` at ``table_id``."""
        table = self.registry.get(table_id)
        seat = table.seat_of(conn.identity)
        if seat is None:
            raise LobbyError("not_seated", f"Only the players at table {table_id} react there.")
        playing = table.status == "playing"

        def refuse(code: str, message: str) -> None:
            if not playing:
                raise LobbyError(code, message)
            # at a playing table a refusal is a frame to every seat: one a second at most
            if conn.budget.spend("emote_refusal"):
                self.changes.reply(table, seat, error={"code": code, "message": message})

        if by_key(key) is None:
            return refuse("no_emote", "There is no such emote.")
        if table.status not in ("playing", "over"):
            return refuse("not_started", "Emotes are for a table in play or just over.")
        if secret_step_open(table):
            return refuse("secret_step", "Not now: a secret step is open, and the moment of an "
                                         "emote could tell who is awake.")
        if not conn.budget.spend("emote"):
            return refuse("emote_too_fast", "One emote at a time; wait a moment.")
        if playing:
            self.changes.of(table).emotes.append({"seat": seat, "emote": key})
            return
        msg = {"type": "emote", "table": table.id, "seat": seat, "emote": key}
        for s in table.seats:
            there = self.people.conn_of(s.identity) if s.kind == "human" else None
            if there is not None and self.people.seated.get(s.identity or b"") == table.id:
                self.out.emit(Send(there.id, msg))
